package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"text/tabwriter"
	"time"

	"go.temporal.io/api/serviceerror"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job/temporal"
)

// temporalStatus is what `status --temporal` adds: the job's workflow with its running driver
// segment, and the task activities of every window not yet published.
type temporalStatus struct {
	JobWorkflow *jobWorkflowStatus `json:"jobWorkflow"` // nil: no job workflow (an in-process load, or never submitted)
	Windows     []windowActivity   `json:"windows"`
}

// jobWorkflowStatus is the job's workflow and its driver segment.
type jobWorkflowStatus struct {
	ID      string          `json:"id"`
	RunID   string          `json:"runId"`
	Status  string          `json:"status"` // Running, Completed, Failed, Terminated, ContinuedAsNew, …
	Running bool            `json:"running"`
	Segment *activityStatus `json:"segment,omitempty"` // the driver segment scheduled or running now
}

// windowActivity is one window attempt's workflow and its pending task activities.
type windowActivity struct {
	Window   int64            `json:"window"`
	Attempt  int              `json:"attempt"`
	Workflow string           `json:"workflow"`
	Status   string           `json:"status"` // the workflow's status, or "none" (in process, or not started)
	Tasks    []activityStatus `json:"tasks,omitempty"`
}

// activityStatus is one pending activity: where it runs, its try and its last heartbeat.
type activityStatus struct {
	ActivityID    string `json:"activityId"`
	State         string `json:"state"` // SCHEDULED, STARTED, CANCEL_REQUESTED
	Attempt       int32  `json:"attempt"`
	Worker        string `json:"worker"` // pid@host of the worker that took the last try
	LastHeartbeat string `json:"lastHeartbeat,omitempty"`
}

// gatherTemporal describes the job's workflow (id from the job reference of jf) and the workflows of
// the windows of st not yet published.
func (f *temporalFlags) gatherTemporal(ctx context.Context, jf *jobFlags, st checkpoint.State, logger *slog.Logger) (*temporalStatus, error) {
	jr, _ := st.Job()
	c, err := f.dial(ctx, logger)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	rep := &temporalStatus{Windows: []windowActivity{}}
	spec, err := jf.jobSpec().Absolute()
	if err != nil {
		return nil, err
	}
	id := temporal.JobWorkflowID(spec)
	desc, err := c.DescribeWorkflowExecution(ctx, id, "")
	var nf *serviceerror.NotFound
	switch {
	case errors.As(err, &nf):
	case err != nil:
		return nil, fmt.Errorf("describe job workflow %s on %s: %w", id, f.hostPort, err)
	default:
		info := desc.GetWorkflowExecutionInfo()
		jw := &jobWorkflowStatus{ID: id, RunID: info.GetExecution().GetRunId(), Status: statusName(info.GetStatus().String()),
			Running: info.GetCloseTime() == nil}
		for _, p := range desc.GetPendingActivities() {
			a := activityOf(p.GetActivityId(), p.GetState().String(), p.GetAttempt(), p.GetLastWorkerIdentity(), p.GetLastHeartbeatTime().AsTime(), p.GetLastHeartbeatTime() != nil)
			jw.Segment = &a
		}
		rep.JobWorkflow = jw
	}
	for _, ws := range st.Windows() {
		if ws.Published != nil || ws.Voided != nil {
			continue
		}
		a := ws.LastAttempt()
		wa := windowActivity{Window: ws.Window, Attempt: a, Workflow: temporal.WorkflowID(jr.JobID, jr.CommitUser, ws.Window, a), Status: "none"}
		desc, err := c.DescribeWorkflowExecution(ctx, wa.Workflow, "")
		if errors.As(err, &nf) {
			rep.Windows = append(rep.Windows, wa)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("describe workflow %s on %s: %w", wa.Workflow, f.hostPort, err)
		}
		wa.Status = statusName(desc.GetWorkflowExecutionInfo().GetStatus().String())
		for _, p := range desc.GetPendingActivities() {
			wa.Tasks = append(wa.Tasks, activityOf(p.GetActivityId(), p.GetState().String(), p.GetAttempt(), p.GetLastWorkerIdentity(),
				p.GetLastHeartbeatTime().AsTime(), p.GetLastHeartbeatTime() != nil))
		}
		rep.Windows = append(rep.Windows, wa)
	}
	return rep, nil
}

func activityOf(id, state string, attempt int32, worker string, hb time.Time, hasHB bool) activityStatus {
	a := activityStatus{ActivityID: id, State: trimEnum(state, "PENDING_ACTIVITY_STATE_"), Attempt: attempt, Worker: worker}
	if hasHB {
		a.LastHeartbeat = hb.UTC().Format("2006-01-02T15:04:05Z")
	}
	return a
}

// statusName turns WORKFLOW_EXECUTION_STATUS_RUNNING into Running.
func statusName(s string) string {
	s = trimEnum(s, "WORKFLOW_EXECUTION_STATUS_")
	out := []byte{}
	up := true
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch == '_' {
			up = true
			continue
		}
		if !up && ch >= 'A' && ch <= 'Z' {
			ch += 'a' - 'A'
		}
		up = false
		out = append(out, ch)
	}
	return string(out)
}

func trimEnum(s, prefix string) string {
	if len(s) > len(prefix) && s[:len(prefix)] == prefix {
		return s[len(prefix):]
	}
	return s
}

// printTemporal writes the job workflow line and the per-window activity table.
func printTemporal(out io.Writer, rep *temporalStatus) error {
	if jw := rep.JobWorkflow; jw == nil {
		fmt.Fprintln(out, "\nJob workflow: none (the job runs in process, or was never submitted with --temporal)")
	} else {
		fmt.Fprintf(out, "\nJob workflow: %s (run %s): %s\n", jw.ID, jw.RunID, jw.Status)
		if s := jw.Segment; s != nil {
			hb := s.LastHeartbeat
			if hb == "" {
				hb = "-"
			}
			fmt.Fprintf(out, "Driver:       segment activity %s %s on worker %s, try %d, last heartbeat %s\n", s.ActivityID, s.State, orDash(s.Worker), s.Attempt, hb)
		}
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\nWINDOW\tATTEMPT\tWORKFLOW\tACTIVITY\tSTATE\tTRY\tWORKER\tLAST HEARTBEAT")
	for _, w := range rep.Windows {
		switch {
		case w.Status == "none":
			fmt.Fprintf(tw, "%d\t%d\t%s\t-\tno workflow (in process, or not started)\t\t\t\n", w.Window, w.Attempt, w.Workflow)
		case len(w.Tasks) == 0:
			fmt.Fprintf(tw, "%d\t%d\t%s\t-\t%s\t\t\t\n", w.Window, w.Attempt, w.Workflow, w.Status)
		}
		for _, p := range w.Tasks {
			fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%d\t%s\t%s\n", w.Window, w.Attempt, w.Workflow, p.ActivityID, p.State, p.Attempt, orDash(p.Worker), orDash(p.LastHeartbeat))
		}
	}
	return tw.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
