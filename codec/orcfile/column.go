package orcfile

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"
)

// KeyValue is one entry of a decoded MAP value, in file order.
type KeyValue struct {
	Key, Value any
}

// column decodes the n slots column t has in this stripe: one per row for top-level columns,
// one per non-null parent value for struct fields, one per element for list elements. Null
// slots (false bits of the PRESENT stream) are nil and have no entry in the other streams.
func (st *stripe) column(t *Type, n uint64) ([]any, error) {
	what := st.name("column " + strconv.Itoa(t.ID))
	if err := st.f.budget.spendValues(n, what); err != nil {
		return nil, err
	}
	present, err := st.stream(t.ID, streamPresent, false)
	if err != nil {
		return nil, err
	}
	if present == nil {
		return st.values(t, int(n))
	}
	isNull := make([]bool, n)
	bits := newBoolRLE(present)
	nonNull := 0
	for i := range isNull {
		ok, err := bits.next()
		if err != nil {
			return nil, err
		}
		isNull[i] = !ok
		if ok {
			nonNull++
		}
	}
	vals, err := st.values(t, nonNull)
	if err != nil {
		return nil, err
	}
	out := make([]any, n)
	j := 0
	for i := range out {
		if !isNull[i] {
			out[i] = vals[j]
			j++
		}
	}
	return out, nil
}

// values decodes n non-null values of column t.
func (st *stripe) values(t *Type, n int) ([]any, error) {
	if n == 0 {
		return nil, nil // writers may omit the streams of an all-null column
	}
	enc := st.enc[t.ID].kind
	dict := enc == encDictionary || enc == encDictionaryV2
	if enc > encDictionaryV2 || (dict && t.Kind != String && t.Kind != Varchar && t.Kind != Char) {
		return nil, corruptf("%s: encoding %d for a %s column", st.name("column "+strconv.Itoa(t.ID)), enc, t.Kind)
	}
	out := make([]any, n)
	var err error
	switch t.Kind {
	case Boolean:
		err = st.booleans(t.ID, out)
	case Byte:
		err = st.tinyints(t.ID, out)
	case Short, Int, Long, Date:
		err = st.integers(t, out)
	case Float, Double:
		err = st.floats(t, out)
	case String, Varchar, Char, Binary:
		err = st.strings(t, out, dict)
	case Timestamp, TimestampInstant:
		err = st.timestamps(t, out)
	case Decimal:
		err = st.decimals(t, out)
	case Struct:
		err = st.structs(t, out)
	case List, Map:
		err = st.lists(t, out)
	default:
		err = unsupportedf("%s: %s columns", st.name("column "+strconv.Itoa(t.ID)), t.Kind)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (st *stripe) booleans(col int, out []any) error {
	s, err := st.stream(col, streamData, true)
	if err != nil {
		return err
	}
	r := newBoolRLE(s)
	for i := range out {
		if out[i], err = r.next(); err != nil {
			return err
		}
	}
	return nil
}

func (st *stripe) tinyints(col int, out []any) error {
	s, err := st.stream(col, streamData, true)
	if err != nil {
		return err
	}
	r := &byteRLE{s: s}
	for i := range out {
		b, err := r.next()
		if err != nil {
			return err
		}
		out[i] = int8(b)
	}
	return nil
}

// integers decodes SHORT (int16), INT (int32), LONG (int64) and DATE (int32 days since
// 1970-01-01) columns, rejecting values out of the type's range.
func (st *stripe) integers(t *Type, out []any) error {
	r, err := st.ints(t.ID, streamData, true)
	if err != nil {
		return err
	}
	for i := range out {
		v, err := r.next()
		if err != nil {
			return err
		}
		switch t.Kind {
		case Short:
			if v < math.MinInt16 || v > math.MaxInt16 {
				return st.outOfRange(t, v)
			}
			out[i] = int16(v)
		case Int, Date:
			if v < math.MinInt32 || v > math.MaxInt32 {
				return st.outOfRange(t, v)
			}
			out[i] = int32(v)
		default:
			out[i] = v
		}
	}
	return nil
}

func (st *stripe) outOfRange(t *Type, v int64) error {
	return corruptf("%s: value %d out of range for %s", st.name("column "+strconv.Itoa(t.ID)), v, t.Kind)
}

// floats decodes FLOAT (float32) and DOUBLE (float64) columns: little-endian IEEE 754.
func (st *stripe) floats(t *Type, out []any) error {
	s, err := st.stream(t.ID, streamData, true)
	if err != nil {
		return err
	}
	size := uint64(8)
	if t.Kind == Float {
		size = 4
	}
	for i := range out {
		b, err := s.take(size)
		if err != nil {
			return err
		}
		if size == 4 {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b))
		} else {
			out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b))
		}
	}
	return nil
}

