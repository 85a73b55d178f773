package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

// whereTable is an append table partitioned by dt with 4 buckets on id: 120 rows over two days.
func whereTable(t *testing.T) string {
	t.Helper()
	wh, in := t.TempDir(), t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "s.e", "--column", "dt STRING", "--column", "id BIGINT",
		"--column", "name STRING", "--column", "amount DECIMAL(10, 2)", "--partition-key", "dt",
		"--option", "bucket=4", "--option", "bucket-key=id"))...)
	for c := 0; c < 2; c++ {
		var b strings.Builder
		for i := 0; i < 60; i++ {
			id := c*100 + i
			name := fmt.Sprintf("%q", fmt.Sprintf("n%d", id))
			if id%9 == 0 {
				name = "null"
			}
			fmt.Fprintf(&b, `{"dt":"2024-03-0%d","id":%d,"name":%s,"amount":"%d.50"}`+"\n", 1+i%2, id, name, id)
		}
		ok(t, cmdArgs([]string{"write"}, tbl(wh, "s.e", "--from", writeFile(t, in, fmt.Sprint(c, ".jsonl"), b.String())))...)
	}
	return wh
}

// TestScanWhereAndColumns: scan --where prints exactly the rows of a full scan that the test's own
// condition accepts, --columns prints only the listed columns in their order, --limit caps the rows,
// and arrow/parquet outputs hold the same rows as jsonl.
func TestScanWhereAndColumns(t *testing.T) {
	wh := whereTable(t)
	scan := func(extra ...string) []string {
		l := lines(ok(t, cmdArgs([]string{"scan"}, tbl(wh, "s.e", extra...))...))
		sort.Strings(l)
		return l
	}
	type row struct {
		Dt     string  `json:"dt"`
		ID     int64   `json:"id"`
		Name   *string `json:"name"`
		Amount string  `json:"amount"`
	}
	var all []row
	for _, l := range scan() {
		var r row
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		all = append(all, r)
	}
	if len(all) != 120 {
		t.Fatalf("full scan: %d rows, want 120", len(all))
	}
	cases := []struct {
		where string
		keep  func(r row) bool
	}{
		{"dt = '2024-03-01' AND id > 5", func(r row) bool { return r.Dt == "2024-03-01" && r.ID > 5 }},
		{"id IN (3, 104) OR name IS NULL", func(r row) bool { return r.ID == 3 || r.ID == 104 || r.Name == nil }},
		{"NOT (amount < 50 OR dt != '2024-03-02')", func(r row) bool { return r.ID >= 50 && r.Dt == "2024-03-02" }},
		{"name = 'n7'", func(r row) bool { return r.Name != nil && *r.Name == "n7" }},
	}
	for _, tc := range cases {
		var want []string
		for _, r := range all {
			if tc.keep(r) {
				name := "null"
				if r.Name != nil {
					name = fmt.Sprintf("%q", *r.Name)
				}
				want = append(want, fmt.Sprintf(`{"name":%s,"id":%d}`, name, r.ID))
			}
		}
		sort.Strings(want)
		got := scan("--where", tc.where, "--columns", "name, id")
		sameLines(t, tc.where, want, got)
		types := []spec.DataType{{Root: spec.VarChar, Length: spec.MaxLength, Nullable: true}, {Root: spec.BigInt, Nullable: true}}
		for _, format := range []string{"arrow", "parquet"} {
			out := ok(t, cmdArgs([]string{"scan"}, tbl(wh, "s.e", "--where", tc.where, "--columns", "name,id", "--output", format))...)
			var col []string
			if format == "arrow" {
				_, col = readIPC(t, out, types)
			} else {
				col = readParquetOut(t, out, types)
			}
			sort.Strings(col)
			sameLines(t, format+" "+tc.where, want, col)
		}
	}
	if got := scan("--where", "dt = '2024-03-01'", "--limit", "7"); len(got) != 7 {
		t.Errorf("--where with --limit 7 printed %d rows", len(got))
	}
	out := ok(t, cmdArgs([]string{"scan"}, tbl(wh, "s.e", "--where", "id >= 100", "--columns", "id", "--output", "csv"))...)
	if l := lines(out); l[0] != "id" || len(l) != 61 {
		t.Errorf("csv with --columns id: header %q and %d lines, want id and 61", l[0], len(l))
	}
}

// TestScanWherePrimaryKeyMerged: in a primary-key table the filter sees merged rows: key 2's old
// value matches at snapshot 1 only, never at the latest snapshot where key 2 was updated.
func TestScanWherePrimaryKeyMerged(t *testing.T) {
	wh := twoSnapshots(t)
	scan := func(extra ...string) []string {
		return lines(ok(t, cmdArgs([]string{"scan"}, tbl(wh, "s.t", extra...))...))
	}
	if got := scan("--where", "s = 'two'"); len(got) != 0 {
		t.Errorf("latest snapshot: s = 'two' printed %v, want nothing (key 2 was updated)", got)
	}
	sameLines(t, "snapshot 1", []string{`{"k":2}`}, scan("--where", "s = 'two'", "--columns", "k", "--snapshot", "1"))
	sameLines(t, "is null", []string{`{"k":2,"d":null}`}, scan("--where", "d IS NULL AND k <= 3", "--columns", "k,d"))
	types := []spec.DataType{{Root: spec.Int}, {Root: spec.VarChar, Length: spec.MaxLength, Nullable: true}}
	for _, snap := range []string{"1", "2"} {
		_, got := readIPC(t, ok(t, cmdArgs([]string{"scan"}, tbl(wh, "s.t", "--where", "s = 'two'", "--columns", "k,s", "--output", "arrow", "--snapshot", snap))...), types)
		if want := map[string]int{"1": 1, "2": 0}[snap]; len(got) != want {
			t.Errorf("arrow output at snapshot %s: %v, want %d rows", snap, got, want)
		}
	}
}

// TestScanWhereErrors: a bad --where or --columns is a usage error (exit 2) naming the flag, the
// position and what was expected.
func TestScanWhereErrors(t *testing.T) {
	wh := whereTable(t)
	scan := func(extra ...string) []string { return cmdArgs([]string{"scan"}, tbl(wh, "s.e", extra...)) }
	fails(t, exitUsage, []string{`--where "idd = 5": at position 1`, `no column "idd"`, "columns: dt, id, name, amount"}, scan("--where", "idd = 5")...)
	fails(t, exitUsage, []string{`--where "id = 'x'": at position 6`, "column id is BIGINT: expected an integer"}, scan("--where", "id = 'x'")...)
	fails(t, exitUsage, []string{"at position 16 (end of text)", "expected a value for column dt"}, scan("--where", "id = 5 AND dt =")...)
	fails(t, exitUsage, []string{`--columns: table has no column "amout"; did you mean "amount"?`}, scan("--columns", "id,amout")...)
	fails(t, exitUsage, []string{`--columns: column "id" is listed twice`}, scan("--columns", "id,id")...)
}
