// Package sim is a deterministic model check of lakeload's exactly-once load job (job.Run), run by
// `go test`; it exports nothing.
//
// A simulated world keeps everything in memory: the input files (CSV and Parquet on fileio/mem,
// handed to the job as pre-planned splits), the table and the checkpoint store (one fileio/mem
// behind a fault-injecting wrapper). Parallelism is 1 and the clock is fixed, so a run performs the
// same sequence of hook calls and storage mutations every time, and "the k-th one" names one
// moment of the run.
//
// A process (proc) is one run of job.Run. It dies — the k-th call fails and every later storage call
// and hook fails, so nothing else it would have done happens — at
//   - the k-th named hook point (job.Point*), or
//   - the k-th mutating storage operation (Writer.Close, WriteIfAbsent, Delete, DeleteAll), either
//     before the operation is applied ("lost") or after ("landed but reported failed").
//
// A zombie is a process paused (not dead) at a hook point or before a storage mutation while a new
// process takes the job over; it then resumes, either running on to its own end with its stale
// in-memory state (a SIGSTOPped driver continued with SIGCONT) or applying just the paused write
// and dying (a write that was in flight when its process was lost: a worker's saved task result or
// the old driver's snapshot file landing late). Because every checkpoint record and every snapshot
// file is created with WriteIfAbsent, a late write either lands in an empty slot — where the new
// driver must then find it — or fails with ErrExist; the model checks both.
//
// The enumeration is exhaustive over the chosen crash points: every k1 of the first run, every k2 of
// the resumed run (which itself depends on k1), then a clean run. After every run the protocol's
// invariants are checked on the store and the table (docs/protocol.md I1, I2, I5: published ⊆
// committed, at most one APPEND snapshot per window with the job's commit user, windows committed
// in increasing order, committed/published agree with the marker's attempt); after the final run
// also that the store says done, every split is published exactly once and the table equals the
// state computed independently from the input (rows applied in order) — on an aggregation (sum)
// table, where a double commit changes sums, and on a partitioned deduplicate table loaded with
// upserts and deletes.
//
// LAKELOAD_SIM=full widens the enumeration (four windows, every pair of storage-level crashes, every
// late write against every moment of the new driver).
package sim
