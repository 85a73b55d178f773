package parquet

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakeload/lakeload/paimon/spec"
)

// leaf collects the definition/repetition levels and present values of one Parquet leaf column
// for the batch being written.
type leaf struct {
	t      spec.DataType // atomic type of the leaf
	maxDef int16
	maxRep int16
	def    []int16
	rep    []int16
	arr    arrow.Array // the Arrow array the present values index into (one per batch)
	idx    []int       // indices into arr of present values; nil with all == true means every row
	all    bool
}

func (l *leaf) reset() {
	l.def, l.rep, l.idx, l.arr, l.all = l.def[:0], l.rep[:0], l.idx[:0], nil, false
}

// lnode is the level plan of one (possibly nested) Paimon type, following the Parquet layout of
// pqschema.go: LIST = optional group + repeated "list" + element; MAP = optional group +
// repeated "key_value" + key/value; ROW = optional group of fields.
type lnode struct {
	t        spec.DataType
	optional bool
	repLevel int16 // repetition level of the repeated group under a LIST/MAP node
	children []*lnode
	leaf     *leaf   // atomic nodes only
	leaves   []*leaf // every leaf under this node, in column order
}

// planNode builds the level plan of t whose parent has definition level def and repetition level rep.
func planNode(t spec.DataType, def, rep int16) (*lnode, error) {
	n := &lnode{t: t, optional: t.Nullable}
	if n.optional {
		def++
	}
	add := func(c *lnode) {
		n.children = append(n.children, c)
		n.leaves = append(n.leaves, c.leaves...)
	}
	switch {
	case t.IsAtomic():
		n.leaf = &leaf{t: t, maxDef: def, maxRep: rep}
		n.leaves = []*leaf{n.leaf}
	case t.Root == spec.Array:
		if t.Elem == nil {
			return nil, fmt.Errorf("ARRAY without element type")
		}
		n.repLevel = rep + 1
		c, err := planNode(*t.Elem, def+1, rep+1)
		if err != nil {
			return nil, err
		}
		add(c)
	case t.Root == spec.Map || t.Root == spec.Multiset:
		kt, vt, err := mapTypes(t)
		if err != nil {
			return nil, err
		}
		n.repLevel = rep + 1
		for _, ct := range []spec.DataType{kt, vt} {
			c, err := planNode(ct, def+1, rep+1)
			if err != nil {
				return nil, err
			}
			add(c)
		}
	case t.Root == spec.Row:
		for _, f := range t.Fields {
			c, err := planNode(f.Type, def, rep)
			if err != nil {
				return nil, fmt.Errorf("field %q: %w", f.Name, err)
			}
			add(c)
		}
	default:
		return nil, fmt.Errorf("unsupported type root %d", t.Root)
	}
	return n, nil
}

// emitAbsent records, for every leaf under n, a slot without value at levels (def, rep).
func (n *lnode) emitAbsent(def, rep int16) {
	for _, l := range n.leaves {
		l.def = append(l.def, def)
		l.rep = append(l.rep, rep)
	}
}

// shredTop fills the leaves of a top-level column from arr.
func (n *lnode) shredTop(arr arrow.Array) error {
	for _, l := range n.leaves {
		l.reset()
	}
	if n.leaf != nil { // fast path for atomic top-level columns
		l := n.leaf
		l.arr = arr
		if !n.optional {
			if arr.NullN() > 0 {
				return fmt.Errorf("null value in NOT NULL column")
			}
			l.all = true
			return nil
		}
		if arr.NullN() == 0 {
			l.all = true
			l.def = appendRepeated(l.def, 1, arr.Len())
			return nil
		}
		for i := 0; i < arr.Len(); i++ {
			if arr.IsNull(i) {
				l.def = append(l.def, 0)
			} else {
				l.def = append(l.def, 1)
				l.idx = append(l.idx, i)
			}
		}
		return nil
	}
	for i := 0; i < arr.Len(); i++ {
		if err := n.shred(arr, i, 0, 0); err != nil {
			return err
		}
	}
	return nil
}

func appendRepeated(s []int16, v int16, n int) []int16 {
	for ; n > 0; n-- {
		s = append(s, v)
	}
	return s
}

// shred records value i of arr, whose parent is at definition level def, with repetition level rep.
func (n *lnode) shred(arr arrow.Array, i int, def, rep int16) error {
	if arr.IsNull(i) {
		if !n.optional {
			return fmt.Errorf("null value in NOT NULL nested field")
		}
		n.emitAbsent(def, rep)
		return nil
	}
	if n.optional {
		def++
	}
	switch {
	case n.leaf != nil:
		l := n.leaf
		if l.arr == nil {
			l.arr = arr
		} else if l.arr != arr {
			return fmt.Errorf("internal: leaf fed from two arrays")
		}
		l.def = append(l.def, def)
		l.rep = append(l.rep, rep)
		l.idx = append(l.idx, i)
		return nil
	case n.t.Root == spec.Row:
		s, ok := arr.(*array.Struct)
		if !ok || s.NumField() != len(n.children) {
			return fmt.Errorf("ROW column holds %s", arr.DataType())
		}
		for k, c := range n.children {
			if err := c.shred(s.Field(k), i, def, rep); err != nil {
				return err
			}
		}
		return nil
	case n.t.Root == spec.Array:
		l, ok := arr.(*array.List)
		if !ok {
			return fmt.Errorf("ARRAY column holds %s", arr.DataType())
		}
		start, end := l.ValueOffsets(i)
		if start == end {
			n.emitAbsent(def, rep)
			return nil
		}
		for j := start; j < end; j++ {
			r := n.repLevel
			if j == start {
				r = rep
			}
			if err := n.children[0].shred(l.ListValues(), int(j), def+1, r); err != nil {
				return err
			}
		}
		return nil
	default: // MAP, MULTISET
		m, ok := arr.(*array.Map)
		if !ok {
			return fmt.Errorf("MAP column holds %s", arr.DataType())
		}
		start, end := m.ValueOffsets(i)
		if start == end {
			n.emitAbsent(def, rep)
			return nil
		}
		for j := start; j < end; j++ {
			r := n.repLevel
			if j == start {
				r = rep
			}
			if err := n.children[0].shred(m.Keys(), int(j), def+1, r); err != nil {
				return err
			}
			if err := n.children[1].shred(m.Items(), int(j), def+1, r); err != nil {
				return err
			}
		}
		return nil
	}
}
