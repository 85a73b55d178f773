package source

import (
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakeload/lakeload/paimon/spec"
)

// newNestedCaster handles ARRAY (List), MAP (Map) and ROW (Struct) targets. Children are cast
// recursively; struct fields are matched by name like top-level columns.
func newNestedCaster(env castEnv, in arrow.DataType, t spec.DataType, out arrow.DataType) (caster, error) {
	switch o := out.(type) {
	case *arrow.MapType:
		im, ok := in.(*arrow.MapType)
		if !ok {
			return nil, fmt.Errorf("input type %s is not a map but the table column is MAP", in)
		}
		kc, err := newCaster(env, im.KeyType(), *t.Elem, o.KeyType())
		if err != nil {
			return nil, fmt.Errorf("map key: %w", err)
		}
		vc, err := newCaster(env, im.ItemType(), *t.Value, o.ItemType())
		if err != nil {
			return nil, fmt.Errorf("map value: %w", err)
		}
		entries := o.Elem().(*arrow.StructType)
		ec := func(a arrow.Array) (arrow.Array, *failure) {
			st := a.(*array.Struct)
			return buildStruct(entries, st, []caster{kc, vc}, []int{0, 1}, env.mem)
		}
		return listCaster(out, ec), nil
	case *arrow.ListType:
		il, ok := in.(*arrow.ListType)
		if !ok || in.ID() != arrow.LIST {
			return nil, fmt.Errorf("input type %s is not a list but the table column is ARRAY", in)
		}
		ec, err := newCaster(env, il.Elem(), *t.Elem, o.Elem())
		if err != nil {
			return nil, fmt.Errorf("array element: %w", err)
		}
		return listCaster(out, ec), nil
	case *arrow.StructType:
		is, ok := in.(*arrow.StructType)
		if !ok {
			return nil, fmt.Errorf("input type %s is not a struct but the table column is ROW", in)
		}
		m, err := NewMatcher(t.Fields, MappingOptions{})
		if err != nil {
			return nil, err
		}
		src := make([]int, len(t.Fields))
		for i := range src {
			src[i] = -1
		}
		for j, f := range is.Fields() {
			i, err := m.Resolve(f.Name)
			if err != nil {
				return nil, fmt.Errorf("row field: %w", err)
			}
			switch {
			case i < 0 && !env.ignoreExtra:
				return nil, fmt.Errorf("input row field %q matches no field of the table's ROW: remove it or ignore extra columns (--ignore-extra-columns)", f.Name)
			case i < 0:
			case src[i] >= 0:
				return nil, fmt.Errorf("input row fields %q and %q both match row field %q", is.Field(src[i]).Name, f.Name, t.Fields[i].Name)
			default:
				src[i] = j
			}
		}
		cs := make([]caster, len(t.Fields))
		for i, f := range t.Fields {
			if src[i] < 0 {
				if !f.Type.Nullable {
					return nil, fmt.Errorf("row field %q is NOT NULL but the input row has no such field", f.Name)
				}
				continue
			}
			c, err := newCaster(env, is.Field(src[i]).Type, f.Type, o.Field(i).Type)
			if err != nil {
				return nil, fmt.Errorf("row field %q: %w", f.Name, err)
			}
			cs[i] = c
		}
		return func(a arrow.Array) (arrow.Array, *failure) {
			return buildStruct(o, a.(*array.Struct), cs, src, env.mem)
		}, nil
	}
	return nil, fmt.Errorf("table type %s is not supported for typed input", typeName(t))
}

// listCaster casts the values of a List or Map array (only the range its rows use) and rebuilds
// the array with type out at offset 0.
func listCaster(out arrow.DataType, elem caster) caster {
	return func(a arrow.Array) (arrow.Array, *failure) {
		l := a.(array.ListLike)
		var offs []int32
		switch x := a.(type) {
		case *array.List:
			offs = x.Offsets()
		case *array.Map:
			offs = x.Offsets()
		}
		n := a.Len()
		start, end := int64(0), int64(0)
		if n > 0 {
			start, end = int64(offs[0]), int64(offs[n])
		}
		vals := array.NewSlice(l.ListValues(), start, end)
		defer vals.Release()
		cv, f := elem(vals)
		if f != nil {
			// Report the row holding the failing element.
			row := sort.Search(n, func(i int) bool { return int64(offs[i+1])-start > int64(f.Index) })
			return nil, &failure{Index: row, Value: f.Value, Expected: f.Expected}
		}
		defer cv.Release()
		rebased := make([]int32, n+1)
		for i := range rebased {
			if n > 0 {
				rebased[i] = offs[i] - int32(start)
			}
		}
		d := array.NewData(out, n, []*memory.Buffer{validityAt0(a), memory.NewBufferBytes(arrow.GetBytes(rebased))},
			[]arrow.ArrayData{cv.Data()}, a.NullN(), 0)
		defer d.Release()
		return array.MakeFromData(d), nil
	}
}

// buildStruct builds a struct of type out from st: child i is cs[i] applied to st's field src[i],
// or all nulls when cs[i] is nil.
func buildStruct(out *arrow.StructType, st *array.Struct, cs []caster, src []int, mem memory.Allocator) (arrow.Array, *failure) {
	n := st.Len()
	children := make([]arrow.ArrayData, len(cs))
	defer func() {
		for _, c := range children {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, c := range cs {
		var ca arrow.Array
		if c == nil {
			ca = array.MakeArrayOfNull(mem, out.Field(i).Type, n)
		} else {
			var f *failure
			if ca, f = c(st.Field(src[i])); f != nil {
				return nil, f
			}
		}
		children[i] = ca.Data()
		children[i].Retain()
		ca.Release()
	}
	d := array.NewData(out, n, []*memory.Buffer{validityAt0(st)}, children, st.NullN(), 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// nullViolation reports whether row i of a breaks a NOT NULL constraint of t, nested ones included.
func nullViolation(a arrow.Array, t spec.DataType, i int) bool {
	if a.IsNull(i) {
		return !t.Nullable
	}
	switch t.Root {
	case spec.Array, spec.Map:
		l := a.(array.ListLike)
		s, e := l.ValueOffsets(i)
		if t.Root == spec.Array {
			for j := s; j < e; j++ {
				if nullViolation(l.ListValues(), *t.Elem, int(j)) {
					return true
				}
			}
			return false
		}
		m := a.(*array.Map)
		key := *t.Elem
		key.Nullable = false // Arrow and Parquet map keys are never null
		for j := s; j < e; j++ {
			if nullViolation(m.Keys(), key, int(j)) || nullViolation(m.Items(), *t.Value, int(j)) {
				return true
			}
		}
	case spec.Row:
		st := a.(*array.Struct)
		for k, f := range t.Fields {
			if nullViolation(st.Field(k), f.Type, i) {
				return true
			}
		}
	}
	return false
}

// mayViolate reports whether some value of type t could break a NOT NULL constraint.
func mayViolate(t spec.DataType) bool {
	if !t.Nullable {
		return true
	}
	switch t.Root {
	case spec.Array:
		return mayViolate(*t.Elem)
	case spec.Map:
		return true // keys are always NOT NULL in Arrow and Parquet
	case spec.Row:
		for _, f := range t.Fields {
			if mayViolate(f.Type) {
				return true
			}
		}
	}
	return false
}
