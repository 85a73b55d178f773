package binrow

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/paimon/spec"
)

// vectorDir holds the Java-computed bucket vectors (fixtures README, "bucket-hash/").
const vectorDir = "../../../testdata/bucket-hash"

// vectorBuckets is the bucket count the vectors were computed with.
const vectorBuckets = 12345

// vectorFiles maps each vector file to its column types, in order.
var vectorFiles = []struct {
	name  string
	types []spec.DataType
}{
	{"record_for_bucket_id.data", []spec.DataType{
		ty(spec.Boolean), ty(spec.TinyInt), ty(spec.SmallInt), ty(spec.Int), ty(spec.BigInt),
		ty(spec.Float), ty(spec.Double), ty(spec.Date), tsT(9), decT(30, 20), strT(), bytesT(),
	}},
	{"record_with_null_for_bucket_id.data", []spec.DataType{
		ty(spec.Boolean), ty(spec.TinyInt), ty(spec.SmallInt), ty(spec.Int), ty(spec.BigInt),
		ty(spec.Float), ty(spec.Double), ty(spec.Date), tsT(9), decT(5, 2), decT(30, 2), strT(), bytesT(),
	}},
	{"record_with_timestamp_for_bucket_id.data", []spec.DataType{
		tsT(0), tsT(3), tsT(6), tsT(9), ltzT(0), ltzT(3), ltzT(6), ltzT(9),
	}},
}

// vectorRow is one parsed line: the datums and Java's bucket.
type vectorRow struct {
	line   int
	values []any
	bucket int
}

// loadVectors parses up to limit rows (all if limit <= 0) of a vector file.
func loadVectors(tb testing.TB, name string, types []spec.DataType, limit int) []vectorRow {
	tb.Helper()
	f, err := os.Open(filepath.Join(vectorDir, name))
	if err != nil {
		tb.Fatalf("open vectors: %v", err)
	}
	defer f.Close()
	var rows []vectorRow
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSuffix(strings.TrimSpace(sc.Text()), ",")
		if line == "" {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader([]byte(line)))
		dec.UseNumber()
		var raw []any
		if err := dec.Decode(&raw); err != nil {
			tb.Fatalf("%s:%d: %v", name, n, err)
		}
		if len(raw) != len(types)+1 {
			tb.Fatalf("%s:%d: %d elements, want %d", name, n, len(raw), len(types)+1)
		}
		row := vectorRow{line: n, values: make([]any, len(types))}
		for i, t := range types {
			if row.values[i], err = jsonDatum(t, raw[i]); err != nil {
				tb.Fatalf("%s:%d field %d: %v", name, n, i, err)
			}
		}
		b, err := strconv.Atoi(string(raw[len(types)].(json.Number)))
		if err != nil {
			tb.Fatalf("%s:%d bucket: %v", name, n, err)
		}
		row.bucket = b
		rows = append(rows, row)
		if limit > 0 && len(rows) == limit {
			break
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("read vectors: %v", err)
	}
	return rows
}

// jsonDatum converts one JSON element to a datum of t per the fixtures README.
func jsonDatum(t spec.DataType, raw any) (any, error) {
	if raw == nil {
		return nil, nil
	}
	num := func(bitSize int) (int64, error) {
		n, ok := raw.(json.Number)
		if !ok {
			return 0, fmt.Errorf("want number, got %T", raw)
		}
		return strconv.ParseInt(string(n), 10, bitSize)
	}
	switch t.Root {
	case spec.Boolean:
		b, ok := raw.(bool)
		if !ok {
			return nil, fmt.Errorf("want bool, got %T", raw)
		}
		return b, nil
	case spec.TinyInt:
		v, err := num(8)
		return int8(v), err
	case spec.SmallInt:
		v, err := num(16)
		return int16(v), err
	case spec.Int, spec.Date:
		v, err := num(32)
		return int32(v), err
	case spec.BigInt:
		return num(64)
	case spec.Float:
		v, err := strconv.ParseFloat(string(raw.(json.Number)), 32)
		return float32(v), err
	case spec.Double:
		return strconv.ParseFloat(string(raw.(json.Number)), 64)
	case spec.Decimal:
		s := raw.(string)
		ip, fp, _ := strings.Cut(s, ".")
		if len(fp) != t.Scale {
			return nil, fmt.Errorf("decimal %q has %d decimals, want %d", s, len(fp), t.Scale)
		}
		v, ok := new(big.Int).SetString(ip+fp, 10)
		if !ok {
			return nil, fmt.Errorf("bad decimal %q", s)
		}
		return spec.DecimalValue{Unscaled: v}, nil
	case spec.VarChar:
		return raw.(string), nil
	case spec.VarBinary:
		return []byte(raw.(string)), nil
	case spec.Timestamp, spec.TimestampLTZ:
		if s, ok := raw.(string); ok {
			if len(s) == len("2006-01-02T15:04") { // Java LocalDateTime.toString omits zero seconds
				s += ":00"
			}
			tm, err := time.Parse("2006-01-02T15:04:05.999999999", s)
			if err != nil {
				return nil, err
			}
			return spec.TimestampValue{Millis: tm.UnixMilli(), NanoOfMilli: int32(tm.Nanosecond() % 1e6)}, nil
		}
		nanos, err := num(64)
		if err != nil {
			return nil, err
		}
		millis, rem := nanos/1e6, nanos%1e6
		if rem < 0 { // floor division
			millis, rem = millis-1, rem+1e6
		}
		return spec.TimestampValue{Millis: millis, NanoOfMilli: int32(rem)}, nil
	}
	return nil, fmt.Errorf("no JSON mapping for %s", typeName(t))
}

// TestBucketVectors checks Java's bucket (n=12345) for all 15,000 Java-computed rows, and that
// each encoded row decodes to its values and re-encodes to the same bytes.
func TestBucketVectors(t *testing.T) {
	total := 0
	for _, vf := range vectorFiles {
		rows := loadVectors(t, vf.name, vf.types, 0)
		if len(rows) != 5000 {
			t.Errorf("%s: %d rows, want 5000", vf.name, len(rows))
		}
		bad := 0
		for _, r := range rows {
			row, err := Encode(vf.types, r.values)
			if err != nil {
				t.Fatalf("%s:%d: Encode: %v", vf.name, r.line, err)
			}
			if got := Bucket(Hash(row), vectorBuckets); got != r.bucket {
				if bad++; bad <= 5 {
					t.Errorf("%s:%d: bucket %d, Java %d (row %x)", vf.name, r.line, got, r.bucket, row)
				}
				continue
			}
			back, err := Decode(vf.types, row)
			if err != nil {
				t.Fatalf("%s:%d: Decode: %v", vf.name, r.line, err)
			}
			if i := sameRow(vf.types, r.values, back); i >= 0 {
				t.Fatalf("%s:%d: field %d decoded %v, want %v", vf.name, r.line, i, back[i], r.values[i])
			}
			again, err := Encode(vf.types, back)
			if err != nil || !bytes.Equal(again, row) {
				t.Fatalf("%s:%d: re-encode differs (%v)", vf.name, r.line, err)
			}
			total++
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d buckets differ from Java", vf.name, bad, len(rows))
		}
	}
	if total != 15000 {
		t.Errorf("%d rows matched, want 15000", total)
	}
}
