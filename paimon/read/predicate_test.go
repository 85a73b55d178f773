package read

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// countingFS counts the data files opened (paths under a bucket directory).
type countingFS struct {
	fileio.FileIO
	opened int
}

func (c *countingFS) Open(ctx context.Context, path string) (fileio.File, error) {
	if strings.Contains(path, "/bucket-") {
		c.opened++
	}
	return c.FileIO.Open(ctx, path)
}

var filterCols = [][2]string{
	{"dt", "STRING"}, {"id", "BIGINT"}, {"name", "STRING"}, {"amount", "DECIMAL(10, 2)"},
	{"flag", "BOOLEAN"}, {"day", "DATE"}, {"ts", "TIMESTAMP(3)"},
}

func filterRow(dt string, id int64) []any {
	var name any = fmt.Sprintf("n%03d", id)
	if id%7 == 0 {
		name = nil
	}
	var day any = int32(19700 + id%30)
	if id%11 == 0 {
		day = nil
	}
	return []any{dt, id, name, spec.DecimalValue{Unscaled: big.NewInt(id * 25)}, id%2 == 0, day,
		spec.TimestampValue{Millis: 1709251200000 + id*1000}}
}

// filterTable is an append table partitioned by dt with 4 buckets on id, written in three commits of
// disjoint id ranges, so partitions, buckets and file statistics can each rule files out.
func filterTable(t *testing.T) (*table.Table, *countingFS) {
	tbl := rtTable(t, filterCols, []string{"dt"}, nil, map[string]string{"bucket": "4", "bucket-key": "id"})
	for c := int64(0); c < 3; c++ {
		var ch []rtChange
		for i := int64(0); i < 60; i++ {
			dt := []string{"2024-03-01", "2024-03-02"}[i%2]
			ch = append(ch, rtIns(filterRow(dt, c*100+i)...))
		}
		rtCommit(t, tbl, ch...)
	}
	cfs := &countingFS{FileIO: tbl.FS}
	tbl.FS = cfs
	return tbl, cfs
}

func rowKey(row []any) string { return fmt.Sprint(row) }

func sortedKeys(rows [][]any) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = rowKey(r)
	}
	sort.Strings(out)
	return out
}

