package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func createItems(t *testing.T, wh string) {
	t.Helper()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "shop.items",
		"--column", "id BIGINT", "--column", "name STRING", "--column", "price DECIMAL(10, 2)",
		"--column", "seen TIMESTAMP(3)", "--column", "active BOOLEAN", "--column", "day DATE", "--column", "raw BYTES",
		"--primary-key", "id", "--option", "bucket=2"))...)
}

// itemsParquet builds three rows of shop.items with the table's own Arrow types (id 2 all nulls).
func itemsParquet(t *testing.T, path string) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "price", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
		{Name: "seen", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
		{Name: "active", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "raw", Type: arrow.BinaryTypes.Binary, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	ms := time.Date(2024, 1, 2, 3, 4, 5, 678e6, time.UTC).UnixMilli()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2, 3}, nil)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"alpha", "", `comma, "quoted"`}, []bool{true, false, true})
	b.Field(2).(*array.Decimal128Builder).AppendValues([]decimal128.Num{decimal128.FromI64(1250), {}, decimal128.FromI64(-1)}, []bool{true, false, true})
	b.Field(3).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{arrow.Timestamp(ms), 0, 0}, []bool{true, false, true})
	b.Field(4).(*array.BooleanBuilder).AppendValues([]bool{true, false, false}, []bool{true, false, true})
	b.Field(5).(*array.Date32Builder).AppendValues([]arrow.Date32{19724, 0, -1}, []bool{true, false, true})
	b.Field(6).(*array.BinaryBuilder).AppendValues([][]byte{{0, 0xff}, nil, {}}, []bool{true, false, true})
	rec := b.NewRecordBatch()
	defer rec.Release()
	writeParquet(t, path, rec)
}

// TestWriteParquetCSVJSONL: three writes (Parquet with the table's Arrow types; CSV with reordered
// columns, quoted fields, nulls and an upsert of id 3; JSON Lines with string and number forms and an
// upsert of id 1) make three snapshots; scan prints exactly the expected rows, keys in schema order, at
// the latest snapshot and at snapshot 1.
func TestWriteParquetCSVJSONL(t *testing.T) {
	wh, in := t.TempDir(), t.TempDir()
	createItems(t, wh)
	itemsParquet(t, filepath.Join(in, "items.parquet"))
	writeFile(t, in, "items.csv", "name,id,price,active,day,seen,raw\r\n"+
		"gamma,3,99999999.99,1,2024-02-29,2024-02-29 23:59:59.999,AAE=\r\n"+
		"\"\",4,,FALSE,,,\r\n"+
		"\"multi\nline\",5,-1,true,2000-01-01,2000-01-01T00:00:00,\r\n")
	writeFile(t, in, "items.jsonl", `{"id":1,"name":"alpha2","price":"1.5","seen":"2024-01-02 03:04:05.6","active":"true","day":"2024-01-02","raw":"/w=="}
{"id":6,"name":"日本","price":7,"active":null}
`)
	for i, f := range []string{"items.parquet", "items.csv", "items.jsonl"} {
		out := ok(t, cmdArgs([]string{"write"}, tbl(wh, "shop.items", "--from", filepath.Join(in, f)))...)
		rows := []int{3, 3, 2}[i]
		if !strings.HasPrefix(out, fmt.Sprintf("wrote %d rows from 1 input file into ", rows)) ||
			!strings.HasSuffix(out, fmt.Sprintf("committed snapshot %d of shop.items\n", i+1)) {
			t.Errorf("write %s printed %q", f, out)
		}
	}
	snap1 := []string{
		`{"id":1,"name":"alpha","price":"12.50","seen":"2024-01-02T03:04:05.678000000","active":true,"day":"2024-01-02","raw":"00ff"}`,
		`{"id":2,"name":null,"price":null,"seen":null,"active":null,"day":null,"raw":null}`,
		`{"id":3,"name":"comma, \"quoted\"","price":"-0.01","seen":"1970-01-01T00:00:00.000000000","active":false,"day":"1969-12-31","raw":""}`,
	}
	latest := []string{
		`{"id":1,"name":"alpha2","price":"1.50","seen":"2024-01-02T03:04:05.600000000","active":true,"day":"2024-01-02","raw":"ff"}`,
		snap1[1],
		`{"id":3,"name":"gamma","price":"99999999.99","seen":"2024-02-29T23:59:59.999000000","active":true,"day":"2024-02-29","raw":"0001"}`,
		`{"id":4,"name":"","price":null,"seen":null,"active":false,"day":null,"raw":null}`,
		`{"id":5,"name":"multi\nline","price":"-1.00","seen":"2000-01-01T00:00:00.000000000","active":true,"day":"2000-01-01","raw":null}`,
		`{"id":6,"name":"日本","price":"7.00","seen":null,"active":null,"day":null,"raw":null}`,
	}
	scan := func(extra ...string) []string {
		l := lines(ok(t, cmdArgs([]string{"scan"}, tbl(wh, "shop.items", extra...))...))
		sort.Strings(l)
		return l
	}
	sameLines(t, "scan", latest, scan())
	sameLines(t, "scan --snapshot 1", snap1, scan("--snapshot", "1"))
}

