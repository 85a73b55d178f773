package parquet

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/big"
	"reflect"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/lakeload/lakeload/codec/pqflat"
)

// INT96 timestamps as Java Paimon writes them.
//
// Java Paimon stores TIMESTAMP(7..9) and TIMESTAMP_LTZ(7..9) as Parquet INT96: a little-endian int64
// nanos of day followed by a little-endian int32 Julian day (ParquetRowDataWriter.timestampToInt96):
//
//	julianDay  = (int) (millis / 86400000 + 2440588)
//	nanosOfDay = (millis % 86400000) * 1000000 + nanoOfMillisecond
//
// with Java's truncating division, so every instant before 1970 that is not on a day boundary gets a
// negative nanos of day (1969-12-31T23:59:59.999999999 is day 2440588, nanos -1). Java reads the two
// fields back as signed numbers (ParquetVectorUpdaterFactory.TimestampUpdater.int96ToTimestamp), so
// the instant is (julianDay − 2440588) days + nanosOfDay ns after 1970-01-01T00:00 whatever their signs.
// arrow-go's pqarrow instead rejects a nanos of day outside [0, 86400·10⁹) ("invalid INT96 nanoseconds
// of day"), so lakeload does not let it decode INT96: prepareInt96 tells pqarrow to hand the raw
// 12-byte values over as a private Arrow type (int96Raw), and int96Reader decodes them into
// Timestamp(ns) arrays with Java's arithmetic (int96Nanos). lakeload holds TIMESTAMP(7..9) as int64
// nanoseconds since 1970 (1677-09-21T00:12:43.145224192 .. 2262-04-11T23:47:16.854775807); a value
// outside that range is an error naming the column and the value, never a wrong value.

// ErrUnrepresentable marks a value of a data file that lakeload cannot hold in memory (the file is
// not corrupt; Java Paimon reads it).
var ErrUnrepresentable = errors.New("out of lakeload's range")

const (
	// safeDays bounds the day counts for which days·nanosPerDay + nanosOfDay (|nanosOfDay| < one day)
	// cannot overflow int64 (106751 days is the int64 limit).
	safeDays = 106750
)

// int96Nanos decodes one INT96 value (12 bytes) the way Java Paimon reads it; ok is false when the
// instant does not fit int64 nanoseconds since 1970. Any nanos of day is accepted, as Java does.
func int96Nanos(v *parquet.Int96) (ns int64, ok bool) {
	nod := int64(binary.LittleEndian.Uint64(v[:8]))
	days := int64(int32(binary.LittleEndian.Uint32(v[8:12]))) - julianEpochDelta
	if uint64(days+safeDays) <= 2*safeDays && uint64(nod+nanosPerDay-1) <= uint64(2*(nanosPerDay-1)) { // |days| <= safeDays, |nod| < 1 day
		return days*nanosPerDay + nod, true
	}
	return int96NanosEdge(days, nod)
}

// int96NanosEdge is int96Nanos for values near or beyond the int64 limits, or with a nanos of day
// beyond one day (no Paimon writer produces those; Java reads them).
func int96NanosEdge(days, nod int64) (int64, bool) {
	days += nod / nanosPerDay
	nod %= nanosPerDay
	t := new(big.Int).Mul(big.NewInt(days), big.NewInt(nanosPerDay))
	t.Add(t, big.NewInt(nod))
	return t.Int64(), t.IsInt64()
}

// int96Text renders an INT96 value as the timestamp Java reads from it (for error messages; it
// handles every value, also those int96Nanos cannot hold).
func int96Text(v *parquet.Int96) string {
	nod := int64(binary.LittleEndian.Uint64(v[:8]))
	jd := int32(binary.LittleEndian.Uint32(v[8:12]))
	ms := (int64(jd)-julianEpochDelta)*86400000 + nod/1e6 // Java: cannot overflow
	nanos := nod % 1e6
	if nanos < 0 {
		ms, nanos = ms-1, nanos+1e6
	}
	t := time.UnixMilli(ms).UTC().Add(time.Duration(nanos))
	return fmt.Sprintf("%s (INT96 Julian day %d, nanos of day %d)", t.Format("2006-01-02T15:04:05.000000000"), jd, nod)
}

// int96Raw is the Arrow type INT96 leaves are read as: pqarrow decodes a leaf whose (storage) type is
// Int64 without converting the values and hands over the record reader's value buffer, which for an
// INT96 column holds exactly 12 bytes per slot. Arrays of this type never leave this package.
type int96Raw struct{ arrow.ExtensionBase }

type int96RawArray struct{ array.ExtensionArrayBase }

var int96RawType = &int96Raw{arrow.ExtensionBase{Storage: arrow.PrimitiveTypes.Int64}}

func (*int96Raw) ArrayType() reflect.Type { return reflect.TypeOf(int96RawArray{}) }
func (*int96Raw) ExtensionName() string   { return "lakeload.int96-raw" }
func (*int96Raw) Serialize() string       { return "" }
func (t *int96Raw) String() string        { return t.ExtensionName() }
func (t *int96Raw) Fingerprint() string   { return t.ExtensionName() }
func (*int96Raw) ExtensionEquals(o arrow.ExtensionType) bool {
	_, ok := o.(*int96Raw)
	return ok
}
func (*int96Raw) Deserialize(arrow.DataType, string) (arrow.ExtensionType, error) {
	return int96RawType, nil
}

