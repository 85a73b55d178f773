package job

import (
	"fmt"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/source"
)

// The checkpoint store keeps input splits and commit messages as opaque JSON (checkpoint.Opaque):
// the job owns their types and their record format versions, and encodes and decodes them here.
//
// Record format versions: a byte-range text split (source.Split.IsRange) needs version 2, every
// other split and every commit message version 1 (checkpoint/envelope.go). A split read from a
// record whose header claims less than it needs is refused as corrupt.

// splitVersion is the record format version split s needs.
func splitVersion(s source.Split) int {
	if s.IsRange() {
		return 2
	}
	return 1
}

// encodeSplits returns splits as the store keeps them.
func encodeSplits(splits []source.Split) ([]checkpoint.Opaque, error) {
	out := make([]checkpoint.Opaque, len(splits))
	for i, s := range splits {
		o, err := checkpoint.NewOpaque(s, splitVersion(s))
		if err != nil {
			return nil, fmt.Errorf("job: split %d (%s): %w", i, s.Path, err)
		}
		out[i] = o
	}
	return out, nil
}

// decodeSplits returns the splits the store keeps; an error wraps checkpoint.ErrCorrupt.
func decodeSplits(os []checkpoint.Opaque) ([]source.Split, error) {
	out := make([]source.Split, len(os))
	for i, o := range os {
		if err := o.Decode(&out[i]); err != nil {
			return nil, fmt.Errorf("split %d: %w", i, err)
		}
		if err := o.Require(splitVersion(out[i])); err != nil {
			return nil, fmt.Errorf("split %d (a byte range of %s): %w", i, out[i].Path, err)
		}
	}
	return out, nil
}

// PlanSplits returns the job's plan — the split list with every plan revision's splits added — as
// splits (nil when the store holds no plan yet). Split indexes are indexes into it.
func PlanSplits(st checkpoint.State) ([]source.Split, error) {
	plan, ok := st.Plan()
	if !ok {
		return nil, nil
	}
	return decodeSplits(plan.Splits)
}

// encodeMessages returns commit messages as the store keeps them.
func encodeMessages(msgs []table.CommitMessage) ([]checkpoint.Opaque, error) {
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

// storedResult is the task result the store keeps for task taskID's output out of in.
func storedResult(in TaskInput, taskID string, out TaskOutput) (checkpoint.TaskResult, error) {
	msgs, err := encodeMessages(out.Messages)
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
