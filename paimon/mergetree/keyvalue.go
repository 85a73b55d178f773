package mergetree

import "github.com/lakeload/lakeload/paimon/spec"

// KeyValue is one record of a primary-key table (Java org.apache.paimon.KeyValue): the trimmed
// primary key, the sequence number, the row kind and all table columns in schema order.
type KeyValue struct {
	Key   []any
	Seq   int64
	Kind  spec.RowKind
	Value []any
}

// Run is an iterator over a sorted run: records sorted by key, at most one record per key.
// Next returns ok=false at the end of the run.
type Run interface {
	Next() (kv KeyValue, ok bool, err error)
}

// SliceRun returns a Run over records, which must already be sorted by key with unique keys.
func SliceRun(records []KeyValue) Run { return &sliceRun{records: records} }

type sliceRun struct {
	records []KeyValue
	pos     int
}

func (r *sliceRun) Next() (KeyValue, bool, error) {
	if r.pos >= len(r.records) {
		return KeyValue{}, false, nil
	}
	kv := r.records[r.pos]
	r.pos++
	return kv, true, nil
}
