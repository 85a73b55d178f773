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
	h := &runHeap{c: c}
	for i, r := range runs {
		cur := &cursor{run: r, index: i}
		ok, err := cur.advance(c)
		if err != nil {
			return err
		}
		if ok {
			h.items = append(h.items, cur)
		}
	}
	h.init()
	mf := c.NewMergeFunction()
	for len(h.items) > 0 {
		mf.Reset()
		key := h.items[0].kv.Key
		for len(h.items) > 0 && compareRows(h.items[0].kv.Key, key) == 0 {
			top := h.items[0]
			if err := mf.Add(top.kv); err != nil {
				return err
			}
			ok, err := top.advance(c)
			if err != nil {
				return err
			}
			if ok {
				h.fix0()
			} else {
				h.pop0()
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

// runHeap is a min-heap of cursors by (key, sequence order, run index).
type runHeap struct {
	c     *Config
	items []*cursor
}

func (h *runHeap) less(i, j int) bool {
	a, b := h.items[i], h.items[j]
	if cmp := h.c.compareRecords(a.kv, b.kv); cmp != 0 {
		return cmp < 0
	}
	return a.index < b.index
}

func (h *runHeap) init() {
	for i := len(h.items)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *runHeap) fix0() { h.down(0) }

func (h *runHeap) pop0() {
	n := len(h.items) - 1
	h.items[0] = h.items[n]
	h.items[n] = nil
	h.items = h.items[:n]
	if n > 0 {
		h.down(0)
	}
}

func (h *runHeap) down(i int) {
	n := len(h.items)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h.items[i], h.items[m] = h.items[m], h.items[i]
		i = m
	}
}
