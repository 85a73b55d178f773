package mergetree

import (
	"errors"
	"fmt"

	"github.com/lakeload/lakeload/paimon/spec"
)

// MergeFunction folds all records of one key, added in merge order (Config.Less), into at most
// one result. Reset starts a new key.
type MergeFunction interface {
	Reset()
	Add(kv KeyValue) error
	// Result returns the merged record; ok=false means the key has no row.
	Result() (kv KeyValue, ok bool)
}

// NewMergeFunction returns the table's merge function, wrapped like Java's
// ReducerMergeFunctionWrapper: a key with a single record yields that record unchanged.
func (c *Config) NewMergeFunction() MergeFunction {
	return &reducer{inner: c.newEngineFunction()}
}

// newEngineFunction returns the bare merge engine (Java MergeFunctionFactory.create()).
func (c *Config) newEngineFunction() MergeFunction {
	switch c.engine {
	case PartialUpdate:
		return newPartialUpdate(c)
	case Aggregation:
		return newAggregate(c)
	case FirstRow:
		return &firstRow{ignoreDelete: c.ignoreDelete}
	default:
		return &deduplicate{ignoreDelete: c.ignoreDelete}
	}
}

// reducer passes a single record through untouched and feeds two or more to the engine.
type reducer struct {
	inner       MergeFunction
	initial     KeyValue
	count       int
	initialized bool
}

func (r *reducer) Reset() {
	r.inner.Reset()
	r.initial = KeyValue{}
	r.count = 0
	r.initialized = false
}

func (r *reducer) Add(kv KeyValue) error {
	r.count++
	if r.count == 1 {
		r.initial = kv
		return nil
	}
	if !r.initialized {
		r.initialized = true
		if err := r.inner.Add(r.initial); err != nil {
			return err
		}
	}
	return r.inner.Add(kv)
}

func (r *reducer) Result() (KeyValue, bool) {
	if r.initialized {
		return r.inner.Result()
	}
	return r.initial, r.count > 0
}

// deduplicate keeps the last record (Java DeduplicateMergeFunction); with ignore-delete,
// retracts are skipped.
type deduplicate struct {
	ignoreDelete bool
	latest       KeyValue
	has          bool
}

func (d *deduplicate) Reset() { d.latest, d.has = KeyValue{}, false }

func (d *deduplicate) Add(kv KeyValue) error {
	if d.ignoreDelete && kv.Kind.IsRetract() {
		return nil
	}
	d.latest, d.has = kv, true
	return nil
}

func (d *deduplicate) Result() (KeyValue, bool) { return d.latest, d.has }

// ErrRetractNotAccepted is returned (wrapped) when a merge engine receives a -U/-D record it
// cannot handle: first-row and partial-update without ignore-delete (Java throws
// IllegalArgumentException), and aggregates without retraction support.
var ErrRetractNotAccepted = errors.New("mergetree: retract record not accepted")

// firstRow keeps the first record (Java FirstRowMergeFunction).
type firstRow struct {
	ignoreDelete bool
	first        KeyValue
	has          bool
}

func (f *firstRow) Reset() { f.first, f.has = KeyValue{}, false }

func (f *firstRow) Add(kv KeyValue) error {
	if kv.Kind.IsRetract() {
		if f.ignoreDelete {
			return nil
		}
		return fmt.Errorf("%w: merge engine first-row cannot accept DELETE/UPDATE_BEFORE records; set %q to ignore them",
			ErrRetractNotAccepted, spec.OptIgnoreDelete)
	}
	if !f.has {
		f.first, f.has = kv, true
	}
	return nil
}

func (f *firstRow) Result() (KeyValue, bool) { return f.first, f.has }
