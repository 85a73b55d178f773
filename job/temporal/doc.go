// Package temporal runs a load job on `lakeload worker` processes through Temporal
// (docs/scale-out.md): the job's driver as the job workflow (JobWorkflow) of bounded driver
// segments (DriveSegment: job.Run on a worker), and each window attempt's write tasks as
// activities of a per-window workflow (WindowWorkflow) started by the segment's Executor.
//
// Invariants:
//   - one driver implementation: a segment is job.Run with job.Config.Bound; the workflow only
//     sequences segments, adds their counters and continues as new every SegmentOptions.PerRun
//     segments, so its history stays small whatever the job's length;
//   - one job workflow per job: id JobWorkflowID(spec), started with the "use existing" conflict
//     policy, so a second submitter attaches instead of starting a second driver; the workflow runs
//     one segment at a time;
//   - a segment's lease token names its workflow (SegmentLeaseToken); a segment displaces only a
//     holder of its own workflow that it has seen silent (the lease at one version) for longer than
//     the heartbeat timeout on its own clock (SegmentLeasePolicy) — never by comparing clocks of two
//     hosts, never a holder that renews, an in-process run or another workflow; overlapping drivers
//     stay harmless by the protocol's write-once records (I2, S1);
//   - one workflow per window attempt, id WorkflowID(job, commit user, window, attempt); starting it
//     again while it runs re-attaches to it, so a task batch never runs twice under one id at once;
//   - workflow histories carry plain references only (the job.Spec, window, attempt, split paths, counters):
//     task outputs are stored in the checkpoint store by job.RunTask, and the driver commits only
//     from stored results;
//   - activities are at-least-once: a retried, duplicated or timed-out task try finds the stored
//     result of its task and stands down, or loses the write-once race; a retried segment resumes
//     through job.Run's recovery (a commit that landed is found by its marker and published);
//   - driver errors keep their kind across the wire (errorKinds): input errors, lease, stop,
//     corruption, abort and table errors are not retried and reach the submitter matching the same
//     sentinel as in process.
package temporal
