package mergetree

import (
	"fmt"

	"github.com/lakeload/lakeload/paimon/spec"
)

// Merge merges sorted runs into the visible rows of a merge-on-read, in key order (Java
// MergeTreeReaders over one section with SortMergeReaderWithMinHeap, ReducerMergeFunctionWrapper
// and DropDeleteReader). Records of one key are merged in Config.Less order; ties (same
// sequence values and number) are broken by run index. Results whose kind is a retract are not
// emitted. A run that is not strictly increasing by key yields an error wrapping
// spec.ErrCorrupt. emit may retain the KeyValue it receives.
func Merge(c *Config, runs []Run, emit func(KeyValue) error) error {
	return mergeRuns(c, runs, true, emit)
}

// mergeRuns is Merge; dropRetracts=false keeps retract results (compaction below the highest level).
func mergeRuns(c *Config, runs []Run, dropRetracts bool, emit func(KeyValue) error) error {
	h := &Heap[*cursor]{Less: func(a, b *cursor) bool {
		if cmp := c.compareRecords(a.kv, b.kv); cmp != 0 {
			return cmp < 0
		}
		return a.index < b.index
	}}
	for i, r := range runs {
		cur := &cursor{run: r, index: i}
		ok, err := cur.advance(c)
		if err != nil {
			return err
		}
		if ok {
			h.Items = append(h.Items, cur)
		}
	}
	h.Init()
	mf := c.NewMergeFunction()
	for len(h.Items) > 0 {
		mf.Reset()
		key := h.Items[0].kv.Key
		for len(h.Items) > 0 && compareRows(h.Items[0].kv.Key, key) == 0 {
			top := h.Items[0]
			if err := mf.Add(top.kv); err != nil {
				return err
			}
			ok, err := top.advance(c)
			if err != nil {
				return err
			}
			if ok {
				h.Fix0()
			} else {
				h.Pop0()
			}
		}
		kv, ok := mf.Result()
		if !ok || (dropRetracts && kv.Kind.IsRetract()) {
			continue
		}
		if err := emit(kv); err != nil {
			return err
		}
	}
	return nil
}

// cursor is the current record of one run.
type cursor struct {
	run   Run
	index int
	kv    KeyValue
	valid bool // kv holds a previous record (for the order check)
}

// advance reads the next record, checking that keys strictly increase.
func (cu *cursor) advance(c *Config) (bool, error) {
	kv, ok, err := cu.run.Next()
	if err != nil || !ok {
		return false, err
	}
	if cu.valid && compareRows(cu.kv.Key, kv.Key) >= 0 {
		return false, fmt.Errorf("%w: mergetree: run %d is not sorted by key with unique keys: key %v after %v",
			spec.ErrCorrupt, cu.index, kv.Key, cu.kv.Key)
	}
	cu.kv, cu.valid = kv, true
	return true, nil
}
