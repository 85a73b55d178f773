package parquet

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/spec"
)

// javaInt96 is Java Paimon's ParquetRowDataWriter.timestampToInt96 for a Timestamp of millis and
// nanoOfMillisecond (Go's / and % truncate toward zero, as Java's do).
func javaInt96(millis int64, nanoOfMilli int32) parquet.Int96 {
	julianDay := int32(millis/86400000 + julianEpochDelta)
	nanosOfDay := (millis%86400000)*1000000 + int64(nanoOfMilli)
	return rawInt96(julianDay, nanosOfDay)
}

func rawInt96(julianDay int32, nanosOfDay int64) parquet.Int96 {
	var v parquet.Int96
	binary.LittleEndian.PutUint64(v[:8], uint64(nanosOfDay))
	binary.LittleEndian.PutUint32(v[8:], uint32(julianDay))
	return v
}

// javaTS is the Java Timestamp (epoch millis, floor, and nano of milli) of a canonical instant.
func javaTS(t *testing.T, s string) (int64, int32) {
	t.Helper()
	tm, err := time.Parse("2006-01-02T15:04:05.999999999", s)
	if err != nil {
		t.Fatal(err)
	}
	return tm.UnixMilli(), int32(tm.Nanosecond() % 1e6)
}

// wantNanos is (julianDay − 2440588)·86400·10⁹ + nanosOfDay in exact arithmetic, and whether it fits int64.
func wantNanos(julianDay int32, nanosOfDay int64) (int64, bool) {
	v := big.NewInt(int64(julianDay) - julianEpochDelta)
	v.Mul(v, big.NewInt(nanosPerDay))
	v.Add(v, big.NewInt(nanosOfDay))
	return v.Int64(), v.IsInt64()
}

// TestInt96NanosJavaWritten decodes Java's encoding of instants before 1970 (negative nanos of day),
// on day boundaries, before 1900, at both ends of int64 nanoseconds and beyond them.
func TestInt96NanosJavaWritten(t *testing.T) {
	for _, c := range []struct {
		ts      string
		nod     int64 // Java's nanos of day, checked so that the cases cover what they claim
		inRange bool
	}{
		{"1969-12-31T23:59:59.999999999", -1, true},
		{"1969-12-31T23:59:59.999999", -1000, true},
		{"1969-12-31T23:59:59", -1e9, true},
		{"1969-12-31T00:00:00.001", -86399999000000, true}, // Java's lowest nanos of day
		{"1969-12-31T00:00:00.000000001", 1, true},         // millis on the day boundary
		{"1969-12-31T00:00:00", 0, true},
		{"1970-01-01T00:00:00", 0, true},
		{"1970-01-01T23:59:59.999999999", 86399999999999, true},
		{"1899-01-01T00:59:20.001001001", -82839998998999, true},
		{"1677-09-21T00:12:43.145224192", -85636854775808, true}, // math.MinInt64 ns
		{"1677-09-21T00:12:43.145224191", -85636854775809, false},
		{"2262-04-11T23:47:16.854775807", 85636854775807, true}, // math.MaxInt64 ns
		{"2262-04-11T23:47:16.854775808", 85636854775808, false},
		{"2200-06-15T12:34:56.789012345", 45296789012345, true},
		{"0001-01-01T00:00:00", 0, false},
		{"9999-12-31T23:59:59.999999999", 86399999999999, false},
	} {
		ms, nano := javaTS(t, c.ts)
		v := javaInt96(ms, nano)
		if got := int64(binary.LittleEndian.Uint64(v[:8])); got != c.nod {
			t.Errorf("%s: Java's nanos of day %d, case says %d", c.ts, got, c.nod)
		}
		got, ok := int96Nanos(&v)
		if ok != c.inRange {
			t.Errorf("%s: in range %v, want %v", c.ts, ok, c.inRange)
			continue
		}
		if !ok {
			if txt := int96Text(&v); !strings.HasPrefix(txt, c.ts) {
				t.Errorf("%s: rendered as %s", c.ts, txt)
			}
			continue
		}
		want := new(big.Int).Mul(big.NewInt(ms), big.NewInt(1e6))
		want.Add(want, big.NewInt(int64(nano)))
		if got != want.Int64() {
			t.Errorf("%s: decoded %d ns, want %s", c.ts, got, want)
		}
		if back := arrowconv.TimestampFromUnit(got, arrow.Nanosecond); back != (spec.TimestampValue{Millis: ms, NanoOfMilli: nano}) {
			t.Errorf("%s: datum %+v, want {%d %d}", c.ts, back, ms, nano)
		}
	}
}

