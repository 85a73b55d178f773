package orc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
	"time"

	"github.com/lakeload/lakeload/codec/orcfile"
	"github.com/lakeload/lakeload/paimon/format/datafile"
	"github.com/lakeload/lakeload/paimon/spec"
)

// MaxFileSize is the largest ORC data file lakeload reads (the file is held in memory).
const MaxFileSize = 2 << 30

// maxMultisetElems caps the elements one MULTISET value may expand to (counts come from the file).
const maxMultisetElems = 1 << 24

// Reader reads one ORC data file. It never closes the io.ReaderAt it was opened on.
type Reader struct {
	f *orcfile.File
}

// wrap classifies an orcfile error: unsupported features become datafile.ErrUnsupported.
func wrap(err error) error {
	if errors.Is(err, orcfile.ErrUnsupported) {
		return fmt.Errorf("%w: orc: %w", datafile.ErrUnsupported, err)
	}
	if errors.Is(err, orcfile.ErrCorrupt) {
		return fmt.Errorf("orc: %w: %w", spec.ErrCorrupt, err)
	}
	return fmt.Errorf("orc: %w", err)
}

// OpenReader reads the fileSize-byte ORC file in r and parses its tail.
func OpenReader(r io.ReaderAt, fileSize int64) (*Reader, error) {
	if fileSize < 0 {
		return nil, fmt.Errorf("orc: %w: file size %d", spec.ErrCorrupt, fileSize)
	}
	if fileSize > MaxFileSize {
		return nil, fmt.Errorf("%w: orc data file of %d bytes is larger than the %d lakeload reads", datafile.ErrUnsupported, fileSize, int64(MaxFileSize))
	}
	data := make([]byte, fileSize)
	if _, err := r.ReadAt(data, 0); err != nil && !(errors.Is(err, io.EOF) && fileSize == 0) {
		return nil, fmt.Errorf("orc: read: %w", err)
	}
	f, err := orcfile.Open(data)
	if err != nil {
		return nil, wrap(err)
	}
	if f.Schema.Kind != orcfile.Struct {
		return nil, wrap(fmt.Errorf("%w: root type %s is not a struct", orcfile.ErrUnsupported, f.Schema.Kind))
	}
	return &Reader{f: f}, nil
}

// NumRows is the row count of the file's footer.
func (r *Reader) NumRows() int64 { return int64(min(r.f.NumRows, 1<<62)) }

// Read returns an iterator over the named columns (decoded as the Paimon types they were written
// with), batchRows rows per batch.
func (r *Reader) Read(ctx context.Context, cols []datafile.Column, batchRows int64) (*datafile.Iterator, error) {
	names := make([]string, len(cols))
	types := make([]*orcfile.Type, len(cols))
	for i, c := range cols {
		t := r.f.Schema.Field(c.Name)
		types[i] = t
		if t == nil {
			return nil, fmt.Errorf("orc: %w: file has no column %q", spec.ErrCorrupt, c.Name)
		}
		if err := check(t, c.Type, c.Name); err != nil {
			return nil, err
		}
		names[i] = c.Name
	}
	stripe := 0
	return datafile.NewIterator(cols, batchRows, func() (datafile.Chunk, bool, error) {
		for stripe < len(r.f.Stripes) {
			if err := ctx.Err(); err != nil {
				return datafile.Chunk{}, false, err
			}
			i := stripe
			stripe++
			n := r.f.Stripes[i].NumRows
			if n == 0 {
				continue
			}
			raw, err := r.f.StripeColumns(i, names)
			if err != nil {
				return datafile.Chunk{}, false, wrap(err)
			}
			out := make([][]any, len(cols))
			for k, c := range cols {
				vals := raw[k]
				for j, v := range vals {
					if vals[j], err = datum(v, types[k], c.Type); err != nil {
						return datafile.Chunk{}, false, fmt.Errorf("orc: stripe %d row %d column %s: %w", i, j, c.Name, err)
					}
				}
				out[k] = vals
			}
			return datafile.Chunk{Cols: out, N: int(n)}, true, nil
		}
		return datafile.Chunk{}, false, nil
	})
}

// check verifies that ORC type o can hold Paimon type t, as Java's writer maps them.
func check(o *orcfile.Type, t spec.DataType, path string) error {
	bad := func() error {
		return fmt.Errorf("%w: orc column %s of type %s cannot hold Paimon %s", datafile.ErrUnsupported, path, o, t)
	}
	var ok bool
	switch t.Root {
	case spec.Boolean:
		ok = o.Kind == orcfile.Boolean
	case spec.TinyInt:
		ok = o.Kind == orcfile.Byte
	case spec.SmallInt:
		ok = o.Kind == orcfile.Short
	case spec.Int, spec.Time:
		ok = o.Kind == orcfile.Int
	case spec.BigInt:
		ok = o.Kind == orcfile.Long
	case spec.Float:
		ok = o.Kind == orcfile.Float
	case spec.Double:
		ok = o.Kind == orcfile.Double
	case spec.Decimal:
		ok = o.Kind == orcfile.Decimal
	case spec.Char, spec.VarChar:
		ok = o.Kind == orcfile.String || o.Kind == orcfile.Varchar || o.Kind == orcfile.Char
	case spec.Binary, spec.VarBinary:
		ok = o.Kind == orcfile.Binary
	case spec.Date:
		ok = o.Kind == orcfile.Date
	case spec.Timestamp:
		ok = o.Kind == orcfile.Timestamp
	case spec.TimestampLTZ:
		ok = o.Kind == orcfile.TimestampInstant || o.Kind == orcfile.Timestamp
	case spec.Array:
		if o.Kind == orcfile.List && t.Elem != nil {
			return check(o.Children[0], *t.Elem, path+".element")
		}
	case spec.Multiset:
		if o.Kind == orcfile.Map && t.Elem != nil {
			if err := check(o.Children[0], *t.Elem, path+".key"); err != nil {
				return err
			}
			ok = o.Children[1].Kind == orcfile.Int
		}
	case spec.Map:
		if o.Kind == orcfile.Map && t.Elem != nil && t.Value != nil {
			if err := check(o.Children[0], *t.Elem, path+".key"); err != nil {
				return err
			}
			return check(o.Children[1], *t.Value, path+".value")
		}
	case spec.Row:
		if o.Kind != orcfile.Struct {
			break
		}
		for _, f := range t.Fields {
			c := o.Field(f.Name)
			if c == nil {
				return fmt.Errorf("orc: %w: struct column %s has no field %q", spec.ErrCorrupt, path, f.Name)
			}
			if err := check(c, f.Type, path+"."+f.Name); err != nil {
				return err
			}
		}
		return nil
	}
	if !ok {
		return bad()
	}
	return nil
}