// TestWriteOpColumn: --op-column takes each row's kind from that input column (JSONL +I rows, then CSV
// rows spelled -D, -U/+U, insert, delete); deletes remove keys, a delete of an absent key is a no-op,
// and the op column is not stored. A bad kind is an input error naming the line and column.
func TestWriteOpColumn(t *testing.T) {
	wh, in := t.TempDir(), t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "s.kv", "--column", "k INT", "--column", "v STRING",
		"--primary-key", "k", "--option", "bucket=1"))...)
	writeFile(t, in, "a.jsonl", `{"op":"+I","k":1,"v":"a"}
{"op":"+I","k":2,"v":"b"}
{"op":"+I","k":3,"v":"c"}
`)
	writeFile(t, in, "b.csv", "k,op,v\n1,-D,a\n2,-U,b\n2,+U,b2\n4,insert,d\n9,delete,x\n")
	ok(t, cmdArgs([]string{"write"}, tbl(wh, "s.kv", "--from", filepath.Join(in, "a.jsonl"), "--op-column", "op"))...)
	ok(t, cmdArgs([]string{"write"}, tbl(wh, "s.kv", "--from", filepath.Join(in, "b.csv"), "--op-column", "op"))...)
	got := lines(ok(t, cmdArgs([]string{"scan"}, tbl(wh, "s.kv"))...))
	sort.Strings(got)
	sameLines(t, "scan after deletes", []string{`{"k":2,"v":"b2"}`, `{"k":3,"v":"c"}`, `{"k":4,"v":"d"}`}, got)

	bad := writeFile(t, in, "c.csv", "k,op,v\n5,+I,e\n6,upsert,f\n")
	fails(t, exitInput, []string{bad, "line 3", `column "op"`, `"upsert"`},
		cmdArgs([]string{"write"}, tbl(wh, "s.kv", "--from", bad, "--op-column", "op"))...)
	// Without --op-column the op column is an unknown input column.
	fails(t, exitInput, []string{`"op"`}, cmdArgs([]string{"write"}, tbl(wh, "s.kv", "--from", filepath.Join(in, "b.csv")))...)
}

