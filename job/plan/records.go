package plan

import (
	"fmt"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/source"
)

// The checkpoint store keeps input splits as opaque JSON (checkpoint.Opaque): planning owns their
// type (source.Split) and their record format version, and encodes and decodes them here (commit
// messages: job/task/records.go).
//
// Record format versions: a byte-range text split (source.Split.IsRange) needs version 2, every
// other split version 1 (checkpoint/envelope.go). A split read from a record whose header claims
// less than it needs is refused as corrupt.

// splitVersion is the record format version split s needs.
func splitVersion(s source.Split) int {
	if s.IsRange() {
		return 2
	}
	return 1
}

// EncodeSplits returns splits as the store keeps them.
func EncodeSplits(splits []source.Split) ([]checkpoint.Opaque, error) {
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

// DecodeSplits returns the splits the store keeps; an error wraps checkpoint.ErrCorrupt.
func DecodeSplits(os []checkpoint.Opaque) ([]source.Split, error) {
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

// Stored returns the job's plan — the split list with every plan revision's splits added — as
// splits (nil when the store holds no plan yet). Split indexes are indexes into it.
func Stored(st checkpoint.State) ([]source.Split, error) {
	pr, ok := st.Plan()
	if !ok {
		return nil, nil
	}
	return DecodeSplits(pr.Splits)
}
