package temporal

import (
	"context"
	"fmt"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
)

// givenUp asks Temporal whether it has given up on this try of a driver segment: its job workflow
// run is closed, or the segment's activity is no longer pending or pending at another attempt. A
// try can start long after Temporal closed it (a task delivered to a worker that was stopped, then
// resumed) and learns of it only when a heartbeat is refused; asked before each lease acquisition,
// such a try stands down instead of taking a released lease or displacing a newer try. Without a
// client, or when the server does not answer, it reports false: the lease rules and the protocol's
// write-once records keep a stale try harmless regardless (SegmentLeasePolicy).
func (a *Activities) givenUp(ctx context.Context, info activity.Info) (bool, string) {
	if a.Client == nil {
		return false, ""
	}
	desc, err := a.Client.DescribeWorkflowExecution(ctx, info.WorkflowExecution.ID, info.WorkflowExecution.RunID)
	if err != nil {
		return false, ""
	}
	if st := desc.GetWorkflowExecutionInfo().GetStatus(); st != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		return true, fmt.Sprintf("its job workflow run is %s", st)
	}
	for _, p := range desc.GetPendingActivities() {
		if p.GetActivityId() != info.ActivityID {
			continue
		}
		if p.GetAttempt() != info.Attempt {
			return true, fmt.Sprintf("Temporal runs attempt %d of it now", p.GetAttempt())
		}
		return false, ""
	}
	return true, "its activity is no longer pending"
}
