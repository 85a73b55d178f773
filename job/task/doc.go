// Package task is one write task of a load job (package job): plain data that runs anywhere, in
// the driver's process or on a worker (job/temporal).
//
// Invariants it keeps for the protocol (docs/protocol.md):
//   - a row's sequence number is its split's first number + its position in the split (I4), so
//     every attempt of a window writes the same numbers, whatever order readers deliver batches in;
//   - a task's files count only once its result is stored (Run; its commit messages as the opaque
//     JSON of records.go, read back with Messages); a result already stored stands,
//     and a try that loses the race leaves files no result names, never committed;
//   - the quarantine file of a task's attempt is written before its result, so a stored result's
//     Quarantined count always has its file;
//   - row-id mode: a row whose id an earlier window published is skipped, never written again;
//   - on error a task deletes the files it wrote: they belong to no commit.
//
// It never imports package job or job/plan. Its goroutines (RunAll, ReadInOrder) are bounded and
// waited for before the call that started them returns.
package task
