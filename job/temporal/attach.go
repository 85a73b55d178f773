package temporal

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
)

// StartedInput returns the JobInput that run runID of the job workflow wfID was started with (a
// continued run: the input carried over, whose options are the first run's).
func StartedInput(ctx context.Context, c client.Client, wfID, runID string) (JobInput, error) {
	it := c.GetWorkflowHistory(ctx, wfID, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	if !it.HasNext() {
		return JobInput{}, fmt.Errorf("job workflow %s run %s has no history", wfID, runID)
	}
	ev, err := it.Next()
	if err != nil {
		return JobInput{}, fmt.Errorf("history of job workflow %s: %w", wfID, err)
	}
	a := ev.GetWorkflowExecutionStartedEventAttributes()
	if a == nil {
		return JobInput{}, fmt.Errorf("job workflow %s: the first history event is %s, not the start", wfID, ev.GetEventType())
	}
	var in JobInput
	if err := converter.GetDefaultDataConverter().FromPayloads(a.GetInput(), &in); err != nil {
		return JobInput{}, fmt.Errorf("job workflow %s: its input: %w", wfID, err)
	}
	return in, nil
}

// OptionDiff names, as JSON paths ("spec.parallelism", "timing.TaskTimeout"), the options in which
// mine differs from running, the input of the job workflow a submitter attached to (counters aside).
// The running workflow's options apply; a submitter reports the difference instead of silently
// following a job driven with other options.
func OptionDiff(running, mine JobInput) []string {
	running.Done, mine.Done = JobProgress{}, JobProgress{}
	var out []string
	diffJSON("", toJSONValue(running), toJSONValue(mine), &out)
	slices.Sort(out)
	return out
}

func toJSONValue(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return string(b)
	}
	return out
}

func diffJSON(path string, a, b any, out *[]string) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if !aok || !bok {
		if !reflect.DeepEqual(a, b) {
			*out = append(*out, path)
		}
		return
	}
	for k, av := range am {
		diffJSON(joinPath(path, k), av, bm[k], out)
	}
	for k, bv := range bm {
		if _, ok := am[k]; !ok {
			diffJSON(joinPath(path, k), nil, bv, out)
		}
	}
}

func joinPath(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}
