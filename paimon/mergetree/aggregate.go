package mergetree

import (
	"fmt"

	"github.com/lakeload/lakeload/paimon/spec"
)

// aggregate aggregates each column with its function (Java AggregateMergeFunction).
type aggregate struct {
	c         *Config
	aggs      []fieldAgg
	row       []any
	latest    KeyValue
	has       bool
	deleteRow bool
}

func newAggregate(c *Config) *aggregate {
	a := &aggregate{c: c, aggs: make([]fieldAgg, len(c.aggs))}
	for i, s := range c.aggs {
		a.aggs[i] = fieldAgg{spec: s}
	}
	a.Reset()
	return a
}

func (a *aggregate) Reset() {
	a.latest, a.has, a.deleteRow = KeyValue{}, false, false
	a.row = make([]any, len(a.c.fields))
	for i := range a.aggs {
		a.aggs[i].reset()
	}
}

func (a *aggregate) Add(kv KeyValue) error {
	a.latest, a.has = kv, true
	a.deleteRow = a.c.removeRecordOnDelete && kv.Kind == spec.RowKindDelete
	if a.deleteRow {
		a.row = make([]any, len(a.c.fields))
		for i, f := range a.c.fields {
			v := field(kv.Value, i)
			if v == nil && !f.Type.Nullable {
				return fmt.Errorf("mergetree: aggregation: column %q is NOT NULL but the record has null", f.Name)
			}
			a.row[i] = v
		}
		return nil
	}
	retract := kv.Kind.IsRetract()
	for i := range a.aggs {
		var v any
		var err error
		if retract {
			v, err = a.aggs[i].retract(a.row[i], field(kv.Value, i))
		} else {
			v, err = a.aggs[i].agg(a.row[i], field(kv.Value, i))
		}
		if err != nil {
			return err
		}
		a.row[i] = v
	}
	return nil
}

func (a *aggregate) Result() (KeyValue, bool) {
	if !a.has {
		return KeyValue{}, false
	}
	kind := spec.RowKindInsert
	if a.deleteRow {
		kind = spec.RowKindDelete
	}
	return KeyValue{Key: a.latest.Key, Seq: a.latest.Seq, Kind: kind, Value: a.row}, true
}
