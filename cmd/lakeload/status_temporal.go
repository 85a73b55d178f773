package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"text/tabwriter"

	"go.temporal.io/api/serviceerror"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job/temporal"
)

// printWorkerActivity lists, for every window not yet published, the task activities its current
// attempt's workflow has running: which worker runs them, the try and the last heartbeat.
func (f *temporalFlags) printWorkerActivity(ctx context.Context, out io.Writer, st checkpoint.State, logger *slog.Logger) error {
	jr, _ := st.Job()
	c, err := f.dial(ctx, logger)
	if err != nil {
		return err
	}
	defer c.Close()
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\nWINDOW\tATTEMPT\tWORKFLOW\tACTIVITY\tSTATE\tTRY\tWORKER\tLAST HEARTBEAT")
	for _, ws := range st.Windows() {
		if ws.Published != nil || ws.Voided != nil {
			continue
		}
		a := ws.LastAttempt()
		id := temporal.WorkflowID(jr.JobID, jr.CommitUser, ws.Window, a)
		desc, err := c.DescribeWorkflowExecution(ctx, id, "")
		var nf *serviceerror.NotFound
		if errors.As(err, &nf) {
			fmt.Fprintf(tw, "%d\t%d\t%s\t-\tno workflow (in process, or not started)\t\t\t\n", ws.Window, a, id)
			continue
		}
		if err != nil {
			return fmt.Errorf("describe workflow %s on %s: %w", id, f.hostPort, err)
		}
		status := desc.GetWorkflowExecutionInfo().GetStatus().String()
		if len(desc.GetPendingActivities()) == 0 {
			fmt.Fprintf(tw, "%d\t%d\t%s\t-\t%s\t\t\t\n", ws.Window, a, id, status)
		}
		for _, p := range desc.GetPendingActivities() {
			hb := "-"
			if t := p.GetLastHeartbeatTime(); t != nil {
				hb = t.AsTime().UTC().Format("2006-01-02T15:04:05Z")
			}
			fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%d\t%s\t%s\n", ws.Window, a, id, p.GetActivityId(), p.GetState().String(), p.GetAttempt(),
				p.GetLastWorkerIdentity(), hb)
		}
	}
	return tw.Flush()
}
