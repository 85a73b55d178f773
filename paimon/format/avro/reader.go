// Package avro reads Paimon data files in Avro format (Java's AvroFileFormat, 'file.format'='avro')
// into Arrow record batches of lakeload's Arrow types. Files are Avro object container files
// (codecs null, deflate, snappy, zstandard) of one record per row, as Java's AvroSchemaConverter
// lays them out: nullable fields as ["null", T] unions; BOOLEAN boolean, TINYINT/SMALLINT/INT
// int, BIGINT long, FLOAT float, DOUBLE double, DECIMAL bytes (decimal logical type), CHAR/VARCHAR
// string, BINARY/VARBINARY bytes, DATE int (date), TIME int (time-millis), TIMESTAMP(p) long
// (timestamp-millis p <= 3, timestamp-micros p <= 6; Java writes no p > 6), TIMESTAMP_LTZ long
// (local-timestamp-millis/-micros), ARRAY array, MAP map (STRING keys) or array of {key, value}
// records, MULTISET likewise with int counts, ROW record. Entries of an Avro map (STRING keys) come
// sorted by key: the decoder does not keep their file order.
//
// Invariants: decoding goes through the hardened Avro decoder of paimon/spec/manifest
// (ReadAvroRecords): framing checked before use, every value bounded (16 MiB per string or bytes
// value, 2^20 elements per array or map), no panics; damaged files give errors wrapping
// spec.ErrCorrupt, a value whose Avro type does not hold its column's Paimon type one wrapping
// datafile.ErrUnsupported. A file is read and decoded whole (at most MaxFileSize bytes).
package avro

