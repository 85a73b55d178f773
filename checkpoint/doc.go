// Package checkpoint is the durable journal of a lakeload load job and the pure recovery decision
// over it. docs/protocol.md is the specification; this comment lists what the code enforces.
//
// Store layout under a root directory (every path is a record of this package):
//
//	job.json                              JobRecord, write-once
//	plan.json                             PlanRecord (the split list, opaque splits), write-once
//	plan-rev/<n>                          PlanRevision n (1, 2, …): splits dropped and added by re-planning
//	                                      files replaced before any of their splits was assigned
//	lease/lease-<n>                       LeaseRecord version n; the highest n is the lease (see lease.go)
//	windows/<w>/assigned                  Assigned: splits, sequence base, snapshot seen, first attempt
//	windows/<w>/attempt-<a>/begin         AttemptStart: a later attempt a of w exists (write-once)
//	windows/<w>/attempt-<a>/<task>.res    TaskResult: (opaque) commit messages + coverage of one task
//	windows/<w>/committed                 Committed: snapshot id + attempt, after verification
//	windows/<w>/published                 Published: the coverage now done
//	windows/<w>/voided                    Voided: w was rolled back and its splits return to the pool
//	done                                  DoneRecord: the job (its first generation) finished
//	generations/<g>/start                 Generation g ≥ 2 of an incremental job: its splits, plan revision, changed files
//	generations/<g>/done                  DoneRecord of generation g
//
// The job keeps its quarantine files (job.QuarantinePath) under quarantine/ beside these records;
// they are not records, and Load, which reads named records only, ignores them.
//
// Invariants:
//   - Every record except the lease is written exactly once with fileio.WriteIfAbsent; a second
//     write fails with an error wrapping fileio.ErrExist. Nothing in the store is ever rewritten.
//   - Every record is an envelope (magic, format version, kind, CRC32C, length) around a JSON body
//     that repeats the record's identity (window, attempt, task); a torn, corrupt, misplaced or
//     unknown record is an error wrapping ErrCorrupt that names its path — never skipped.
//   - A split index names one split for the life of the job: revisions append splits and drop
//     indexes that no live window holds; Remaining follows the input order the revisions record.
//   - Load reads the whole store into a State, a value that nothing mutates afterwards. LoadWindow
//     returns a new State with one window read again (with the same checks for that window); the
//     other windows stay as loaded, so recovery and decisions across windows use Load.
//   - Decide(State, TableView) is a pure function: the recovery plan depends on its arguments only.
//     It keeps protocol invariants I1 (published ⊆ committed), I2 (one commit per window, in
//     increasing window order), I3 (stop, never guess, when an outcome is unknown) and I5 (publish
//     the attempt named by the snapshot that committed).
//   - DecideOverwrite (overwrite jobs) is pure too: no window is committed alone; the one OVERWRITE
//     snapshot after the last window is published to every window with the attempts it names.
//   - Generations are numbered 2..n without gaps, each started after the previous one is done; Done
//     is the current generation's done record.
//   - Input splits and commit messages are the job's JSON (Opaque), kept byte for byte in the records
//     that hold them, each with the record format version it needs; the package reads no table and
//     imports only fileio and paimon/spec (the job gathers the TableView, job/recovery_gather.go).
//   - The package starts no goroutines and keeps no global state.
package checkpoint