var ten = big.NewInt(10)

// datum converts an orcfile value of ORC type o, checked by check, to the Datum of Paimon type t.
// CHAR values lose their trailing spaces, as Java's ORC reader (CharTreeReader) returns them.
func datum(v any, o *orcfile.Type, t spec.DataType) (any, error) {
	if v == nil {
		return nil, nil
	}
	mismatch := func() (any, error) {
		return nil, fmt.Errorf("%w: orc value %T for Paimon type root %d", spec.ErrCorrupt, v, t.Root)
	}
	switch t.Root {
	case spec.Boolean, spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt, spec.Float, spec.Double, spec.Date, spec.Time:
		return v, nil // orcfile's Go types are the Datum types of the checked ORC kinds
	case spec.Decimal:
		d, ok := v.(orcfile.DecimalValue)
		if !ok {
			return mismatch()
		}
		u := new(big.Int).Set(d.Unscaled)
		switch {
		case d.Scale < t.Scale:
			u.Mul(u, new(big.Int).Exp(ten, big.NewInt(int64(t.Scale-d.Scale)), nil))
		case d.Scale > t.Scale:
			return nil, fmt.Errorf("%w: decimal of scale %d in a DECIMAL(%d, %d) column", spec.ErrCorrupt, d.Scale, t.Precision, t.Scale)
		}
		if len(u.Text(10)) > t.Precision+boolInt(u.Sign() < 0) {
			return nil, fmt.Errorf("%w: decimal %s×10^-%d exceeds DECIMAL(%d, %d)", spec.ErrCorrupt, d.Unscaled, d.Scale, t.Precision, t.Scale)
		}
		return spec.DecimalValue{Unscaled: u}, nil
	case spec.Char, spec.VarChar:
		s, ok := v.(string)
		if !ok {
			return mismatch()
		}
		if o.Kind == orcfile.Char {
			s = strings.TrimRight(s, " ")
		}
		return s, nil
	case spec.Binary, spec.VarBinary:
		b, ok := v.([]byte)
		if !ok {
			return mismatch()
		}
		return b, nil
	case spec.Timestamp, spec.TimestampLTZ:
		ts, ok := v.(time.Time)
		if !ok {
			return mismatch()
		}
		sec, ns := ts.Unix(), int64(ts.Nanosecond())
		return spec.TimestampValue{Millis: sec*1000 + ns/1e6, NanoOfMilli: int32(ns % 1e6)}, nil
	case spec.Array:
		l, ok := v.([]any)
		if !ok {
			return mismatch()
		}
		out := make([]any, len(l))
		for i, e := range l {
			var err error
			if out[i], err = datum(e, o.Children[0], *t.Elem); err != nil {
				return nil, err
			}
		}
		return out, nil
	case spec.Multiset:
		kvs, ok := v.([]orcfile.KeyValue)
		if !ok {
			return mismatch()
		}
		out := []any{}
		for _, kv := range kvs {
			k, err := datum(kv.Key, o.Children[0], *t.Elem)
			if err != nil {
				return nil, err
			}
			n, ok := kv.Value.(int32)
			if !ok || n < 0 || len(out)+int(n) > maxMultisetElems {
				return nil, fmt.Errorf("%w: MULTISET count %v", spec.ErrCorrupt, kv.Value)
			}
			for ; n > 0; n-- {
				out = append(out, k)
			}
		}
		return out, nil
	case spec.Map:
		kvs, ok := v.([]orcfile.KeyValue)
		if !ok {
			return mismatch()
		}
		out := make([]spec.MapEntry, len(kvs))
		for i, kv := range kvs {
			k, err := datum(kv.Key, o.Children[0], *t.Elem)
			if err != nil {
				return nil, err
			}
			val, err := datum(kv.Value, o.Children[1], *t.Value)
			if err != nil {
				return nil, err
			}
			out[i] = spec.MapEntry{Key: k, Value: val}
		}
		return out, nil
	case spec.Row:
		m, ok := v.(map[string]any)
		if !ok {
			return mismatch()
		}
		out := make([]any, len(t.Fields))
		for i, f := range t.Fields {
			var err error
			if out[i], err = datum(m[f.Name], o.Field(f.Name), f.Type); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return mismatch()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
