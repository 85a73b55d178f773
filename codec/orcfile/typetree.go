package orcfile

import "slices"

// buildTypes links the flat, pre-order type list into a tree: every type but the root must be
// the child of exactly one type with a smaller id.
func (f *File) buildTypes(raw [][]byte) error {
	if len(raw) == 0 {
		return corruptf("footer has no types")
	}
	f.types = make([]*Type, len(raw))
	subtypes := make([][]uint32, len(raw))
	for id, b := range raw {
		t := &Type{ID: id}
		var kind uint64
		err := eachField(b, "type", func(fl pbField) (err error) {
			switch fl.num {
			case 1:
				kind, err = fl.varint("type kind")
			case 2:
				subtypes[id], err = fl.uint32s("type subtypes", subtypes[id])
			case 3:
				var name []byte
				if name, err = fl.bytes("type fieldNames"); err == nil {
					t.FieldNames = append(t.FieldNames, string(name))
				}
			case 5, 6:
				var v uint64
				if v, err = fl.varint("type precision/scale"); err == nil && v > maxDecimalDigits {
					err = corruptf("type %d: decimal precision/scale %d", id, v)
				}
				if fl.num == 5 {
					t.Precision = int(v)
				} else {
					t.Scale = int(v)
				}
			}
			return err
		})
		if err != nil {
			return err
		}
		if kind > uint64(TimestampInstant) { // e.g. ORC 2's geospatial types
			return unsupportedf("type %d has kind %d", id, kind)
		}
		t.Kind = Kind(kind)
		f.types[id] = t
	}
	parent := make([]bool, len(raw))
	for id, t := range f.types {
		want := -1
		switch t.Kind {
		case Struct:
			want = len(t.FieldNames)
		case List:
			want = 1
		case Map:
			want = 2
		case Union:
			want = len(subtypes[id])
		default:
			want = 0
		}
		if len(subtypes[id]) != want {
			return corruptf("type %d (%s) has %d subtypes, want %d", id, t.Kind, len(subtypes[id]), want)
		}
		if t.Kind != Struct && len(t.FieldNames) > 0 {
			return corruptf("type %d (%s) has field names", id, t.Kind)
		}
		for i, name := range t.FieldNames {
			if slices.Contains(t.FieldNames[:i], name) {
				return corruptf("type %d has two fields named %q", id, name)
			}
		}
		for _, c := range subtypes[id] {
			if int(c) <= id || int(c) >= len(raw) || parent[c] {
				return corruptf("type %d has bad subtype %d", id, c)
			}
			parent[c] = true
			t.Children = append(t.Children, f.types[c])
		}
	}
	for id := 1; id < len(raw); id++ {
		if !parent[id] {
			return corruptf("type %d is not reachable from the root", id)
		}
	}
	f.Schema = f.types[0]
	return checkDepth(f.Schema, 0)
}

func checkDepth(t *Type, depth int) error {
	if depth > maxDepth {
		return unsupportedf("types nested more than %d levels deep", maxDepth)
	}
	for _, c := range t.Children {
		if err := checkDepth(c, depth+1); err != nil {
			return err
		}
	}
	return nil
}