// TestScanFilterSkipsFilesAndMatchesFilteredScan: a filtered scan opens fewer data files (partition,
// bucket and statistics pruning each shown) and returns exactly the rows of an unfiltered scan that
// the test's own Go condition accepts.
func TestScanFilterSkipsFilesAndMatchesFilteredScan(t *testing.T) {
	tbl, cfs := filterTable(t)
	ctx := context.Background()
	_, all, err := Rows(ctx, tbl, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	allFiles := cfs.opened
	if len(all) != 180 || allFiles < 12 {
		t.Fatalf("unfiltered scan: %d rows from %d files, want 180 rows from ≥ 12 files", len(all), allFiles)
	}
	cases := []struct {
		where                       string
		want                        func(r []any) bool
		partitions, buckets, skipAt int // minimum pruned partitions, buckets; maximum files opened (0: no bound)
	}{
		{"dt = '2024-03-01'", func(r []any) bool { return r[0] == "2024-03-01" }, 1, 0, allFiles / 2},
		{"id = 7", func(r []any) bool { return r[1] == int64(7) }, 0, 1, 2},
		{"id IN (7, 107)", func(r []any) bool { return r[1] == int64(7) || r[1] == int64(107) }, 0, 1, 0},
		{"id >= 200", func(r []any) bool { return r[1].(int64) >= 200 }, 0, 0, allFiles / 2},
		{"NOT id < 200", func(r []any) bool { return r[1].(int64) >= 200 }, 0, 0, allFiles / 2},
		{"dt = '2024-03-02' AND id > 5 AND id <= 20", func(r []any) bool {
			id := r[1].(int64)
			return r[0] == "2024-03-02" && id > 5 && id <= 20
		}, 1, 0, allFiles / 4},
		{"name IS NULL", func(r []any) bool { return r[2] == nil }, 0, 0, 0},
		{"name IS NOT NULL AND NOT (flag = true OR day IS NULL)", func(r []any) bool {
			return r[2] != nil && r[4] == false && r[5] != nil
		}, 0, 0, 0},
		{"name != 'n005'", func(r []any) bool { return r[2] != nil && r[2] != "n005" }, 0, 0, 0},
		{"NOT name = 'n005'", func(r []any) bool { return r[2] != nil && r[2] != "n005" }, 0, 0, 0},
		{"name NOT IN ('n001', 'n002')", func(r []any) bool { return r[2] != nil && r[2] != "n001" && r[2] != "n002" }, 0, 0, 0},
		{"amount > 2500.00 OR day = '2024-01-10'", func(r []any) bool {
			return r[3].(spec.DecimalValue).Unscaled.Cmp(big.NewInt(250000)) > 0 || r[5] == int32(19732)
		}, 0, 0, 0},
		{"ts >= '2024-03-01 00:03:20' AND ts < '2024-03-01T00:03:30.5'", func(r []any) bool {
			m := r[6].(spec.TimestampValue).Millis
			return m >= 1709251200000+200000 && m < 1709251200000+210500
		}, 0, 0, allFiles / 2},
		{"dt = '2024-03-09'", func(r []any) bool { return false }, 2, 0, -1},
	}
	for _, tc := range cases {
		t.Run(tc.where, func(t *testing.T) {
			p, err := ParsePredicate(tc.where, tbl.Schema.Fields)
			if err != nil {
				t.Fatal(err)
			}
			cfs.opened = 0
			_, got, err := Rows(ctx, tbl, ScanOptions{Filter: p})
			if err != nil {
				t.Fatal(err)
			}
			var want [][]any
			for _, r := range all {
				if tc.want(r) {
					want = append(want, r)
				}
			}
			if g, w := strings.Join(sortedKeys(got), "\n"), strings.Join(sortedKeys(want), "\n"); g != w {
				t.Fatalf("filtered scan differs from the filtered full scan (%d vs %d rows):\n got %s\nwant %s", len(got), len(want), g, w)
			}
			plan, err := Scan(ctx, tbl, ScanOptions{Filter: p})
			if err != nil {
				t.Fatal(err)
			}
			if plan.Pruned.Partitions < tc.partitions || plan.Pruned.Buckets < tc.buckets {
				t.Errorf("pruned %+v, want ≥ %d partitions and ≥ %d buckets", plan.Pruned, tc.partitions, tc.buckets)
			}
			switch {
			case tc.skipAt < 0 && cfs.opened != 0:
				t.Errorf("opened %d data files, want none", cfs.opened)
			case tc.skipAt > 0 && cfs.opened > tc.skipAt:
				t.Errorf("opened %d of %d data files, want at most %d", cfs.opened, allFiles, tc.skipAt)
			}
		})
	}
}

// TestScanFilterPrimaryKeyFiltersAfterMerge: a filter on a value column of a primary-key table sees
// merged rows. The older version of an updated key matches the filter, the newer does not: the key
// must not appear with its old value (filtering before the merge would drop the newer version and
// let the older one win).
func TestScanFilterPrimaryKeyFiltersAfterMerge(t *testing.T) {
	cols := [][2]string{{"dt", "STRING NOT NULL"}, {"id", "BIGINT NOT NULL"}, {"amount", "INT"}, {"note", "STRING"}}
	tbl := rtTable(t, cols, []string{"dt"}, []string{"dt", "id"}, map[string]string{"bucket": "2"})
	var ch []rtChange
	for id := int64(1); id <= 50; id++ {
		ch = append(ch, rtIns("d1", id, int32(10), "first"))
	}
	rtCommit(t, tbl, ch...)
	ch = nil
	for id := int64(1); id <= 10; id++ {
		ch = append(ch, rtIns("d1", id, int32(100), "second"))
	}
	rtCommit(t, tbl, ch...)
	ch = nil
	for id := int64(1000); id <= 1010; id++ {
		ch = append(ch, rtIns("d1", id, int32(10), "third"))
	}
	rtCommit(t, tbl, ch...)
	ctx := context.Background()
	ids := func(where string, selectCols []int) []string {
		t.Helper()
		p, err := ParsePredicate(where, tbl.Schema.Fields)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := Scan(ctx, tbl, ScanOptions{Filter: p})
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewReader(tbl, plan.Schema)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Where(p); err != nil {
			t.Fatal(err)
		}
		if err := r.Select(selectCols); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range plan.Splits {
			err := r.ReadSplit(ctx, s, func(row []any) error {
				out = append(out, fmt.Sprint(row[1], ":", row[2]))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		sort.Strings(out)
		return out
	}
	for _, sel := range [][]int{nil, {1}, {1, 2}, {2}} {
		got := ids("amount = 10 AND id < 100", sel)
		if len(got) != 40 {
			t.Errorf("select %v: amount = 10 AND id < 100 gave %d rows, want 40 (ids 11..50): %v", sel, len(got), got)
		}
		for _, g := range got {
			var id, amount int
			fmt.Sscanf(g, "%d:%d", &id, &amount)
			if id <= 10 || amount != 10 {
				t.Errorf("select %v: row %s: an updated key came back with its old value", sel, g)
			}
		}
		if got := ids("amount = 100", sel); len(got) != 10 {
			t.Errorf("select %v: amount = 100 gave %d rows, want 10: %v", sel, len(got), got)
		}
	}
	p, _ := ParsePredicate("id >= 1000", tbl.Schema.Fields)
	plan, err := Scan(ctx, tbl, ScanOptions{Filter: p})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Pruned.Files == 0 {
		t.Errorf("id >= 1000 skipped no file by key statistics: %+v", plan.Pruned)
	}
	if got := ids("id >= 1000", nil); len(got) != 11 {
		t.Errorf("id >= 1000 gave %d rows, want 11", len(got))
	}
	// A value-column filter never skips files by value statistics in a primary-key table.
	p, _ = ParsePredicate("amount = 100", tbl.Schema.Fields)
	if plan, err = Scan(ctx, tbl, ScanOptions{Filter: p}); err != nil || plan.Pruned.Files != 0 {
		t.Errorf("amount = 100 pruned %+v (err %v), want nothing", plan.Pruned, err)
	}
}

// TestSelectReadsOnlySelectedColumns: unselected columns come back null (they were not decoded);
// selected and filter columns keep their values.
func TestSelectReadsOnlySelectedColumns(t *testing.T) {
	tbl, _ := filterTable(t)
	ctx := context.Background()
	p, err := ParsePredicate("flag = true", tbl.Schema.Fields)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := Scan(ctx, tbl, ScanOptions{Filter: p})
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(tbl, plan.Schema)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Where(p); err != nil {
		t.Fatal(err)
	}
	if err := r.Select([]int{1}); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range plan.Splits {
		err := r.ReadSplit(ctx, s, func(row []any) error {
			n++
			if row[1] == nil || row[4] != true {
				t.Errorf("row %v: selected id or filter column flag missing", row)
			}
			for _, c := range []int{0, 2, 3, 5, 6} {
				if row[c] != nil {
					t.Fatalf("row %v: column %d was decoded although not selected", row, c)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n != 90 {
		t.Errorf("flag = true gave %d rows, want 90", n)
	}
}

// TestParsePredicateErrors: errors name the position, the column and what was expected.
func TestParsePredicateErrors(t *testing.T) {
	fields := []spec.DataField{
		{ID: 0, Name: "dt", Type: spec.DataType{Root: spec.VarChar, Length: spec.MaxLength, Nullable: true}},
		{ID: 1, Name: "id", Type: spec.DataType{Root: spec.BigInt, Nullable: true}},
		{ID: 2, Name: "d", Type: spec.DataType{Root: spec.Date, Nullable: true}},
		{ID: 3, Name: "amt", Type: spec.DataType{Root: spec.Decimal, Precision: 10, Scale: 2, Nullable: true}},
		{ID: 4, Name: "tags", Type: spec.DataType{Root: spec.Array, Elem: &spec.DataType{Root: spec.Int}}},
		{ID: 5, Name: "small", Type: spec.DataType{Root: spec.TinyInt, Nullable: true}},
	}
	cases := []struct{ text, want string }{
		{"idd = 5", `position 1 (near "idd = 5"): no column "idd"`},
		{"ID = 5", `did you mean "id"`},
		{"id = 'x'", `position 6 (near "'x'"): column id is BIGINT: expected an integer`},
		{"id = 1.5", `expected an integer`},
		{"id >", `position 5 (end of text): expected a value for column id`},
		{"id = 5 AND", `position 11 (end of text): expected a column name`},
		{"id = 5 dt = 'x'", `position 8 (near "dt = 'x'"): expected AND, OR or the end`},
		{"(id = 5", `expected ) to close the ( at position 1`},
		{"dt = 'x", `position 6 (near "'x"): string literal is not closed`},
		{"d = '2024-13-01'", `column d is DATE: expected a date 'YYYY-MM-DD'`},
		{"d = 20240301", `expected a date as a string`},
		{"amt = 1.234", `1.234 has 3 digits after the point, the column has 2`},
		{"tags = 1", `column tags is ARRAY<INT NOT NULL> NOT NULL, which cannot be filtered`},
		{"id = NULL", `use id IS NULL`},
		{"id IS 5", `expected NULL after IS`},
		{"id IN 5", `expected ( to start the IN list`},
		{"id IN (1 2)", `expected , or ) in the IN list`},
		{"id ~ 5", `position 4 (near "~ 5"): unexpected character '~'`},
		{"id ! 5", `expected != `},
		{"id LIKE 'a%'", `expected a comparison after column id`},
		{"small = 300", `expected an integer from -128 to 127`},
		{"and = 1", `found keyword AND`},
		{"", `position 1 (end of text): expected a column name`},
	}
	for _, tc := range cases {
		_, err := ParsePredicate(tc.text, fields)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want it to contain %q", tc.text, err, tc.want)
		}
	}
	deep := strings.Repeat("(", 500) + "id = 1" + strings.Repeat(")", 500)
	if _, err := ParsePredicate(deep, fields); err == nil || !strings.Contains(err.Error(), "deeper than") {
		t.Errorf("deep nesting: %v", err)
	}
}

// TestPredicateEvalThreeValued: comparisons with NULL are unknown, and NOT of unknown stays unknown
// (the row is not kept), as in SQL.
func TestPredicateEvalThreeValued(t *testing.T) {
	fields := []spec.DataField{
		{ID: 0, Name: "a", Type: spec.DataType{Root: spec.Int, Nullable: true}},
		{ID: 1, Name: "s", Type: spec.DataType{Root: spec.VarChar, Length: spec.MaxLength, Nullable: true}},
	}
	rows := [][]any{{int32(1), "x"}, {nil, "x"}, {int32(5), nil}, {nil, nil}, {int32(-3), "it's"}}
	cases := []struct {
		text string
		want []int // indexes of rows kept
	}{
		{"a = 1", []int{0}},
		{"NOT a = 1", []int{2, 4}},
		{"a != 1", []int{2, 4}},
		{"NOT (a = 1 OR s = 'x')", []int{4}},
		{"a IS NULL OR s IS NULL", []int{1, 2, 3}},
		{"NOT (a IS NOT NULL AND s IS NOT NULL)", []int{1, 2, 3}},
		{"a NOT IN (1, 5)", []int{4}},
		{"NOT a IN (1, 5)", []int{4}},
		{"s = 'it''s' or a > 4", []int{2, 4}},
		{"a >= -3 AND a < 5", []int{0, 4}},
		{"a <> 5 AND NOT NOT a <= 1", []int{0, 4}},
		{"`a` = 1 OR \"s\" = 'x'", []int{0, 1}},
	}
	for _, tc := range cases {
		p, err := ParsePredicate(tc.text, fields)
		if err != nil {
			t.Fatalf("%q: %v", tc.text, err)
		}
		var got []int
		for i, r := range rows {
			if p.Eval(r) {
				got = append(got, i)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%q kept rows %v, want %v", tc.text, got, tc.want)
		}
	}
}

// FuzzParsePredicate: the parser never panics, and whatever it accepts evaluates and prunes
// without panicking; an error is a *ColumnError whose position lies within the text.
func FuzzParsePredicate(f *testing.F) {
	for _, s := range []string{"dt = '2024-03-01' AND id > 5", "NOT (a IN (1,2) OR s IS NOT NULL)", "id<>3",
		"ts >= '2024-03-01 10:00:00.123'", "d = '2024-03-01' or amt <= -1.5", "`s` = 'it''s'", "((("} {
		f.Add(s)
	}
	fields := []spec.DataField{
		{ID: 0, Name: "a", Type: spec.DataType{Root: spec.Int, Nullable: true}},
		{ID: 1, Name: "s", Type: spec.DataType{Root: spec.VarChar, Length: spec.MaxLength, Nullable: true}},
		{ID: 2, Name: "id", Type: spec.DataType{Root: spec.BigInt}},
		{ID: 3, Name: "d", Type: spec.DataType{Root: spec.Date, Nullable: true}},
		{ID: 4, Name: "amt", Type: spec.DataType{Root: spec.Decimal, Precision: 10, Scale: 2, Nullable: true}},
		{ID: 5, Name: "ts", Type: spec.DataType{Root: spec.Timestamp, Precision: 3, Nullable: true}},
		{ID: 6, Name: "f", Type: spec.DataType{Root: spec.Double, Nullable: true}},
		{ID: 7, Name: "b", Type: spec.DataType{Root: spec.Boolean, Nullable: true}},
	}
	rows := [][]any{make([]any, 8), {int32(1), "x", int64(2), int32(19000), dec(150), spec.TimestampValue{Millis: 5}, 1.5, true}}
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParsePredicate(text, fields)
		if err != nil {
			ce, ok := err.(*ColumnError)
			if !ok || ce.Pos < 0 || ce.Pos > len(text) {
				t.Fatalf("%q: error %v is not a ColumnError within the text", text, err)
			}
			_ = err.Error()
			return
		}
		for _, r := range rows {
			kept := p.Eval(r)
			// Bounds that describe exactly this row must never rule it out.
			may := p.MayMatch(func(col int) Bounds { return ExactBounds(r[col]) })
			if kept && !may {
				t.Fatalf("%q keeps row %v but MayMatch on its exact bounds says no", text, r)
			}
		}
		_ = p.Columns()
	})
}

// TestMayMatchSoundOnRandomRowSets: for random sets of rows and random predicates, MayMatch over the
// sets' bounds (min, max, null count, row count per column) is true whenever some row of the set
// satisfies the predicate — pruning never loses a row — and it does rule sets out (it is not
// vacuous). Small value domains make every boundary (min = literal, max = literal, all null) common.
func TestMayMatchSoundOnRandomRowSets(t *testing.T) {
	fields := []spec.DataField{
		{ID: 0, Name: "a", Type: spec.DataType{Root: spec.Int, Nullable: true}},
		{ID: 1, Name: "s", Type: spec.DataType{Root: spec.VarChar, Length: spec.MaxLength, Nullable: true}},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	lit := func(col int) string {
		if col == 0 {
			return fmt.Sprint(rng.IntN(6))
		}
		return "'" + string(rune('a'+rng.IntN(4))) + "'"
	}
	var gen func(depth int) string
	gen = func(depth int) string {
		if depth > 0 && rng.IntN(3) == 0 {
			op := []string{"AND", "OR"}[rng.IntN(2)]
			s := "(" + gen(depth-1) + " " + op + " " + gen(depth-1) + ")"
			if rng.IntN(4) == 0 {
				s = "NOT " + s
			}
			return s
		}
		col := rng.IntN(2)
		name := fields[col].Name
		switch rng.IntN(5) {
		case 0:
			return name + []string{" IS NULL", " IS NOT NULL"}[rng.IntN(2)]
		case 1:
			return name + []string{" IN (", " NOT IN ("}[rng.IntN(2)] + lit(col) + ", " + lit(col) + ")"
		}
		return name + " " + []string{"=", "!=", "<", "<=", ">", ">="}[rng.IntN(6)] + " " + lit(col)
	}
	ruledOut := 0
	for i := 0; i < 4000; i++ {
		text := gen(3)
		p, err := ParsePredicate(text, fields)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		n := 1 + rng.IntN(4)
		rows := make([][]any, n)
		for r := range rows {
			rows[r] = []any{nil, nil}
			if rng.IntN(4) != 0 {
				rows[r][0] = int32(rng.IntN(6))
			}
			if rng.IntN(4) != 0 {
				rows[r][1] = string(rune('a' + rng.IntN(4)))
			}
		}
		bounds := make([]Bounds, 2)
		for c := range bounds {
			b := Bounds{Known: true, Rows: int64(n)}
			for _, r := range rows {
				v := r[c]
				if v == nil {
					b.Nulls++
					continue
				}
				if b.Min == nil || binrow.Compare(fields[c].Type, v, b.Min) < 0 {
					b.Min = v
				}
				if b.Max == nil || binrow.Compare(fields[c].Type, v, b.Max) > 0 {
					b.Max = v
				}
			}
			bounds[c] = b
		}
		any := false
		for _, r := range rows {
			any = any || p.Eval(r)
		}
		may := p.MayMatch(func(c int) Bounds { return bounds[c] })
		if any && !may {
			t.Fatalf("%q: rows %v match, but MayMatch on their bounds %+v says none can", text, rows, bounds)
		}
		if !may {
			ruledOut++
		}
	}
	if ruledOut < 200 {
		t.Errorf("MayMatch ruled out only %d of 4000 row sets: pruning is (nearly) vacuous", ruledOut)
	}
}

// recordsLines reads tbl with RecordsWith and o, returning each row as text plus how many files the
// columnar path read.
func recordsLines(t *testing.T, tbl *table.Table, o RecordsOptions) ([]string, int) {
	t.Helper()
	ctx := context.Background()
	plan, err := Scan(ctx, tbl, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fast := 0
	onColumnarFile = func(manifest.DataFileMeta) { fast++ }
	defer func() { onColumnarFile = nil }()
	var out []string
	err = RecordsWith(ctx, tbl, plan, o, func(rec arrow.RecordBatch) error {
		for r := 0; r < int(rec.NumRows()); r++ {
			var b strings.Builder
			for c := 0; c < int(rec.NumCols()); c++ {
				if rec.Column(c).IsNull(r) {
					b.WriteString("null|")
				} else {
					b.WriteString(rec.Column(c).ValueStr(r) + "|")
				}
			}
			out = append(out, b.String())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out, fast
}

// TestRecordsColumnsDecodesOnlySelected: RecordsOptions.Columns decodes only the selected columns on
// the columnar path (the others are null), with the selected values equal to a full read.
func TestRecordsColumnsDecodesOnlySelected(t *testing.T) {
	tbl, _ := filterTable(t)
	full, _ := recordsLines(t, tbl, RecordsOptions{})
	got, fast := recordsLines(t, tbl, RecordsOptions{Columns: []int{1, 4}})
	if fast == 0 {
		t.Fatal("no file took the columnar path")
	}
	project := func(lines []string, keep map[int]bool) []string {
		out := make([]string, len(lines))
		for i, l := range lines {
			cells := strings.Split(strings.TrimSuffix(l, "|"), "|")
			for c := range cells {
				if !keep[c] {
					cells[c] = "null"
				}
			}
			out[i] = strings.Join(cells, "|") + "|"
		}
		sort.Strings(out)
		return out
	}
	if g, w := strings.Join(got, "\n"), strings.Join(project(full, map[int]bool{1: true, 4: true}), "\n"); g != w {
		t.Fatalf("Columns {id, flag}:\n got %s\nwant %s", g, w)
	}
}
