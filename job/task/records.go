package task

import (
	"fmt"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/paimon/table"
)

// The checkpoint store keeps a task result's commit messages as opaque JSON (checkpoint.Opaque):
// the task side owns their type (table.CommitMessage) and their record format version, and encodes
// and decodes them here (input splits: job/plan/records.go). Every commit message needs record
// format version 1 (checkpoint/envelope.go).

// EncodeMessages returns commit messages as the store keeps them.
func EncodeMessages(msgs []table.CommitMessage) ([]checkpoint.Opaque, error) {
	out := make([]checkpoint.Opaque, len(msgs))
	for i, m := range msgs {
		o, err := checkpoint.NewOpaque(m, 1)
		if err != nil {
			return nil, fmt.Errorf("job: commit message %d: %w", i, err)
		}
		out[i] = o
	}
	return out, nil
}

// StoredResult is the task result the store keeps for task taskID's output out of in.
func StoredResult(in Input, taskID string, out Output) (checkpoint.TaskResult, error) {
	msgs, err := EncodeMessages(out.Messages)
	if err != nil {
		return checkpoint.TaskResult{}, err
	}
	return checkpoint.TaskResult{Window: in.Window, Attempt: in.Attempt, TaskID: taskID, Messages: msgs, Splits: out.Covered,
		IDs: out.IDs, Rows: out.Rows, Quarantined: int64(len(out.Rejected))}, nil
}

// Messages returns the commit messages of results, in order; an error wraps checkpoint.ErrCorrupt.
func Messages(results ...checkpoint.TaskResult) ([]table.CommitMessage, error) {
	var out []table.CommitMessage
	for _, r := range results {
		for i, o := range r.Messages {
			var m table.CommitMessage
			if err := o.Decode(&m); err != nil {
				return nil, fmt.Errorf("window %d attempt %d task %s message %d: %w", r.Window, r.Attempt, r.TaskID, i, err)
			}
			out = append(out, m)
		}
	}
	return out, nil
}
