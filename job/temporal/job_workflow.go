package temporal

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lakeload/lakeload/job"
)

// Wire names of the job workflow and its driver-segment activity.
const (
	JobWorkflowName = "lakeload.Job"
	SegmentActivity = "lakeload.DriveSegment"
)

// Defaults of SegmentOptions.
const (
	DefaultSegmentDuration = 10 * time.Minute
	DefaultSegmentsPerRun  = 50
	DefaultSegmentTries    = 10
)

// JobWorkflowID is the id of a job's workflow: "lakeload.job/<db.table>/<job>/<h>", h the first 12
// hex digits of SHA-256 of "<warehouse>\n<checkpoint>" (the locations as the workflow's Spec carries
// them: job.Spec.Absolute).
// Temporal runs at most one open workflow per id, so at most one driver of a job exists per
// namespace; the hash keeps equally named jobs of two warehouses apart.
func JobWorkflowID(spec job.Spec) string {
	h := sha256.Sum256([]byte(spec.Warehouse + "\n" + spec.Checkpoint))
	return fmt.Sprintf("lakeload.job/%s/%s/%s", spec.TableName, spec.Name, hex.EncodeToString(h[:6]))
}

// SegmentOptions bound the driver segments of a job workflow and their activities.
type SegmentOptions struct {
	MaxWindows  int64         `json:"maxWindows,omitempty"`  // a segment stops after this many windows (0: no window bound)
	MaxDuration time.Duration `json:"maxDuration,omitempty"` // a segment stops between windows after this long (default 10m)
	// PerRun is the number of segments after which the workflow continues as new (default 50).
	PerRun int `json:"perRun,omitempty"`
	// Tries of one segment before the job fails (default 10); heartbeat timeout is Timing.HeartbeatTimeout.
	Tries int32 `json:"tries,omitempty"`
}

func (s SegmentOptions) withDefaults() SegmentOptions {
	if s.MaxDuration <= 0 {
		s.MaxDuration = DefaultSegmentDuration
	}
	if s.PerRun <= 0 {
		s.PerRun = DefaultSegmentsPerRun
	}
	if s.Tries <= 0 {
		s.Tries = DefaultSegmentTries
	}
	return s
}

// JobInput is the input of the job workflow; continue-as-new carries it with the counters updated.
type JobInput struct {
	Spec     job.Spec       `json:"spec"`   // the job, its locations absolute (job.Spec.Absolute)
	Timing   Timing         `json:"timing"` // the window tasks' activities; HeartbeatTimeout also bounds a silent segment
	Segments SegmentOptions `json:"segments"`
	// Counters over the runs of the workflow so far (zero when submitted).
	Done JobProgress `json:"done"`
}

// JobProgress counts what the finished segments of a job workflow did.
type JobProgress struct {
	Segments int        `json:"segments"` // segments completed
	Runs     int        `json:"runs"`     // workflow runs (continue-as-new) completed
	Result   job.Result `json:"result"`   // summed counters, the latest snapshot and window count
}

// SegmentInput is the input of one DriveSegment activity.
type SegmentInput struct {
	Spec      job.Spec       `json:"spec"`
	Timing    Timing         `json:"timing"`
	Segments  SegmentOptions `json:"segments"`
	Segment   int            `json:"segment"`   // number of the segment in the job workflow, from 1
	TaskQueue string         `json:"taskQueue"` // the queue of the job's workflows and task activities
}

// JobWorkflow drives a load job: it runs DriveSegment activities one after another, each a bounded
// job.Run on some worker, until a segment reports the job done, and continues as new every
// Segments.PerRun segments so its history stays small (per segment: one activity, about six events,
// the Spec twice). It is deterministic: it only schedules activities and adds their counters.
func JobWorkflow(ctx workflow.Context, in JobInput) (JobProgress, error) {
	so := in.Segments.withDefaults()
	t := in.Timing.withDefaults()
	queue := workflow.GetInfo(ctx).TaskQueueName
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue: DriverQueue(queue),
		// A segment finishes the window it is in after MaxDuration; a window waits for its tasks.
		StartToCloseTimeout: so.MaxDuration + t.TaskTimeout + time.Hour,
		HeartbeatTimeout:    t.HeartbeatTimeout,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 30 * time.Second,
			MaximumAttempts: so.Tries, NonRetryableErrorTypes: nonRetryableKinds()},
	})
	p := in.Done
	for n := 0; ; n++ {
		if n == so.PerRun {
			p.Runs++
			next := in
			next.Done = p
			return p, workflow.NewContinueAsNewError(ctx, JobWorkflowName, next)
		}
		var res job.Result
		seg := SegmentInput{Spec: in.Spec, Timing: in.Timing, Segments: in.Segments, Segment: p.Segments + 1, TaskQueue: queue}
		if err := workflow.ExecuteActivity(ctx, SegmentActivity, seg).Get(ctx, &res); err != nil {
			return p, err
		}
		p.Segments++
		p.Result = addResult(p.Result, res, p.Segments == 1)
		if !res.Bounded {
			return p, nil
		}
	}
}

// addResult adds segment result r to the job's total.
func addResult(tot, r job.Result, first bool) job.Result {
	tot.AlreadyDone = first && r.AlreadyDone
	tot.Recovered += r.Recovered
	tot.WindowsCommitted += r.WindowsCommitted
	tot.RowsWritten += r.RowsWritten
	tot.RowsQuarantined += r.RowsQuarantined
	tot.NewFiles += r.NewFiles
	tot.Compactions += r.Compactions
	tot.Windows, tot.Generation, tot.Bounded = r.Windows, r.Generation, r.Bounded
	tot.LastSnapshotID = max(tot.LastSnapshotID, r.LastSnapshotID)
	if r.OverwriteSnapshot > 0 {
		tot.OverwriteSnapshot = r.OverwriteSnapshot
	}
	if r.Changed != nil {
		tot.Changed = r.Changed
	}
	return tot
}
