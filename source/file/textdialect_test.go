package file

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/source"
)

// dialectFile writes rows id<d>body<d>n in dialect d: every body holds the delimiter, a doubled
// quote and (every third row) a line end inside quotes, so a cut or a split that ignored the
// dialect would be wrong.
func dialectFile(t *testing.T, d source.CSVDialect, rows int) (string, []string) {
	t.Helper()
	q, dl := string(d.QuoteChar()), string(d.Delim())
	var b strings.Builder
	if !d.NoHeader {
		b.WriteString("id" + dl + "body" + dl + "n\n")
	}
	var want []string
	for i := range rows {
		body := fmt.Sprintf("a%sb %s%s c", dl, q, q) // a<d>b "" c: the delimiter and a doubled quote
		val := fmt.Sprintf("a%sb %s c", dl, q)
		if i%3 == 0 {
			body += "\nnext line"
			val += "\nnext line"
		}
		fmt.Fprintf(&b, "%d%s%s%s%s%s%d\n", i, dl, q+body+q, dl, "", "", i*7)
		want = append(want, fmt.Sprintf("%d: %q %q %q", i, fmt.Sprint(i), val, fmt.Sprint(i*7)))
	}
	return writeFile(t, t.TempDir(), "in.csv", b.String()), want
}

// TestCSVDialectCutAndRead (issue 15, finding 4): a CSV file in another dialect (';' or a tab
// between fields, ' as the quote, no header) with quoted newlines and delimiters is cut by
// CutTextWith at record ends of that dialect into several splits, and reading the splits in order
// loads every row exactly once with the values and row numbers of the whole file.
func TestCSVDialectCutAndRead(t *testing.T) {
	tbl := table(t, "id STRING", "body STRING", "n STRING")
	for _, d := range []source.CSVDialect{
		{Delimiter: ';'},
		{Delimiter: '\t', Quote: '\''},
		{Delimiter: '|', NoHeader: true},
		{Delimiter: ';', Quote: '\'', NoHeader: true},
	} {
		t.Run(fmt.Sprintf("%q-%q-header=%v", d.Delim(), d.QuoteChar(), !d.NoHeader), func(t *testing.T) {
			path, want := dialectFile(t, d, 300)
			ss, err := Plan(context.Background(), osFS{}, path, "")
			if err != nil {
				t.Fatal(err)
			}
			opts := source.MappingOptions{CSV: d}
			whole := readSplits(t, ss, tbl, opts)
			if whole.err != "" || strings.Join(whole.rows, "\n") != strings.Join(want, "\n") {
				t.Fatalf("whole file: err %q, rows %d (first %q), want %d (first %q)", whole.err, len(whole.rows), first(whole.rows), len(want), want[0])
			}
			for _, chunk := range []int{1, 3, 1 << 20} {
				cutChunkBytes = chunk
				cuts, err := CutTextWith(context.Background(), osFS{}, ss[0], 40, d)
				cutChunkBytes = 1 << 20
				if err != nil || len(cuts) < 5 {
					t.Fatalf("chunk %d: %d cuts, %v; want ≥ 5", chunk, len(cuts), err)
				}
				var rows int64
				for _, c := range cuts {
					rows += c.RowCount
				}
				if rows != 300 {
					t.Fatalf("chunk %d: cuts count %d rows, want 300: %+v", chunk, rows, cuts)
				}
				got := readSplits(t, cuts, tbl, opts)
				if d := diffOut(whole, got); d != "" {
					t.Fatalf("chunk %d: %d splits read differently than the whole file: %s", chunk, len(cuts), d)
				}
			}
			if d.QuoteChar() != '"' || d.NoHeader {
				// Cut as RFC 4180 with a header, the same file is cut at the wrong places (or, when
				// the first quote is one RFC 4180 refuses, not at all).
				bad, err := CutText(context.Background(), osFS{}, ss[0], 40)
				if err == nil && len(bad) > 1 {
					if got := readSplits(t, bad, tbl, opts); diffOut(whole, got) == "" {
						t.Errorf("cutting in the default dialect gave the same rows: the dialect test proves nothing")
					}
				}
			}
		})
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// TestCSVWithoutHeader: without a header, field i is the table's i-th column (then the op column),
// the first line is row 1, and a record of another width names the table's columns.
func TestCSVWithoutHeader(t *testing.T) {
	dir := t.TempDir()
	tbl := table(t, "id INT", "name STRING")
	opts := source.MappingOptions{CSV: source.CSVDialect{NoHeader: true}, OpColumn: "op"}
	p := writeFile(t, dir, "in.csv", "\xEF\xBB\xBF1,a,+I\n2,b,-D\n3,c\n")
	ss, err := Plan(context.Background(), osFS{}, filepath.Join(dir, "*.csv"), "")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Open(context.Background(), osFS{}, ss[0], tbl, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := r.Next(context.Background())
	wantErr(t, err, p, "row 3 (line 3)", "one field per table column", "--csv-header=false", "[id name op]")
	_ = b
	// An empty file without a header is no rows, not an error; ReadColumns refuses it (no names).
	e := writeFile(t, dir, "empty.csv", "")
	ss, _ = Plan(context.Background(), osFS{}, e, "")
	if out := readSplits(t, ss, table(t, "id STRING"), source.MappingOptions{CSV: source.CSVDialect{NoHeader: true}}); out.err != "" || len(out.rows) != 0 {
		t.Errorf("empty file without header: %+v", out)
	}
	_, err = ReadColumnsWith(context.Background(), osFS{}, ss[0], source.CSVDialect{NoHeader: true})
	wantErr(t, err, "without a header row", "--csv-header=false")
	// Dialects the reader cannot parse are refused.
	for _, d := range []source.CSVDialect{{Delimiter: '"'}, {Delimiter: '\n'}, {Quote: 0xC3}, {Delimiter: ';', Quote: ';'}} {
		if err := d.Check(); err == nil {
			t.Errorf("dialect %+v accepted", d)
		}
	}
}