// strings decodes STRING, VARCHAR and CHAR columns (as string) and BINARY columns (as []byte),
// direct (DATA + LENGTH) or dictionary encoded (DATA holds indexes into the DICTIONARY_DATA
// entries whose sizes LENGTH holds).
func (st *stripe) strings(t *Type, out []any, dict bool) error {
	conv := func(b []byte) any { return string(b) }
	if t.Kind == Binary {
		conv = func(b []byte) any { return bytes.Clone(b) }
	}
	if !dict {
		return st.byteRuns(t.ID, streamData, out, conv)
	}
	size := st.enc[t.ID].dictSize
	if err := st.f.budget.spendValues(size, st.name("column "+strconv.Itoa(t.ID)+" dictionary")); err != nil {
		return err
	}
	entries := make([]any, size)
	if err := st.byteRuns(t.ID, streamDictionaryData, entries, conv); err != nil {
		return err
	}
	idx, err := st.ints(t.ID, streamData, false)
	if err != nil {
		return err
	}
	for i := range out {
		k, err := idx.next()
		if err != nil {
			return err
		}
		if uint64(k) >= size {
			return corruptf("%s: dictionary index %d of %d entries", st.name("column "+strconv.Itoa(t.ID)), uint64(k), size)
		}
		out[i] = entries[k]
	}
	return nil
}

// byteRuns cuts len(out) values out of stream kind by the sizes in the LENGTH stream.
func (st *stripe) byteRuns(col int, kind uint64, out []any, conv func([]byte) any) error {
	if len(out) == 0 {
		return nil
	}
	data, err := st.stream(col, kind, true)
	if err != nil {
		return err
	}
	lengths, err := st.ints(col, streamLength, false)
	if err != nil {
		return err
	}
	for i := range out {
		l, err := lengths.next()
		if err != nil {
			return err
		}
		b, err := data.take(uint64(l))
		if err != nil {
			return err
		}
		out[i] = conv(b)
	}
	return nil
}

func (st *stripe) timestamps(t *Type, out []any) error {
	secs, err := st.ints(t.ID, streamData, true)
	if err != nil {
		return err
	}
	nanos, err := st.ints(t.ID, streamSecondary, false)
	if err != nil {
		return err
	}
	for i := range out {
		s, err := secs.next()
		if err != nil {
			return err
		}
		ns, err := nanos.next()
		if err != nil {
			return err
		}
		ts, ok := timestampValue(s, uint64(ns), st.tz, t.Kind == TimestampInstant)
		if !ok {
			return corruptf("%s: bad timestamp (%d s, encoded nanos %d)", st.name("column "+strconv.Itoa(t.ID)), s, uint64(ns))
		}
		out[i] = ts
	}
	return nil
}

// structs decodes each field for the non-null struct values and assembles one map per value.
func (st *stripe) structs(t *Type, out []any) error {
	fields := make([][]any, len(t.Children))
	for i, c := range t.Children {
		var err error
		if fields[i], err = st.column(c, uint64(len(out))); err != nil {
			return err
		}
	}
	for j := range out {
		m := make(map[string]any, len(t.Children))
		for i, name := range t.FieldNames {
			m[name] = fields[i][j]
		}
		out[j] = m
	}
	return nil
}

// lists decodes LIST ([]any) and MAP ([]KeyValue) columns: LENGTH holds each value's element
// count and the child columns hold the elements of all values back to back.
func (st *stripe) lists(t *Type, out []any) error {
	r, err := st.ints(t.ID, streamLength, false)
	if err != nil {
		return err
	}
	lengths := make([]uint64, len(out))
	var total uint64
	for i := range lengths {
		l, err := r.next()
		if err != nil {
			return err
		}
		lengths[i] = uint64(l)
		if lengths[i] > st.f.budget.maxValues-total {
			return corruptf("%s: %d elements exceed the value budget", st.name("column "+strconv.Itoa(t.ID)), lengths[i])
		}
		total += lengths[i]
	}
	children := make([][]any, len(t.Children))
	for i, c := range t.Children {
		if children[i], err = st.column(c, total); err != nil {
			return err
		}
	}
	var pos uint64
	for j, l := range lengths {
		if t.Kind == List {
			out[j] = children[0][pos : pos+l : pos+l]
		} else {
			kv := make([]KeyValue, l)
			for k := range kv {
				kv[k] = KeyValue{children[0][pos+uint64(k)], children[1][pos+uint64(k)]}
			}
			out[j] = kv
		}
		pos += l
	}
	return nil
}