import (
	"context"
	"fmt"
	"io"
	"math/big"
	"sort"
	"time"

	"github.com/lakeload/lakeload/paimon/format/datafile"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

// MaxFileSize is the largest Avro data file lakeload reads (the file is decoded in memory).
const MaxFileSize = 1 << 30

const maxMultisetElems = 1 << 24

// Reader reads one Avro data file. It never closes the io.ReaderAt it was opened on.
type Reader struct {
	r    io.ReaderAt
	size int64
}

// OpenReader checks the size of the fileSize-byte Avro file in r; decoding starts with Read.
func OpenReader(r io.ReaderAt, fileSize int64) (*Reader, error) {
	if fileSize < 0 {
		return nil, fmt.Errorf("avro: %w: file size %d", spec.ErrCorrupt, fileSize)
	}
	if fileSize > MaxFileSize {
		return nil, fmt.Errorf("%w: avro data file of %d bytes is larger than the %d lakeload reads", datafile.ErrUnsupported, fileSize, int64(MaxFileSize))
	}
	return &Reader{r: r, size: fileSize}, nil
}

// Read decodes the file and returns an iterator over the named columns (as the Paimon types
// they were written with), batchRows rows per batch.
func (r *Reader) Read(ctx context.Context, cols []datafile.Column, batchRows int64) (*datafile.Iterator, error) {
	out := make([][]any, len(cols))
	n := 0
	err := manifest.ReadAvroRecords(io.NewSectionReader(r.r, 0, r.size), "avro data file", func(rec map[string]any) error {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		for k, c := range cols {
			raw, ok := rec[c.Name]
			if !ok {
				return fmt.Errorf("avro: %w: record %d has no field %q", spec.ErrCorrupt, n, c.Name)
			}
			v, err := datum(raw, c.Type)
			if err != nil {
				return fmt.Errorf("avro: record %d column %s: %w", n, c.Name, err)
			}
			out[k] = append(out[k], v)
		}
		n++
		return nil
	})
	if err != nil {
		return nil, err
	}
	done := n == 0
	return datafile.NewIterator(cols, batchRows, func() (datafile.Chunk, bool, error) {
		if done {
			return datafile.Chunk{}, false, nil
		}
		done = true
		return datafile.Chunk{Cols: out, N: n}, true, nil
	})
}

// datum converts a decoded Avro value to the Datum of Paimon type t.
func datum(v any, t spec.DataType) (any, error) {
	if v == nil {
		return nil, nil
	}
	mismatch := func() (any, error) {
		return nil, fmt.Errorf("%w: avro value %T cannot hold Paimon type root %d", datafile.ErrUnsupported, v, t.Root)
	}
	switch t.Root {
	case spec.Boolean:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case spec.TinyInt, spec.SmallInt, spec.Int:
		i, ok := v.(int32)
		if !ok {
			break
		}
		switch {
		case t.Root == spec.TinyInt && i == int32(int8(i)):
			return int8(i), nil
		case t.Root == spec.SmallInt && i == int32(int16(i)):
			return int16(i), nil
		case t.Root == spec.Int:
			return i, nil
		}
		return nil, fmt.Errorf("%w: %d out of range for type root %d", spec.ErrCorrupt, i, t.Root)
	case spec.BigInt:
		if i, ok := v.(int64); ok {
			return i, nil
		}
	case spec.Float:
		if f, ok := v.(float32); ok {
			return f, nil
		}
	case spec.Double:
		if f, ok := v.(float64); ok {
			return f, nil
		}
	case spec.Decimal:
		b, ok := v.(manifest.AvroDecimal)
		if !ok {
			break
		}
		if len(b) > 17 {
			return nil, fmt.Errorf("%w: decimal of %d bytes", spec.ErrCorrupt, len(b))
		}
		u := new(big.Int).SetBytes(b)
		if len(b) > 0 && b[0]&0x80 != 0 { // two's complement
			u.Sub(u, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
		}
		if len(u.Text(10)) > t.Precision+boolInt(u.Sign() < 0) {
			return nil, fmt.Errorf("%w: decimal %s exceeds DECIMAL(%d, %d)", spec.ErrCorrupt, u, t.Precision, t.Scale)
		}
		return spec.DecimalValue{Unscaled: u}, nil
	case spec.Char, spec.VarChar:
		if s, ok := v.(string); ok {
			return s, nil
		}
	case spec.Binary, spec.VarBinary:
		if b, ok := v.([]byte); ok {
			return b, nil
		}
	case spec.Date:
		if d, ok := v.(time.Time); ok {
			days := d.Unix() / 86400
			if days != int64(int32(days)) {
				return nil, fmt.Errorf("%w: date out of range", spec.ErrCorrupt)
			}
			return int32(days), nil
		}
		if i, ok := v.(int32); ok {
			return i, nil
		}
	case spec.Time:
		if d, ok := v.(time.Duration); ok {
			return int32(d / time.Millisecond), nil
		}
		if i, ok := v.(int32); ok {
			return i, nil
		}
	case spec.Timestamp, spec.TimestampLTZ:
		switch x := v.(type) {
		case int64: // timestamp-millis (raw); a micros column always decodes to time.Time
			if t.Precision > 3 {
				return spec.TimestampValue{Millis: floorDiv(x, 1000), NanoOfMilli: int32(floorMod(x, 1000) * 1000)}, nil
			}
			return spec.TimestampValue{Millis: x}, nil
		case time.Time:
			sec, ns := x.Unix(), int64(x.Nanosecond())
			return spec.TimestampValue{Millis: sec*1000 + ns/1e6, NanoOfMilli: int32(ns % 1e6)}, nil
		}
	case spec.Array, spec.Multiset:
		l, ok := v.([]any)
		if !ok {
			if m, isMap := v.(map[string]any); isMap && t.Root == spec.Multiset {
				return multisetFromMap(m, t)
			}
			break
		}
		if t.Root == spec.Multiset {
			return multisetFromPairs(l, t)
		}
		out := make([]any, len(l))
		for i, e := range l {
			var err error
			if out[i], err = datum(e, *t.Elem); err != nil {
				return nil, err
			}
		}
		return out, nil
	case spec.Map:
		switch m := v.(type) {
		case map[string]any: // the decoder's map has no order: entries come sorted by key
			out := make([]spec.MapEntry, 0, len(m))
			for _, k := range sortedKeys(m) {
				e := m[k]
				key, err := datum(k, *t.Elem)
				if err != nil {
					return nil, err
				}
				val, err := datum(e, *t.Value)
				if err != nil {
					return nil, err
				}
				out = append(out, spec.MapEntry{Key: key, Value: val})
			}
			return out, nil
		case []any: // non-STRING keys: an array of {key, value} records
			out := make([]spec.MapEntry, len(m))
			for i, e := range m {
				kv, ok := e.(map[string]any)
				if !ok {
					return mismatch()
				}
				key, err := datum(kv["key"], *t.Elem)
				if err != nil {
					return nil, err
				}
				val, err := datum(kv["value"], *t.Value)
				if err != nil {
					return nil, err
				}
				out[i] = spec.MapEntry{Key: key, Value: val}
			}
			return out, nil
		}
	case spec.Row:
		m, ok := v.(map[string]any)
		if !ok {
			break
		}
		out := make([]any, len(t.Fields))
		for i, f := range t.Fields {
			var err error
			if out[i], err = datum(m[f.Name], f.Type); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return mismatch()
}

func multisetFromMap(m map[string]any, t spec.DataType) (any, error) {
	pairs := make([]any, 0, len(m))
	for _, k := range sortedKeys(m) {
		pairs = append(pairs, map[string]any{"key": k, "value": m[k]})
	}
	return multisetFromPairs(pairs, t)
}

func multisetFromPairs(l []any, t spec.DataType) (any, error) {
	out := []any{}
	for _, e := range l {
		kv, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%w: MULTISET entry %T", spec.ErrCorrupt, e)
		}
		k, err := datum(kv["key"], *t.Elem)
		if err != nil {
			return nil, err
		}
		n, ok := kv["value"].(int32)
		if !ok || n < 0 || len(out)+int(n) > maxMultisetElems {
			return nil, fmt.Errorf("%w: MULTISET count %v", spec.ErrCorrupt, kv["value"])
		}
		for ; n > 0; n-- {
			out = append(out, k)
		}
	}
	return out, nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
