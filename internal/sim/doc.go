// Package sim is a deterministic model check of lakeload's exactly-once load job (job.Run), run by
// `go test`; it exports nothing.
//
// A simulated world keeps everything in memory: the input files (CSV and Parquet on fileio/mem,
// handed to the job as pre-planned splits with their fingerprints, one split per window, the
// second window empty), the table and the checkpoint store (one fileio/mem behind a
// fault-injecting wrapper). Parallelism is 1 and the clock is fixed, so a run makes the same hook
// calls and storage mutations in the same order every time and "the k-th one" names one moment of
// the run (the explorer fails if a run does not reach a point an earlier run reached).
//
// A process (proc) is one job.Run. It dies — the call fails, and every later storage call and hook
// fails too, so nothing else it would have done happens (not even releasing its lease) — at
//   - the k-th named hook call (job.Point*), or
//   - the k-th storage mutation (Writer.Close, WriteIfAbsent, Delete, DeleteAll), either before it
//     is applied ("lost") or after ("landed", reported failed).
//
// Every process runs with Config.Takeover: simulated processes share one pid, so a dead holder of
// the lease looks alive. The lease is one of the fences of a paused runner (docs/protocol.md, "Paused
// runners and expiry"); the late writes below land without passing any fence, so safety there rests
// on write-once records and the snapshot lookup alone.
//
// A zombie is a process paused (not dead) at a hook call or before a storage mutation while a new
// process takes the job over; the new process pauses in turn at one of its own moments while the
// zombie resumes, so the interleaving stays deterministic. The zombie then either runs on to its
// own end with its stale in-memory state (a SIGSTOPped driver continued with SIGCONT), or applies
// just the paused write and dies (a write in flight when its process was lost: a worker's saved
// task result, the old driver's `assigned`, `committed` or `published`, its snapshot file, hint or
// consumer landing after the takeover). Every checkpoint record and snapshot file is created with
// WriteIfAbsent, so a late write either fills a slot that is still empty — which the new driver
// must then notice — or fails; the model checks both.
//
// World events (TestZombieAfterExpiry): before the zombie resumes, another writer commits and
// snapshot expiry removes every snapshot it may, honouring the job's pin or ignoring it; the zombie's
// lookup then misses markers that expired. With pins ignored a job may rightly stop ("cannot be
// verified", I3); the history is then checked as stopped: the table holds the windows shown committed
// once each (and at most once the window that could not be verified) and the other writer's rows.
// On the code before the fences this found duplicate windows and a snapshot id reused after expiry
// (the other writer's rows vanished).
//
// Histories are enumerated, not sampled, at the named points: every k1 of the first run, every k2
// of the resumed run (which depends on k1), then a clean run. After every run the protocol's
// invariants are checked on the store and the table (docs/protocol.md: the store loads; at most one
// APPEND snapshot per window, all by the job's commit user; windows committed in increasing order;
// a marker names an attempt whose stored results cover the window exactly, with that attempt's
// coverage digest; `committed` and `published` agree with the marker, published ⊆ committed).
// After the final run also: the store says done, every split is published exactly once with all
// its rows, the table equals the state computed independently from the input (rows applied in
// order) — on an aggregation (sum) table, where a double commit changes the sums, and on a
// partitioned deduplicate table loaded with upserts and deletes — and one more run finds the job
// done and writes nothing but its lease.
//
// The default run (three windows) enumerates every pair of named-point crashes on both tables;
// every storage-level crash of the first run, lost and landed, with three sampled crash points of
// the resumed run after each; and zombies paused at every named point / every non-data write,
// resumed before every named point of the new driver or after it ended (sampled on the
// deduplicate table). LAKELOAD_SIM=full uses four windows and enumerates everything: every pair of
// storage-level crashes, data-file and manifest writes landing late, and every storage mutation of
// the new driver as a moment to resume the zombie. Each test logs how many interleavings it explored.
package sim
