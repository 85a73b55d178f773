package orc

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"

	"github.com/lakeload/lakeload/paimon/format/datafile"
	"github.com/lakeload/lakeload/paimon/spec"
)

// seedFile is a Java-written ORC data file (orc_snappy fixture): every column type, nulls.
const seedFile = "testdata/alltypes-snappy.orc"

// seedColumns are its columns as Java's schema declares them.
var seedColumns = func() []datafile.Column {
	ty := func(r spec.TypeRoot) spec.DataType { return spec.DataType{Root: r, Nullable: true} }
	ts := func(r spec.TypeRoot, p int) spec.DataType {
		return spec.DataType{Root: r, Nullable: true, Precision: p}
	}
	dec := func(p, s int) spec.DataType {
		return spec.DataType{Root: spec.Decimal, Nullable: true, Precision: p, Scale: s}
	}
	i, d, str := ty(spec.Int), ty(spec.Double), spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxLength}
	return []datafile.Column{
		{Name: "id", Type: i}, {Name: "b", Type: ty(spec.Boolean)}, {Name: "ti", Type: ty(spec.TinyInt)},
		{Name: "si", Type: ty(spec.SmallInt)}, {Name: "bi", Type: ty(spec.BigInt)}, {Name: "f", Type: ty(spec.Float)},
		{Name: "d", Type: d}, {Name: "dec5", Type: dec(5, 2)}, {Name: "dec18", Type: dec(18, 4)}, {Name: "dec38", Type: dec(38, 10)},
		{Name: "s", Type: str}, {Name: "ch", Type: spec.DataType{Root: spec.Char, Nullable: true, Length: 3}},
		{Name: "by", Type: spec.DataType{Root: spec.VarBinary, Nullable: true, Length: spec.MaxLength}},
		{Name: "dt", Type: ty(spec.Date)}, {Name: "tm", Type: ts(spec.Time, 0)},
		{Name: "ts0", Type: ts(spec.Timestamp, 0)}, {Name: "ts9", Type: ts(spec.Timestamp, 9)}, {Name: "ltz6", Type: ts(spec.TimestampLTZ, 6)},
		{Name: "arr", Type: spec.DataType{Root: spec.Array, Nullable: true, Elem: &i}},
		{Name: "mi", Type: spec.DataType{Root: spec.Map, Nullable: true, Elem: &i, Value: &str}},
		{Name: "r", Type: spec.DataType{Root: spec.Row, Nullable: true, Fields: []spec.DataField{
			{ID: 100, Name: "x", Type: i}, {ID: 101, Name: "y", Type: str},
			{ID: 102, Name: "z", Type: spec.DataType{Root: spec.Array, Nullable: true, Elem: &d}}}}},
	}
}()

// decodeAll reads every batch of data; it returns the rows read.
func decodeAll(data []byte) (int64, error) {
	rd, err := OpenReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return 0, err
	}
	it, err := rd.Read(context.Background(), seedColumns, 3)
	if err != nil {
		return 0, err
	}
	defer it.Release()
	var n int64
	for it.Next() {
		n += it.RecordBatch().NumRows()
	}
	return n, it.Err()
}

// TestSeedDecodes: the Java-written seed reads whole (its values are checked against Java by
// internal/compat's TestJavaFixturesMatchGolden on the orc_* fixtures).
func TestSeedDecodes(t *testing.T) {
	data, err := os.ReadFile(seedFile)
	if err != nil {
		t.Fatal(err)
	}
	n, err := decodeAll(data)
	if err != nil || n != 2 {
		t.Fatalf("read %d rows, %v; want the file's 2 (partition p0 of the fixture)", n, err)
	}
}

// FuzzDecodeORC: any bytes decode to rows or to an error wrapping spec.ErrCorrupt or
// datafile.ErrUnsupported, never a panic, and never more allocation than the file's size bounds.
func FuzzDecodeORC(f *testing.F) {
	data, err := os.ReadFile(seedFile)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	for _, cut := range []int{len(data) / 2, len(data) - 1, len(data) - 20} {
		f.Add(data[:cut])
	}
	for _, pos := range []int{3, len(data) / 3, len(data) / 2, len(data) - 30, len(data) - 5} {
		m := bytes.Clone(data)
		m[pos] ^= 0x5a
		f.Add(m)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := decodeAll(b); err != nil && !errors.Is(err, spec.ErrCorrupt) && !errors.Is(err, datafile.ErrUnsupported) {
			t.Fatalf("error neither corrupt nor unsupported: %v", err)
		}
	})
}
