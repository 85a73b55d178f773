package file

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakeload/lakeload/source"
)

// TestJSONLimitsBoundaries: 512 levels decode and 513 do not, a raised MaxJSONDepth admits more, and
// values count against the record size (32 bytes each): a short line of many values is over a small limit.
func TestJSONLimitsBoundaries(t *testing.T) {
	nest := func(n int) []byte { return []byte(strings.Repeat("[", n) + strings.Repeat("]", n)) }
	def := jsonLimitsOf(source.Limits{})
	if _, err := decodeJSON(nest(512), def); err != nil {
		t.Errorf("512 levels: %v", err)
	}
	if _, err := decodeJSON(nest(513), def); err == nil || !strings.Contains(err.Error(), "deeper than 512") {
		t.Errorf("513 levels: %v", err)
	}
	if _, err := decodeJSON(nest(600), jsonLimitsOf(source.Limits{MaxJSONDepth: 600})); err != nil {
		t.Errorf("600 levels with MaxJSONDepth 600: %v", err)
	}
	small := jsonLimitsOf(source.Limits{MaxRecordBytes: 32 * 10})
	if _, err := decodeJSON([]byte("[0,0,0,0,0,0,0,0,0]"), small); err != nil { // 10 values
		t.Errorf("10 values under a 10-value budget: %v", err)
	}
	if _, err := decodeJSON([]byte("[0,0,0,0,0,0,0,0,0,0]"), small); err == nil || !strings.Contains(err.Error(), "--max-record-bytes") {
		t.Errorf("11 values under a 10-value budget: %v", err)
	}
	// CSV fields count too: 10 empty fields take 320 bytes.
	opts := source.MappingOptions{IgnoreExtra: true, Limits: source.Limits{MaxRecordBytes: 32*3 + 10}}
	s, err := newCSVSource("in", strings.NewReader("a,b,c\n,,,,,,,,,\n1,2,3\n"), table(t, "a INT").Fields, opts)
	if err != nil {
		t.Fatal(err)
	}
	ids, rej, err := textRows(t, s, nil, []string{"a INT"}, true)
	if err != nil || strings.Join(ids, ",") != "1" || len(rej) != 1 || rej[0].Line != 2 || !strings.Contains(rej[0].Reason, "32 per field") {
		t.Errorf("ids %v, rejected %+v, err %v", ids, rej, err)
	}
}

// TestNonRegularInputWhenAllowed: with AllowNonRegular, /dev/zero is planned and read, and the record
// size limit ends the read.
func TestNonRegularInputWhenAllowed(t *testing.T) {
	lim := source.Limits{AllowNonRegular: true, MaxRecordBytes: 1 << 20}
	ss, err := PlanWith(context.Background(), osFS{}, "/dev/zero", "jsonl", lim)
	if err != nil || len(ss) != 1 {
		t.Fatalf("planned %v, %v", ss, err)
	}
	_, err = readAll(t, ss[0], table(t, "a INT"), source.MappingOptions{Limits: lim})
	wantErr(t, err, "file /dev/zero, row 1 (line 1)", "at most 1048576 bytes")
	if _, err := readAll(t, ss[0], table(t, "a INT"), source.MappingOptions{}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Open without AllowNonRegular: %v", err)
	}
}

// TestParquetBudgetHonestFile: a file of 80 row groups reads in full under a decode budget far below
// its decompressed size, with every batch kept (as the writer keeps a window's columns): the budget
// counts what is decoded at once, and its count returns as row groups end. A split starting inside a
// row group reads from there. A row group over the budget compressed is refused before reading.
func TestParquetBudgetHonestFile(t *testing.T) {
	dir := t.TempDir()
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "s", Type: arrow.BinaryTypes.String}}, nil)
	var rows strings.Builder
	rows.WriteString("[")
	const n = 80 * 5000
	for i := 0; i < n; i++ {
		if i > 0 {
			rows.WriteString(",")
		}
		fmt.Fprintf(&rows, `{"id":%d,"s":"%032x"}`, i, i*7919)
	}
	rows.WriteString("]")
	p := writeParquet(t, dir, "honest.parquet", schema, rows.String(), 5000) // 80 row groups, ~220 KiB decoded each
	tbl := table(t, "id BIGINT", "s STRING")
	opts := source.MappingOptions{Limits: source.Limits{MaxDecodedBytes: 6 << 20}} // the file decodes to ~18 MiB, a batch of 64Ki rows to ~3 MiB
	bs, err := readAll(t, split(t, p), tbl, opts)
	if err != nil {
		t.Fatal(err)
	}
	var got int64
	for _, b := range bs {
		got += b.Record.NumRows()
	}
	if got != n {
		t.Errorf("read %d rows, want %d", got, n)
	}
	sp := split(t, p)
	sp.RowStart, sp.RowCount = 12345, 10
	bs, err = readAll(t, sp, tbl, opts)
	if err != nil || len(bs) != 1 || bs[0].Record.NumRows() != 10 || bs[0].FirstRow != 12345 || col(t, bs[0], "id").ValueStr(0) != "12345" {
		t.Fatalf("split from row 12345: %v %v", bs, err)
	}
	_, err = readAll(t, split(t, p), tbl, source.MappingOptions{Limits: source.Limits{MaxDecodedBytes: 64 << 10}})
	wantErr(t, err, "file "+filepath.ToSlash(p), "Parquet row group 0 (5000 rows)", "compressed", "MaxDecodedBytes", "smaller row groups")
}