// TestInt96NanosBoundaries: raw (Julian day, nanos of day) pairs, including ones no writer produces
// (nanos of day beyond a day, Julian days at the int32 limits), decode as Java reads them.
func TestInt96NanosBoundaries(t *testing.T) {
	const epoch = int32(julianEpochDelta)
	days := []int32{epoch, epoch - 1, epoch + 1, 0, 1, -1, math.MinInt32, math.MaxInt32,
		epoch - 106751, epoch - 106752, epoch - 106753, epoch + 106750, epoch + 106751, epoch + 106752,
		2268923 /* 1500-01-01 */, 5373484 /* 9999-12-31 */}
	nods := []int64{0, -1, 1, nanosPerDay - 1, -(nanosPerDay - 1), nanosPerDay, -nanosPerDay, 2 * nanosPerDay,
		85636854775807, 85636854775808, -85636854775808, -85636854775809, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1}
	inRange := 0
	for _, jd := range days {
		for _, nod := range nods {
			v := rawInt96(jd, nod)
			got, ok := int96Nanos(&v)
			want, wantOK := wantNanos(jd, nod)
			if ok != wantOK || (ok && got != want) {
				t.Errorf("Julian day %d, nanos of day %d: got %d %v, want %d %v", jd, nod, got, ok, want, wantOK)
			}
			if ok {
				inRange++
			}
			// Where arrow-go accepts the value (0 <= nanos of day < one day), it agrees.
			if a, err := v.ToTimestamp(); err == nil && (!ok || int64(a) != got) && jd >= 0 {
				t.Errorf("Julian day %d, nanos of day %d: arrow-go %d, lakeload %d %v", jd, nod, a, got, ok)
			}
		}
	}
	if inRange < 30 {
		t.Fatalf("only %d cases in range; the boundaries are not exercised", inRange)
	}
}

// TestInt96LakeloadEncodingRoundTrips: lakeload's writer (non-negative nanos of day) and the
// decoder agree over the whole int64 range.
func TestInt96LakeloadEncodingRoundTrips(t *testing.T) {
	for _, ns := range []int64{math.MinInt64, math.MinInt64 + 1, -nanosPerDay - 1, -nanosPerDay, -1, 0, 1,
		nanosPerDay - 1, nanosPerDay, math.MaxInt64 - 1, math.MaxInt64, -2208988800e9 + 1} {
		v := nanosToInt96(ns)
		if nod := int64(binary.LittleEndian.Uint64(v[:8])); nod < 0 || nod >= nanosPerDay {
			t.Errorf("%d: lakeload wrote nanos of day %d", ns, nod)
		}
		if got, ok := int96Nanos(&v); !ok || got != ns {
			t.Errorf("%d: decoded %d %v", ns, got, ok)
		}
	}
}