// prepareInt96 makes fr read the INT96 leaves among leaves (nil: all) as int96Raw and reports whether
// there were any. It replaces the manifest's leaf fields (it does not modify them: they may be shared).
func prepareInt96(fr *pqarrow.FileReader, leaves []int) bool {
	sc := fr.ParquetReader().MetaData().Schema
	has := false
	for c := 0; c < sc.NumColumns() && !has; c++ {
		has = sc.Column(c).PhysicalType() == parquet.Types.Int96
	}
	if !has {
		return false
	}
	want := map[int]bool{}
	for _, c := range leaves {
		want[c] = true
	}
	var walk func(f *pqarrow.SchemaField) bool
	walk = func(f *pqarrow.SchemaField) bool {
		if f.IsLeaf() {
			if (leaves != nil && !want[f.ColIndex]) || sc.Column(f.ColIndex).PhysicalType() != parquet.Types.Int96 {
				return false
			}
			if f.Field.Type != int96RawType {
				raw := *f.Field
				raw.Type = int96RawType
				f.Field = &raw
			}
			return true
		}
		found := false
		for k := range f.Children {
			found = walk(&f.Children[k]) || found
		}
		return found
	}
	found := false
	for k := range fr.Manifest.Fields {
		found = walk(&fr.Manifest.Fields[k]) || found
	}
	return found
}

// GetRecordReader is fr.GetRecordReader(ctx, leaves, nil) for data files written by any Paimon
// writer: INT96 columns decode as Java writes them (see above), to Timestamp(ns) as pqarrow would.
// Every reader of Paimon data files uses it instead of calling fr.GetRecordReader.
// Files whose columns are all flat and of the types codec/pqflat decodes are read by pqflat, which
// gives the same batches faster.
func GetRecordReader(ctx context.Context, fr *pqarrow.FileReader, leaves []int) (pqarrow.RecordReader, error) {
	if rr, ok := pqflat.NewRecordReader(fr, leaves, nil, memory.DefaultAllocator); ok {
		return rr, nil
	}
	if !prepareInt96(fr, leaves) {
		return fr.GetRecordReader(ctx, leaves, nil)
	}
	rr, err := fr.GetRecordReader(ctx, leaves, nil)
	if err != nil {
		return nil, err
	}
	in := rr.Schema()
	fs := make([]arrow.Field, in.NumFields())
	for k, f := range in.Fields() {
		if f.Type, err = restoredType(f.Type); err != nil {
			rr.Release()
			return nil, fmt.Errorf("column %s: %w", f.Name, err)
		}
		fs[k] = f
	}
	md := in.Metadata()
	return &int96Reader{RecordReader: rr, schema: arrow.NewSchema(fs, &md)}, nil
}

// restoredType is dt with every int96Raw replaced by Timestamp(ns), pqarrow's type for INT96.
func restoredType(dt arrow.DataType) (arrow.DataType, error) {
	if _, ok := dt.(*int96Raw); ok {
		return arrow.FixedWidthTypes.Timestamp_ns, nil
	}
	nt, ok := dt.(arrow.NestedType)
	if !ok {
		return dt, nil
	}
	fs := nt.Fields()
	changed := false
	out := make([]arrow.Field, len(fs))
	for k, f := range fs {
		out[k] = f
		var err error
		if out[k].Type, err = restoredType(f.Type); err != nil {
			return nil, err
		}
		changed = changed || out[k].Type != f.Type
	}
	if !changed {
		return dt, nil
	}
	switch t := dt.(type) {
	case *arrow.StructType:
		return arrow.StructOf(out...), nil
	case *arrow.ListType:
		return arrow.ListOfField(out[0]), nil
	case *arrow.LargeListType:
		return arrow.LargeListOfField(out[0]), nil
	case *arrow.FixedSizeListType:
		return arrow.FixedSizeListOfField(t.Len(), out[0]), nil
	case *arrow.MapType:
		entries := out[0].Type.(*arrow.StructType)
		m := arrow.MapOfFields(entries.Field(0), entries.Field(1))
		m.KeysSorted = t.KeysSorted
		return m, nil
	}
	return nil, fmt.Errorf("parquet: INT96 nested in %s is not supported", dt)
}

// int96Reader decodes the int96Raw arrays of each batch of the record reader it wraps.
type int96Reader struct {
	pqarrow.RecordReader
	schema *arrow.Schema
	cur    arrow.RecordBatch
	err    error
}

func (r *int96Reader) Schema() *arrow.Schema { return r.schema }

