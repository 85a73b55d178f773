// Package temporal runs a load job's write tasks as Temporal activities on `lakeload worker`
// processes (docs/scale-out.md). It implements job.Executor; the driver (recovery, assignment,
// commit, publish) stays in job.Run, fenced by the job's checkpoint lease.
//
// Invariants:
//   - one workflow per window attempt, id WorkflowID(job, commit user, window, attempt); starting it
//     again while it runs re-attaches to it, so a task batch never runs twice under one id at once;
//   - workflow history carries plain references only (window, attempt, split paths, row counts):
//     task outputs are stored in the checkpoint store by job.RunTask, and the driver commits only
//     from stored results;
//   - activities are at-least-once: a retried, duplicated or timed-out task try finds the stored
//     result of its task and stands down, or loses the write-once race; either way one result per
//     task id exists and the driver commits it once (protocol I2, S1);
//   - input errors (job.InputError) are non-retryable and reach the driver as *job.InputError, so a
//     fresh window with bad input is voided exactly as in process.
package temporal
