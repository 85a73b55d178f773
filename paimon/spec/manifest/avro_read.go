package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/hamba/avro/v2"
	"github.com/hamba/avro/v2/ocf"

	"github.com/lakeload/lakeload/paimon/spec"
)

// ErrUnsupportedFormat is returned (wrapped) when a metadata file is well formed but uses a
// format feature this package cannot decode, e.g. an ORC file (manifest.format=orc) with a codec
// or column type orcmeta does not implement.
var ErrUnsupportedFormat = errors.New("manifest: unsupported metadata file format")

// readConfig bounds what one Avro value may allocate: a single bytes/string field and the element
// count of one array. Paimon metadata stays far below both.
var readConfig = avro.Config{
	MaxByteSliceSize:  16 << 20,
	MaxSliceAllocSize: 1 << 20,
}.Freeze()

// corruptf returns an error wrapping spec.ErrCorrupt.
func corruptf(format string, args ...any) error {
	return fmt.Errorf("%w: manifest: %s", spec.ErrCorrupt, fmt.Sprintf(format, args...))
}

// readOCF decodes every row of an Avro object container file and hands each one, with unions
// unwrapped (see normalize), to fn as a map from field name to value.
func readOCF(r io.Reader, what string, fn func(i int, rec row) error) (err error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("manifest: read %s: %w", what, err)
	}
	if isORC(data) {
		return readORC(data, what, fn)
	}
	if err := checkContainer(data); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer func() {
		// Last-resort guard: the Avro library must never turn bad input into a crash.
		if p := recover(); p != nil {
			err = corruptf("%s: avro decoder failed: %v", what, p)
		}
	}()
	dec, err := ocf.NewDecoder(bytes.NewReader(data),
		ocf.WithDecoderConfig(readConfig),
		ocf.WithDecoderSchemaCache(&avro.SchemaCache{}))
	if err != nil {
		return corruptf("%s: %v", what, err)
	}
	defer dec.Close()
	schema := dec.Schema()
	if err := checkSchema(schema); err != nil {
		return corruptf("%s: unsupported writer schema: %v", what, err)
	}
	for i := 0; dec.HasNext(); i++ {
		var v any
		if err := dec.Decode(&v); err != nil {
			return corruptf("%s row %d: %v", what, i, err)
		}
		nv, err := normalize(schema, v)
		if err != nil {
			return corruptf("%s row %d: %v", what, i, err)
		}
		m, ok := nv.(map[string]any)
		if !ok {
			return corruptf("%s row %d: not a record (%T)", what, i, nv)
		}
		if err := fn(i, row{m: m, what: fmt.Sprintf("%s row %d", what, i)}); err != nil {
			return err
		}
	}
	if err := dec.Error(); err != nil {
		return corruptf("%s: %v", what, err)
	}
	return nil
}

// normalize strips the union wrappers of a generically decoded Avro value using its schema, so that
// a nullable field reads as nil or its plain value whether or not the writer used a union.
// The Avro library wraps non-primitive union branches as map[branch-name]value and returns
// primitive branches bare.
func normalize(s avro.Schema, v any) (any, error) {
	switch s := s.(type) {
	case *avro.RefSchema:
		return normalize(s.Schema(), v)
	case *avro.UnionSchema:
		if v == nil {
			return nil, nil
		}
		if m, ok := v.(map[string]any); ok && len(m) == 1 {
			for name, inner := range m {
				for _, b := range s.Types() {
					if unionBranchName(b) == name {
						return normalize(b, inner)
					}
				}
			}
		}
		var nonNull []avro.Schema
		for _, b := range s.Types() {
			if b.Type() != avro.Null {
				nonNull = append(nonNull, b)
			}
		}
		if len(nonNull) == 1 {
			return normalize(nonNull[0], v)
		}
		return v, nil
	case *avro.RecordSchema:
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("record %s decoded as %T", s.FullName(), v)
		}
		for _, f := range s.Fields() {
			if x, ok := m[f.Name()]; ok {
				nx, err := normalize(f.Type(), x)
				if err != nil {
					return nil, err
				}
				m[f.Name()] = nx
			}
		}
		return m, nil
	case *avro.ArraySchema:
		a, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("array decoded as %T", v)
		}
		for i := range a {
			nx, err := normalize(s.Items(), a[i])
			if err != nil {
				return nil, err
			}
			a[i] = nx
		}
		return a, nil
	}
	return v, nil
}

// unionBranchName is the key the Avro library uses when it wraps a union branch.
func unionBranchName(s avro.Schema) string {
	if r, ok := s.(*avro.RefSchema); ok {
		s = r.Schema()
	}
	if n, ok := s.(avro.NamedSchema); ok {
		return n.FullName()
	}
	name := string(s.Type())
	if l, ok := s.(avro.LogicalTypeSchema); ok && l.Logical() != nil {
		name += "." + string(l.Logical().Type())
	}
	return name
}
