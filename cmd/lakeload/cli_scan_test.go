package main

import (
	"encoding/csv"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// twoSnapshots makes table s.t (k INT key, s STRING, d DOUBLE) with snapshot 1 = keys 1..3 and
// snapshot 2 = key 2 updated with awkward text and key 4 added.
func twoSnapshots(t *testing.T) (wh string) {
	t.Helper()
	wh, in := t.TempDir(), t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "s.t", "--column", "k INT", "--column", "s STRING",
		"--column", "d DOUBLE", "--primary-key", "k", "--option", "bucket=1"))...)
	ok(t, cmdArgs([]string{"write"}, tbl(wh, "s.t", "--from", writeFile(t, in, "1.jsonl",
		`{"k":1,"s":"one","d":1}`+"\n"+`{"k":2,"s":"two","d":0.5}`+"\n"+`{"k":3,"d":-2.5e-7}`+"\n")))...)
	ok(t, cmdArgs([]string{"write"}, tbl(wh, "s.t", "--from", writeFile(t, in, "2.jsonl",
		`{"k":2,"s":"a, \"b\"\nc\td","d":null}`+"\n"+`{"k":4,"s":"","d":1e300}`+"\n")))...)
	return wh
}

// TestScanOutputs: --snapshot time-travels; jsonl prints canonical values with schema-ordered keys;
// csv prints a header and RFC 4180 rows whose fields decode back to the stored strings (null = empty);
// table prints aligned columns; --limit caps the rows; a missing snapshot or a bad --output is exit 2.
func TestScanOutputs(t *testing.T) {
	wh := twoSnapshots(t)
	scan := func(extra ...string) string { return ok(t, cmdArgs([]string{"scan"}, tbl(wh, "s.t", extra...))...) }
	sorted := func(s string) []string { l := lines(s); sort.Strings(l); return l }

	sameLines(t, "snapshot 1", []string{`{"k":1,"s":"one","d":1.0}`, `{"k":2,"s":"two","d":0.5}`, `{"k":3,"s":null,"d":-2.5e-07}`},
		sorted(scan("--snapshot", "1")))
	latest := []string{`{"k":1,"s":"one","d":1.0}`, `{"k":2,"s":"a, \"b\"\nc\td","d":null}`, `{"k":3,"s":null,"d":-2.5e-07}`, `{"k":4,"s":"","d":1e+300}`}
	sameLines(t, "latest", latest, sorted(scan("--output", "jsonl")))

	recs, err := csv.NewReader(strings.NewReader(scan("--output", "csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(recs[1:], func(i, j int) bool { return recs[1+i][0] < recs[1+j][0] })
	want := [][]string{{"k", "s", "d"}, {"1", "one", "1.0"}, {"2", "a, \"b\"\nc\td", ""}, {"3", "", "-2.5e-07"}, {"4", "", "1e+300"}}
	if !reflect.DeepEqual(recs, want) {
		t.Errorf("csv output %q, want %q", recs, want)
	}

	tab := lines(scan("--output", "table", "--snapshot", "1"))
	if len(tab) != 4 || strings.Fields(tab[0])[2] != "d" || strings.Index(tab[0], "s") != strings.Index(tab[1], "one") {
		t.Errorf("table output not a header plus 3 aligned rows:\n%s", strings.Join(tab, "\n"))
	}

	for _, n := range []string{"1", "3"} {
		if got := len(lines(scan("--limit", n))); got != map[string]int{"1": 1, "3": 3}[n] {
			t.Errorf("--limit %s printed %d rows", n, got)
		}
	}
	if got := len(lines(scan("--limit", "100"))); got != 4 {
		t.Errorf("--limit 100 printed %d rows, want all 4", got)
	}
	fails(t, exitUsage, []string{"--snapshot 3", "no such snapshot"}, cmdArgs([]string{"scan"}, tbl(wh, "s.t", "--snapshot", "3"))...)
	fails(t, exitUsage, []string{`--output "xml"`}, cmdArgs([]string{"scan"}, tbl(wh, "s.t", "--output", "xml"))...)
}

// TestSnapshotsOutputs: jsonl prints one object per snapshot with id, kind, commit identifier and the
// total/delta record counts; table prints a header and one row per snapshot.
func TestSnapshotsOutputs(t *testing.T) {
	wh := twoSnapshots(t)
	var got []map[string]any
	for _, l := range lines(ok(t, cmdArgs([]string{"snapshots"}, tbl(wh, "s.t", "--output", "jsonl"))...)) {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		got = append(got, m)
	}
	if len(got) != 2 {
		t.Fatalf("%d snapshots listed, want 2", len(got))
	}
	for i, want := range []map[string]any{
		{"id": 1.0, "schemaId": 0.0, "commitKind": "APPEND", "totalRecordCount": 3.0, "deltaRecordCount": 3.0, "commitIdentifier": 9.223372036854776e18},
		{"id": 2.0, "schemaId": 0.0, "commitKind": "APPEND", "totalRecordCount": 5.0, "deltaRecordCount": 2.0, "commitIdentifier": 9.223372036854776e18},
	} {
		for k, v := range want {
			if got[i][k] != v {
				t.Errorf("snapshot %d: %s = %v, want %v", i+1, k, got[i][k], v)
			}
		}
		if u, _ := got[i]["commitUser"].(string); u == "" {
			t.Errorf("snapshot %d has no commitUser", i+1)
		}
	}
	tab := lines(ok(t, cmdArgs([]string{"snapshots"}, tbl(wh, "s.t"))...))
	if len(tab) != 3 || !strings.HasPrefix(tab[0], "ID") || strings.Fields(tab[2])[0] != "2" || strings.Fields(tab[2])[2] != "APPEND" {
		t.Errorf("snapshots table output:\n%s", strings.Join(tab, "\n"))
	}
}
