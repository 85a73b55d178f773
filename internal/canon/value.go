package canon

import (
	"bytes"
	"fmt"
	"math/big"
	"sort"
	"strconv"

	"github.com/lakeload/lakeload/paimon/spec"
)

// Value renders one datum of type t as its canonical JSON fragment. v follows the spec Datum model
// (nil for NULL); a Go type that does not fit t is an error.
func Value(t spec.DataType, v any) ([]byte, error) {
	return appendValue(nil, t, v)
}

func typeErr(t spec.DataType, v any) error {
	return fmt.Errorf("canon: type root %d does not accept Go value of type %T", t.Root, v)
}

func appendValue(dst []byte, t spec.DataType, v any) ([]byte, error) {
	if v == nil {
		return append(dst, "null"...), nil
	}
	switch t.Root {
	case spec.Boolean:
		if b, ok := v.(bool); ok {
			return strconv.AppendBool(dst, b), nil
		}
	case spec.TinyInt:
		if x, ok := v.(int8); ok {
			return strconv.AppendInt(dst, int64(x), 10), nil
		}
	case spec.SmallInt:
		if x, ok := v.(int16); ok {
			return strconv.AppendInt(dst, int64(x), 10), nil
		}
	case spec.Int:
		if x, ok := v.(int32); ok {
			return strconv.AppendInt(dst, int64(x), 10), nil
		}
	case spec.BigInt:
		if x, ok := v.(int64); ok {
			return strconv.AppendInt(dst, x, 10), nil
		}
	case spec.Float:
		if x, ok := v.(float32); ok {
			return append(dst, floatJSON(float64(x))...), nil
		}
	case spec.Double:
		if x, ok := v.(float64); ok {
			return append(dst, floatJSON(x)...), nil
		}
	case spec.Decimal:
		switch x := v.(type) {
		case spec.DecimalValue:
			return appendString(dst, Decimal(x.Unscaled, t.Scale)), nil
		case *big.Int:
			return appendString(dst, Decimal(x, t.Scale)), nil
		}
	case spec.Char, spec.VarChar:
		if s, ok := v.(string); ok {
			return appendString(dst, s), nil
		}
	case spec.Binary, spec.VarBinary:
		if b, ok := v.([]byte); ok {
			return appendString(dst, Bytes(b)), nil
		}
	case spec.Date:
		if d, ok := v.(int32); ok {
			return appendString(dst, Date(d)), nil
		}
	case spec.Time:
		if d, ok := v.(int32); ok {
			return appendString(dst, Time(d)), nil
		}
	case spec.Timestamp, spec.TimestampLTZ:
		if ts, ok := v.(spec.TimestampValue); ok {
			return appendString(dst, Timestamp(ts)), nil
		}
	case spec.Array:
		if xs, ok := v.([]any); ok && t.Elem != nil {
			return appendArray(dst, *t.Elem, xs, false)
		}
	case spec.Multiset:
		if xs, ok := v.([]any); ok && t.Elem != nil {
			return appendArray(dst, *t.Elem, xs, true)
		}
	case spec.Map:
		if es, ok := v.([]spec.MapEntry); ok && t.Elem != nil && t.Value != nil {
			return appendMap(dst, *t.Elem, *t.Value, es)
		}
	case spec.Row:
		if xs, ok := v.([]any); ok {
			return appendRow(dst, t.Fields, xs)
		}
	default:
		return nil, fmt.Errorf("canon: unknown type root %d", t.Root)
	}
	return nil, typeErr(t, v)
}

// appendArray renders elements in order, or sorted by their canonical text when sorted is set.
func appendArray(dst []byte, elem spec.DataType, xs []any, sorted bool) ([]byte, error) {
	parts := make([][]byte, len(xs))
	for i, x := range xs {
		p, err := appendValue(nil, elem, x)
		if err != nil {
			return nil, fmt.Errorf("element %d: %w", i, err)
		}
		parts[i] = p
	}
	if sorted {
		sort.Slice(parts, func(i, j int) bool { return bytes.Compare(parts[i], parts[j]) < 0 })
	}
	dst = append(dst, '[')
	for i, p := range parts {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, p...)
	}
	return append(dst, ']'), nil
}

// appendMap renders [[key,value],...] sorted by the keys' canonical text.
func appendMap(dst []byte, kt, vt spec.DataType, es []spec.MapEntry) ([]byte, error) {
	type pair struct{ k, v []byte }
	ps := make([]pair, len(es))
	for i, e := range es {
		k, err := appendValue(nil, kt, e.Key)
		if err != nil {
			return nil, fmt.Errorf("map key %d: %w", i, err)
		}
		v, err := appendValue(nil, vt, e.Value)
		if err != nil {
			return nil, fmt.Errorf("map value %d: %w", i, err)
		}
		ps[i] = pair{k, v}
	}
	sort.SliceStable(ps, func(i, j int) bool { return bytes.Compare(ps[i].k, ps[j].k) < 0 })
	dst = append(dst, '[')
	for i, p := range ps {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '[')
		dst = append(dst, p.k...)
		dst = append(dst, ',')
		dst = append(dst, p.v...)
		dst = append(dst, ']')
	}
	return append(dst, ']'), nil
}

// appendRow renders an object keyed by field name, keys in bytewise order.
func appendRow(dst []byte, fields []spec.DataField, values []any) ([]byte, error) {
	if len(fields) != len(values) {
		return nil, fmt.Errorf("canon: row has %d values for %d fields", len(values), len(fields))
	}
	order := make([]int, len(fields))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return fields[order[a]].Name < fields[order[b]].Name })
	dst = append(dst, '{')
	for n, i := range order {
		if n > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, fields[i].Name)
		dst = append(dst, ':')
		var err error
		dst, err = appendValue(dst, fields[i].Type, values[i])
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", fields[i].Name, err)
		}
	}
	return append(dst, '}'), nil
}