func (r *int96Reader) Next() bool {
	r.releaseCur()
	if r.err != nil || !r.RecordReader.Next() {
		return false
	}
	rec := r.RecordReader.RecordBatch()
	cols := make([]arrow.Array, rec.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for k, c := range rec.Columns() {
		d, err := restoreInt96(c.Data(), r.schema.Field(k).Type, r.schema.Field(k).Name)
		if err != nil {
			r.err = err
			return false
		}
		cols[k] = array.MakeFromData(d)
		d.Release()
	}
	r.cur = array.NewRecordBatch(r.schema, cols, rec.NumRows())
	return true
}

func (r *int96Reader) RecordBatch() arrow.RecordBatch { return r.cur }

// Record is the deprecated name of RecordBatch.
func (r *int96Reader) Record() arrow.RecordBatch { return r.cur }

func (r *int96Reader) Read() (arrow.RecordBatch, error) {
	if !r.Next() {
		if err := r.Err(); err != nil {
			return nil, err
		}
		return nil, io.EOF
	}
	return r.cur, nil
}

func (r *int96Reader) Err() error {
	if r.err != nil {
		return r.err
	}
	return r.RecordReader.Err()
}

func (r *int96Reader) Release() {
	r.releaseCur()
	r.RecordReader.Release()
}

func (r *int96Reader) releaseCur() {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
}

// restoreInt96 returns d (retained) with its int96Raw arrays decoded, typed as want; path names the
// column for errors.
func restoreInt96(d arrow.ArrayData, want arrow.DataType, path string) (arrow.ArrayData, error) {
	if _, ok := d.DataType().(*int96Raw); ok {
		return decodeInt96(d, want, path)
	}
	if !hasInt96Raw(d) {
		d.Retain()
		return d, nil
	}
	wf := want.(arrow.NestedType).Fields()
	if len(wf) != len(d.Children()) {
		return nil, fmt.Errorf("parquet: column %s: %d children for %s", path, len(d.Children()), want)
	}
	children := make([]arrow.ArrayData, len(wf))
	defer func() {
		for _, c := range children {
			if c != nil {
				c.Release()
			}
		}
	}()
	for k, c := range d.Children() {
		var err error
		if children[k], err = restoreInt96(c, wf[k].Type, path+"."+wf[k].Name); err != nil {
			return nil, err
		}
	}
	return array.NewData(want, d.Len(), d.Buffers(), children, d.NullN(), d.Offset()), nil
}

func hasInt96Raw(d arrow.ArrayData) bool {
	if _, ok := d.DataType().(*int96Raw); ok {
		return true
	}
	for _, c := range d.Children() {
		if hasInt96Raw(c) {
			return true
		}
	}
	return false
}

// decodeInt96 turns a int96Raw array (12 bytes per slot, from pqarrow's zero-copy transfer, which
// hands the buffer over) into a Timestamp(ns) array in place: slot i's 8 bytes are written at 8i,
// after slot i's 12 bytes at 12i have been read, so no unread value is overwritten. Null slots
// become 0, as in pqarrow's own arrays.
func decodeInt96(d arrow.ArrayData, want arrow.DataType, path string) (arrow.ArrayData, error) {
	n := d.Len()
	bufs := d.Buffers()
	var raw []byte
	if len(bufs) > 1 && bufs[1] != nil {
		raw = bufs[1].Bytes()
	}
	if d.Offset() != 0 || len(raw) != n*parquet.Int96SizeBytes {
		// pqarrow changed how it hands over raw values: refuse rather than misread them.
		return nil, fmt.Errorf("parquet: column %s: INT96 values arrived as %d bytes at offset %d for %d slots", path, len(raw), d.Offset(), n)
	}
	if n == 0 {
		return array.NewData(want, 0, []*memory.Buffer{nil, nil}, nil, 0, 0), nil
	}
	var valid []byte
	if bufs[0] != nil && d.NullN() > 0 {
		valid = bufs[0].Bytes()
	}
	in := parquet.Int96Traits.CastFromBytes(raw)
	out := arrow.Int64Traits.CastFromBytes(raw[:n*arrow.Int64SizeBytes])
	for i := range out {
		if valid != nil && !bitutil.BitIsSet(valid, i) {
			out[i] = 0
			continue
		}
		v := in[i] // a copy: writing out[i] overwrites the first bytes of in[i] (and the last of in[i-1])
		ns, ok := int96Nanos(&v)
		if !ok {
			return nil, fmt.Errorf("parquet: column %s: timestamp %s is %w: it holds TIMESTAMP(7..9) as int64 nanoseconds "+
				"since 1970 (%s .. %s); Java Paimon and Spark read the value, lakeload cannot",
				path, int96Text(&v), ErrUnrepresentable, minNanosText, maxNanosText)
		}
		out[i] = ns
	}
	var validity *memory.Buffer
	if valid != nil {
		validity = bufs[0]
	}
	values := memory.SliceBuffer(bufs[1], 0, n*arrow.Int64SizeBytes)
	defer values.Release()
	return array.NewData(want, n, []*memory.Buffer{validity, values}, nil, d.NullN(), 0), nil
}

var (
	minNanosText = time.Unix(0, -1<<63).UTC().Format("2006-01-02T15:04:05.000000000")
	maxNanosText = time.Unix(0, 1<<63-1).UTC().Format("2006-01-02T15:04:05.000000000")
)
