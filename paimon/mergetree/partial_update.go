package mergetree

import (
	"fmt"

	"github.com/lakeload/lakeload/paimon/spec"
)

// partialUpdate keeps, per column, the latest non-null value (Java PartialUpdateMergeFunction
// without sequence groups).
type partialUpdate struct {
	c                   *Config
	key                 []any
	row                 []any
	latestSeq           int64
	deleteRow           bool
	notNullColumnFilled bool
	meetInsert          bool
}

func newPartialUpdate(c *Config) *partialUpdate {
	p := &partialUpdate{c: c}
	p.Reset()
	return p
}

func (p *partialUpdate) Reset() {
	p.key = nil
	p.row = make([]any, len(p.c.fields))
	p.latestSeq = 0
	p.deleteRow = false
	p.notNullColumnFilled = false
	p.meetInsert = false
}

func (p *partialUpdate) Add(kv KeyValue) error {
	p.key = kv.Key
	p.deleteRow = false
	if kv.Kind.IsRetract() {
		if !p.notNullColumnFilled {
			if err := p.initRow(kv.Value); err != nil {
				return err
			}
			p.notNullColumnFilled = true
		}
		if p.c.ignoreDelete {
			return nil
		}
		p.latestSeq = kv.Seq
		if p.c.removeRecordOnDelete {
			if kv.Kind == spec.RowKindDelete {
				p.deleteRow = true
				p.row = make([]any, len(p.c.fields))
				return p.initRow(kv.Value)
			}
			return nil
		}
		return fmt.Errorf("%w: merge engine partial-update cannot accept delete records; set %q or %q",
			ErrRetractNotAccepted, spec.OptIgnoreDelete, spec.OptPartialUpdateRemoveRecordOnDelete)
	}
	p.latestSeq = kv.Seq
	for i, f := range p.c.fields {
		v := field(kv.Value, i)
		if v != nil {
			p.row[i] = v
		} else if !f.Type.Nullable {
			return fmt.Errorf("mergetree: partial-update: column %q is NOT NULL but the record has null", f.Name)
		}
	}
	p.meetInsert = true
	p.notNullColumnFilled = true
	return nil
}

// initRow copies all columns of value into the row, rejecting nulls in NOT NULL columns.
func (p *partialUpdate) initRow(value []any) error {
	for i, f := range p.c.fields {
		v := field(value, i)
		if v == nil && !f.Type.Nullable {
			return fmt.Errorf("mergetree: partial-update: column %q is NOT NULL but the record has null", f.Name)
		}
		p.row[i] = v
	}
	return nil
}

func (p *partialUpdate) Result() (KeyValue, bool) {
	kind := spec.RowKindInsert
	if p.deleteRow || !p.meetInsert {
		kind = spec.RowKindDelete
	}
	return KeyValue{Key: p.key, Seq: p.latestSeq, Kind: kind, Value: p.row}, true
}

// field returns value[i], or nil when the row is shorter.
func field(value []any, i int) any {
	if i < len(value) {
		return value[i]
	}
	return nil
}