// TestWriteSampleDataset loads testdata/sample as its README says (orders-1.parquet + orders-2.jsonl,
// then orders-changes.csv with --op-column op) and checks the result against the change file itself:
// 3037 rows, every deleted key absent, every updated or inserted key holding its last +U/+I values.
func TestWriteSampleDataset(t *testing.T) {
	wh := t.TempDir()
	sample, err := filepath.Abs("../../testdata/sample")
	if err != nil {
		t.Fatal(err)
	}
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "shop.orders",
		"--column", "id BIGINT NOT NULL", "--column", "customer STRING", "--column", "amount DECIMAL(12, 2)",
		"--column", "status STRING", "--column", "ts TIMESTAMP(3)", "--column", "dt STRING NOT NULL",
		"--primary-key", "dt,id", "--partition-key", "dt", "--option", "bucket=4"))...)
	out := ok(t, cmdArgs([]string{"write"}, tbl(wh, "shop.orders", "--from", filepath.Join(sample, "orders-[12].*")))...)
	if !strings.HasPrefix(out, "wrote 3000 rows from 2 input files") {
		t.Errorf("first write printed %q", out)
	}
	ok(t, cmdArgs([]string{"write"}, tbl(wh, "shop.orders", "--from", filepath.Join(sample, "orders-changes.csv"),
		"--format", "csv", "--op-column", "op"))...)

	got := map[string]string{} // "dt/id" -> "customer|amount|status|ts"
	for _, l := range lines(ok(t, cmdArgs([]string{"scan"}, tbl(wh, "shop.orders", "--output", "csv"))...))[1:] {
		r, err := csv.NewReader(strings.NewReader(l)).Read()
		if err != nil {
			t.Fatalf("scan csv line %q: %v", l, err)
		}
		got[r[5]+"/"+r[0]] = strings.Join(r[1:5], "|")
	}
	if len(got) != 3037 {
		t.Errorf("table holds %d keys, want 3037", len(got))
	}
	f, err := os.Open(filepath.Join(sample, "orders-changes.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{} // last change per key; "" = deleted
	for _, r := range recs[1:] {
		ts := strings.Replace(r[5], " ", "T", 1) + "000000" // canonical form: 9 fraction digits
		want[r[6]+"/"+r[1]] = map[bool]string{true: "", false: strings.Join([]string{r[2], r[3], r[4], ts}, "|")}[r[0] == "-D" || r[0] == "-U"]
	}
	for k, w := range want {
		if g, present := got[k]; w == "" && present {
			t.Errorf("deleted key %s is present: %s", k, g)
		} else if w != "" && g != w {
			t.Errorf("key %s = %q, want %q", k, g, w)
		}
	}
}

// TestWriteFailureCommitsNothing: a bad value in the second of two input files fails the write with exit
// 3 and a message naming the file, line, column and value; no snapshot is committed and the data files
// already written for the first file are deleted.
func TestWriteFailureCommitsNothing(t *testing.T) {
	wh, in := t.TempDir(), t.TempDir()
	createItems(t, wh)
	writeFile(t, in, "1.jsonl", `{"id":1,"price":"1.00"}`+"\n")
	bad := writeFile(t, in, "2.jsonl", `{"id":2,"price":"2.00"}`+"\n"+`{"id":3,"price":"3.001"}`+"\n")
	fails(t, exitInput, []string{bad, "line 2", `column "price"`, `bad value "3.001"`, "DECIMAL(10, 2)"},
		cmdArgs([]string{"write"}, tbl(wh, "shop.items", "--from", filepath.Join(in, "*.jsonl")))...)
	if out := ok(t, cmdArgs([]string{"snapshots"}, tbl(wh, "shop.items", "--output", "jsonl"))...); out != "" {
		t.Errorf("a snapshot was committed: %s", out)
	}
	if f := dataFiles(t, filepath.Join(wh, "shop.db", "items")); len(f) > 0 {
		t.Errorf("data files left behind: %v", f)
	}
}

// TestWriteLaterFileWins: one write of many files, read ahead several at a time, still writes them in
// file order: every file upserts id 1 and the last file's value is the one read back; a bad row in a
// middle file fails the write naming that file and commits nothing.
func TestWriteLaterFileWins(t *testing.T) {
	wh, in := t.TempDir(), t.TempDir()
	createItems(t, wh)
	const files = 12
	var want []string
	for f := range files {
		var b strings.Builder
		for r := range 50 {
			fmt.Fprintf(&b, "{\"id\":%d,\"name\":\"f%02d\"}\n", 100+f*50+r, f)
			want = append(want, fmt.Sprintf(`{"id":%d,"name":"f%02d","price":null,"seen":null,"active":null,"day":null,"raw":null}`, 100+f*50+r, f))
		}
		fmt.Fprintf(&b, "{\"id\":1,\"name\":\"f%02d\"}\n", f)
		writeFile(t, in, fmt.Sprintf("%02d.jsonl", f), b.String())
	}
	want = append(want, fmt.Sprintf(`{"id":1,"name":"f%02d","price":null,"seen":null,"active":null,"day":null,"raw":null}`, files-1))
	sort.Strings(want)
	ok(t, cmdArgs([]string{"write"}, tbl(wh, "shop.items", "--from", filepath.Join(in, "*.jsonl")))...)
	got := lines(ok(t, cmdArgs([]string{"scan"}, tbl(wh, "shop.items"))...))
	sort.Strings(got)
	sameLines(t, "scan", want, got)

	bad := writeFile(t, in, "05.jsonl", `{"id":7,"name":"x"}`+"\n"+`{"id":"seven"}`+"\n")
	fails(t, exitInput, []string{bad, "line 2", `column "id"`},
		cmdArgs([]string{"write"}, tbl(wh, "shop.items", "--from", filepath.Join(in, "*.jsonl")))...)
	if out := ok(t, cmdArgs([]string{"snapshots"}, tbl(wh, "shop.items", "--output", "jsonl"))...); strings.Count(out, "\n") != 1 {
		t.Errorf("snapshots after the failed write: %s", out)
	}
}
