// Package sweep is the single-fault sweep of lakeload's load job (job.Run); it exports nothing and
// holds only tests.
//
// A world keeps a small load in memory (one fileio/mem for the input files, the table and the
// checkpoint store, all seen through one fileio/errorfs wrapper): a table of internal/loadtest
// (append, aggregation sum, partitioned deduplicate with upserts and deletes) and its input in
// Parquet, CSV and JSON Lines, planned from a glob into two or three windows, Parallelism 1, a
// fixed clock. A clean run numbers every I/O call of the load (N of them; the order is
// deterministic). For each chosen k in 1..N a fresh world runs the load with the k-th call failing
// — with an error; when the k-th call is a Writer.Close or WriteIfAbsent, separately with a torn
// write (half the bytes land, then the error); when it is a mutation, separately landed (it
// happens, then reports an error) — then resumes with a clean run.
//
// A torn WriteIfAbsent is outside the fileio contract (WriteIfAbsent is atomic on every backend),
// so after one the sweep asks less: lakeload must refuse with an error naming the torn file (the
// checkpoint store's "torn record", a snapshot that does not parse) or recover; either way the
// store's claims about the table must hold.
//
// Checked for each k:
//   - the faulty run finishes, or fails with an error whose message names the failed operation's
//     path or kind (else: a failure of clarity) and, unless the write was torn, wraps the injected
//     error (else the user is told about something other than the failed I/O); it never panics;
//   - after the faulty run and after the resume, every live file of every snapshot exists, and
//     every window the store marks published is committed in the table by the job's marker
//     snapshot (or recorded empty);
//   - the resume succeeds, the store says done, the published windows hold every input row once,
//     and the table equals loadtest's independent model of the input.
//
// The default `go test` runs a sample of k (the first and last 20, and every 7th); LAKELOAD_SWEEP=long
// (`make sweep`) runs every k.
package sweep
