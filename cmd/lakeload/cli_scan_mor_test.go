package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"testing"

	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/paimon/spec"
)

// TestScanArrowMergeOnRead: a deduplicate table loaded in many windows without compaction (every
// bucket holds several overlapping level-0 runs with updates and deletes) scans to the same rows,
// in the same order, through --output arrow (columnar merge, splits decoded in parallel) as through
// --output jsonl (the row path), and both equal the fixture's naive model.
func TestScanArrowMergeOnRead(t *testing.T) {
	wh, in := loadtest.TempDir(t), loadtest.TempDir(t)
	fx := loadtest.Dedup(5, 6, 80)
	glob := fx.WriteInputs(t, in)
	fx.Create(t, wh)
	name := loadtest.Database + "." + fx.Name
	ok(t, cmdArgs([]string{"load"}, tbl(wh, name, "--from", glob, "--job", "mor", "--commit-rows", "60",
		"--compaction", "off", "--op-column", fx.OpColumn))...)
	var types []spec.DataType
	for _, f := range fx.Schema(t).Fields {
		types = append(types, f.Type)
	}
	jsonl := lines(ok(t, cmdArgs([]string{"scan"}, tbl(wh, name, "--output", "jsonl"))...))
	_, arrowRows := readIPC(t, ok(t, cmdArgs([]string{"scan"}, tbl(wh, name, "--output", "arrow"))...), types)
	if len(jsonl) < 10 {
		t.Fatalf("jsonl scan printed %d rows", len(jsonl))
	}
	sameLines(t, "arrow vs jsonl, in order", jsonl, arrowRows)
	sorted := append([]string(nil), jsonl...)
	sort.Strings(sorted)
	sameLines(t, "jsonl vs model", fx.Expected(t), canonJSONL(t, sorted))
}

// TestScanArrowMergeOnReadPypaimonWritten: a primary-key table pypaimon wrote in several commits
// (overlapping level-0 runs, updates and -D rows through rowkind.field) scans to the same rows in
// the same order through --output arrow (columnar merge) as through --output jsonl (row path), and
// to what pypaimon itself reads.
func TestScanArrowMergeOnReadPypaimonWritten(t *testing.T) {
	py := oracle.Py(t)
	wh := t.TempDir()
	path := filepath.Join(wh, "db.db", "p")
	ts := &oracle.TableSpec{
		Columns: []oracle.Column{{Name: "k", Type: "INT NOT NULL"}, {Name: "s", Type: "STRING NOT NULL"},
			{Name: "v", Type: "BIGINT"}, {Name: "kind", Type: "STRING"}},
		PrimaryKeys: []string{"k", "s"}, Options: map[string]string{"bucket": "2", "rowkind.field": "kind"}}
	for c := 0; c < 4; c++ {
		var rows []string
		for k := c; k < 60; k += 1 + c {
			kind := "+I"
			if (k+c)%7 == 0 && c > 0 {
				kind = "-D"
			}
			rows = append(rows, fmt.Sprintf(`{"k":%d,"s":"%c","v":%d,"kind":"%s"}`, k, 'a'+rune(k%3), c*100+k, kind))
		}
		py.Write(path, oracle.WriteOpts{Spec: ts, Rows: rows})
	}
	types := []spec.DataType{{Root: spec.Int}, {Root: spec.VarChar, Length: 2147483647},
		{Root: spec.BigInt, Nullable: true}, {Root: spec.VarChar, Length: 2147483647, Nullable: true}}
	jsonl := lines(ok(t, cmdArgs([]string{"scan"}, tbl(wh, "db.p", "--output", "jsonl"))...))
	_, arrowRows := readIPC(t, ok(t, cmdArgs([]string{"scan"}, tbl(wh, "db.p", "--output", "arrow"))...), types)
	if len(jsonl) < 20 {
		t.Fatalf("jsonl scan printed %d rows", len(jsonl))
	}
	sameLines(t, "arrow vs jsonl, in order", jsonl, arrowRows)
	sameLines(t, "lakeload vs pypaimon", canonJSONL(t, py.Read(path, oracle.ReadOpts{})), canonJSONL(t, jsonl))
}