// int96File writes a Parquet file (no compression, PLAIN, as Java's INT96 pages are) with an optional
// INT96 column ts, a LIST<INT96> arr and a ROW<t INT96>, from Java's encoding of the instants in rows:
// per row ts, arr (nil = null list) and r.t; "" is null.
func int96File(t *testing.T, rows [][3]any) []byte {
	t.Helper()
	enc := func(s string) parquet.Int96 {
		ms, nano := javaTS(t, s)
		return javaInt96(ms, nano)
	}
	must := func(n schema.Node, err error) schema.Node {
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	prim := func(name string, id int32) schema.Node {
		return must(schema.NewPrimitiveNode(name, parquet.Repetitions.Optional, parquet.Types.Int96, id, -1))
	}
	list := must(schema.NewGroupNode("list", parquet.Repetitions.Repeated, schema.FieldList{prim("element", 10)}, -1))
	root := must(schema.NewGroupNode("paimon_schema", parquet.Repetitions.Required, schema.FieldList{
		prim("ts", 1),
		must(schema.NewGroupNodeLogical("arr", parquet.Repetitions.Optional, schema.FieldList{list}, schema.ListLogicalType{}, 2)),
		must(schema.NewGroupNode("r", parquet.Repetitions.Optional, schema.FieldList{prim("t", 4)}, 3)),
	}, -1)).(*schema.GroupNode)
	var buf bytes.Buffer
	pw := file.NewParquetWriter(&buf, root, file.WithWriterProps(parquet.NewWriterProperties(parquet.WithDictionaryDefault(false))))
	rg := pw.AppendRowGroup()
	var vals []parquet.Int96
	var def, rep []int16
	flush := func() {
		cw, err := rg.NextColumn()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cw.(*file.Int96ColumnChunkWriter).WriteBatch(vals, def, rep); err != nil {
			t.Fatal(err)
		}
		if err := cw.Close(); err != nil {
			t.Fatal(err)
		}
		vals, def, rep = nil, nil, nil
	}
	for _, r := range rows { // ts: def 1 = value
		if s := r[0].(string); s != "" {
			vals, def = append(vals, enc(s)), append(def, 1)
		} else {
			def = append(def, 0)
		}
	}
	flush()
	for _, r := range rows { // arr: def 0 null list, 1 empty, 2 null element, 3 element
		l, _ := r[1].([]string)
		switch {
		case r[1] == nil:
			def, rep = append(def, 0), append(rep, 0)
		case len(l) == 0:
			def, rep = append(def, 1), append(rep, 0)
		}
		for k, s := range l {
			rep = append(rep, int16(min(k, 1)))
			if s == "" {
				def = append(def, 2)
			} else {
				vals, def = append(vals, enc(s)), append(def, 3)
			}
		}
	}
	flush()
	for _, r := range rows { // r.t: def 0 null row, 1 null t, 2 value
		switch s := r[2].(string); s {
		case "-":
			def = append(def, 0)
		case "":
			def = append(def, 1)
		default:
			vals, def = append(vals, enc(s)), append(def, 2)
		}
	}
	rep = nil
	flush()
	if err := rg.Close(); err != nil {
		t.Fatal(err)
	}
	if err := pw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestReadJavaInt96File reads a file holding Java's INT96 encoding, top-level and nested, with nulls,
// in batches that split rows, through Reader (the path every data-file read takes).
func TestReadJavaInt96File(t *testing.T) {
	rows := [][3]any{
		{"1969-12-31T23:59:59.999999999", []string{"1969-12-31T23:59:59.999999", ""}, "1899-01-01T00:59:20.001001001"},
		{"", nil, "-"},
		{"1677-09-21T00:12:43.145224192", []string{}, ""},
		{"2262-04-11T23:47:16.854775807", []string{"1969-12-30T23:59:59.000000001"}, "1970-01-01T00:00:00"},
		{"1969-12-31T00:00:00", []string{"2200-06-15T12:34:56.789012345", "1899-12-31T23:59:59.999999999", ""}, "1969-12-31T23:59:59"},
	}
	data := int96File(t, rows)
	ts9 := ts(spec.Timestamp, 9)
	row9 := spec.DataType{Root: spec.Row, Nullable: true, Fields: []spec.DataField{{Name: "t", Type: ts9}}}
	fields := []spec.DataField{
		{Name: "ts", Type: ts9},
		{Name: "arr", Type: spec.DataType{Root: spec.Array, Nullable: true, Elem: ptr(ts9)}},
		{Name: "r", Type: row9},
	}
	datum := func(s string) any {
		if s == "" || s == "-" {
			return nil
		}
		ms, nano := javaTS(t, s)
		return spec.TimestampValue{Millis: ms, NanoOfMilli: nano}
	}
	for _, batch := range []int64{0, 2} {
		got := readRows(t, data, fields, nil, batch)
		if len(got) != len(rows) {
			t.Fatalf("batch %d: %d rows, want %d", batch, len(got), len(rows))
		}
		for i, r := range rows {
			want := []any{datum(r[0].(string)), nil, nil}
			if l, ok := r[1].([]string); ok {
				arr := []any{}
				for _, s := range l {
					arr = append(arr, datum(s))
				}
				want[1] = arr
			}
			if r[2] != "-" {
				want[2] = []any{datum(r[2].(string))}
			}
			for c := range want {
				if !datumEqual(got[i][c], want[c]) {
					t.Errorf("batch %d row %d %s: got %#v, want %#v", batch, i, fields[c].Name, got[i][c], want[c])
				}
			}
		}
	}
}

// TestReadInt96OutOfRange: a Java INT96 value beyond int64 nanoseconds (which Java can write for
// TIMESTAMP(7..9)) is an error naming the column and the value, not corrupt data and never a wrong value.
func TestReadInt96OutOfRange(t *testing.T) {
	data := int96File(t, [][3]any{
		{"1970-01-01T00:00:00", nil, "-"},
		{"1970-01-01T00:00:00", []string{"9999-12-31T23:59:59.999999999"}, "-"},
	})
	r, err := OpenReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	it, err := r.Read(context.Background(), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Release()
	for it.Next() {
		t.Fatal("a batch with an unrepresentable value was returned")
	}
	err = it.Err()
	if !errors.Is(err, ErrUnrepresentable) || errors.Is(err, spec.ErrCorrupt) {
		t.Fatalf("error %v: want ErrUnrepresentable, not ErrCorrupt", err)
	}
	for _, s := range []string{"column arr.element", "9999-12-31T23:59:59.999999999", "Julian day 5373484"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not name %q", err, s)
		}
	}
}
