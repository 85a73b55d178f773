package file

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

// readOut is what reading splits gives: each row with its row number, the rows rejected, and
// the first error.
type readOut struct {
	rows     []string
	rejected []string
	err      string
}

// readSplits reads the splits in order, as one load reads a file's splits, stopping at an error.
func readSplits(t *testing.T, splits []source.Split, tbl *spec.TableSchema, opts source.MappingOptions) readOut {
	t.Helper()
	ctx := context.Background()
	var out readOut
	for _, sp := range splits {
		r, err := Open(ctx, osFS{}, sp, tbl, opts)
		if err != nil {
			out.err = err.Error()
			return out
		}
		for {
			b, err := r.Next(ctx)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				out.err = err.Error()
				_ = r.Close()
				return out
			}
			for _, rej := range b.Rejected {
				out.rejected = append(out.rejected, fmt.Sprintf("row %d line %d %s: %s", rej.Row, rej.Line, rej.Column, rej.Reason))
			}
			for i := 0; i < int(b.Record.NumRows()); i++ {
				var vals []string
				for c := 0; c < int(b.Record.NumCols()); c++ {
					col := b.Record.Column(c).(*array.String)
					if col.IsNull(i) {
						vals = append(vals, "<null>")
					} else {
						vals = append(vals, fmt.Sprintf("%q", col.Value(i)))
					}
				}
				out.rows = append(out.rows, fmt.Sprintf("%d: %s", b.FirstRow+int64(i), strings.Join(vals, " ")))
			}
			b.Record.Release()
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// checkCuts cuts the file at path every `every` rows and checks the splits against the file read
// as one split: they tile the file (bytes and rows, first lines exact), and reading them in order
// gives the same rows with the same row numbers, the same rejected rows (row and line numbers)
// and, without --bad-rows, the same first error. It returns the splits.
func checkCuts(t *testing.T, path, format string, every int64, tbl *spec.TableSchema) []source.Split {
	t.Helper()
	ss, err := PlanWith(context.Background(), osFS{}, path, format, source.Limits{})
	if err != nil || len(ss) != 1 {
		t.Fatalf("plan %s: %v, %v", path, ss, err)
	}
	whole := ss[0]
	cuts, err := CutText(context.Background(), osFS{}, whole, every)
	if err != nil {
		t.Fatalf("cut: %v", err)
	}
	again, err := CutText(context.Background(), osFS{}, whole, every)
	if err != nil || fmt.Sprint(again) != fmt.Sprint(cuts) {
		t.Fatalf("cutting the same file again gave %v, %v; first %v", again, err, cuts)
	}
	if len(cuts) > 1 {
		var row, off int64 = 0, cuts[0].ByteStart
		for i, c := range cuts {
			if !c.IsRange() || c.RowStart != row || c.ByteStart != off || c.Path != whole.Path || c.Size != whole.Size ||
				c.ModTimeUnixNano != whole.ModTimeUnixNano {
				t.Fatalf("split %d %+v does not continue at row %d, byte %d: %+v", i, c, row, off, cuts)
			}
			if i < len(cuts)-1 && c.RowCount != every {
				t.Fatalf("split %d has %d rows, want %d: %+v", i, c.RowCount, every, cuts)
			}
			if c.RowCount <= 0 && (i < len(cuts)-1 || c.RowCount == 0) {
				t.Fatalf("split %d has %d rows: %+v", i, c.RowCount, cuts)
			}
			row, off = row+c.RowCount, c.ByteEnd
		}
		if off != whole.Size {
			t.Fatalf("the last split ends at %d, the file at %d", off, whole.Size)
		}
	} else if len(cuts) != 1 || cuts[0] != whole {
		t.Fatalf("an uncut file must stay its whole-file split %+v, got %+v", whole, cuts)
	}
	for _, skip := range []bool{false, true} {
		opts := source.MappingOptions{SkipBadRows: skip}
		want := readSplits(t, []source.Split{whole}, tbl, opts)
		got := readSplits(t, cuts, tbl, opts)
		if d := diffOut(want, got); d != "" {
			t.Fatalf("bad-rows=%v: %d splits read differently than the whole file: %s\nsplits %+v", skip, len(cuts), d, cuts)
		}
	}
	return cuts
}

// diffOut compares two reads; after an error only the error counts (a whole-file read returns no
// rows of the batch that fails, a read of splits the rows of the splits before it).
func diffOut(want, got readOut) string {
	if want.err != got.err {
		return fmt.Sprintf("error %q, whole file %q", got.err, want.err)
	}
	if want.err != "" {
		return ""
	}
	if fmt.Sprint(want.rows) != fmt.Sprint(got.rows) {
		return fmt.Sprintf("rows\n%v\nwhole file\n%v", got.rows, want.rows)
	}
	if fmt.Sprint(want.rejected) != fmt.Sprint(got.rejected) {
		return fmt.Sprintf("rejected\n%v\nwhole file\n%v", got.rejected, want.rejected)
	}
	return ""
}

// smallChunks makes the cut scan read a few bytes at a time, so chunk ends fall inside quotes,
// between a quote and its double, between CR and LF.
func smallChunks(t *testing.T, n int) {
	old := cutChunkBytes
	cutChunkBytes = n
	t.Cleanup(func() { cutChunkBytes = old })
}

func TestCutTextCSVCases(t *testing.T) {
	tbl := table(t, "a STRING", "b STRING")
	cases := map[string]string{
		"plain":               "a,b\n1,x\n2,y\n3,z\n4,w\n5,v\n",
		"no trailing newline": "a,b\n1,x\n2,y\n3,z\n4,w\n5,v",
		"crlf":                "a,b\r\n1,x\r\n2,y\r\n3,z\r\n4,w\r\n5,v\r\n",
		"crlf no trailing":    "a,b\r\n1,x\r\n2,y\r\n3,z\r\n4,w\r\n5,v",
		"quoted newlines":     "a,b\n\"1\n2,3\",x\n\"\n\",\"y\ny\"\n\"q\"\"\n\"\"\",z\n4,\"\r\n\"\n5,v\n",
		// A quoted field whose content looks like records, quotes right before and after newlines.
		"records inside quotes": "a,b\n1,\"x\n2,y\n3,\"\"z\"\"\n\"\n\"\"\"\",\"\n\"\"\"\n6,w\n7,\"\"\n",
		"empty lines":           "a,b\n1,x\n\n2,y\n\n\n3,z\n",
		"header only":           "a,b\n",
		"header only no eol":    "a,b",
		"one row":               "a,b\n1,x\n",
		"bom":                   "\xEF\xBB\xBF\"a\",b\n1,x\n2,y\n3,z\n",
		"bom quoted row":        "\xEF\xBB\xBFa,b\n\"1\",x\n\"\xEF\xBB\xBF2\",y\n3,z\n",
		"width errors":          "a,b\n1,x\n2\n3,z,9\n4,w\n5,v\n",
		// Syntax errors: the scan stops cutting at the first one, so every split before it is exact
		// and the error is found (with its row and line) in the last split.
		"quote in unquoted field":  "a,b\n1,x\n2,y\n3,z\n4,w\"w\n5,v\n6,u\n7,t\n",
		"text after closing quote": "a,b\n1,x\n2,y\n3,z\n\"4\"w,w\n5,v\n6,u\n",
		"cr after closing quote":   "a,b\n1,x\n2,y\n3,z\n\"4\"\r,w\n5,v\n6,u\n",
		"unclosed quote":           "a,b\n1,x\n2,y\n3,z\n4,\"w\n5,v\n6,u\n",
		"quote after lone cr":      "a,b\n1,x\n2,y\r\"3\",z\n4,w\n",
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "in.csv", content)
			for _, chunk := range []int{1, 2, 3, 5, 1 << 20} {
				smallChunks(t, chunk)
				for _, every := range []int64{1, 2, 3, 100} {
					cuts := checkCuts(t, path, "csv", every, tbl)
					// A file the grammar accepts is cut at every record end; only a syntax error stops the scan.
					syntaxError := map[string]bool{"quote in unquoted field": true, "text after closing quote": true,
						"cr after closing quote": true, "unclosed quote": true, "quote after lone cr": true}[name]
					if every == 1 && !syntaxError && len(cuts) > 1 && cuts[len(cuts)-1].RowCount < 0 {
						t.Fatalf("chunks of %d: the scan stopped cutting a well-formed file: %+v", chunk, cuts)
					}
				}
			}
		})
	}
}

func TestCutTextJSONLCases(t *testing.T) {
	tbl := table(t, "a STRING", "b STRING")
	cases := map[string]string{
		"plain":               "{\"a\":\"1\"}\n{\"a\":\"2\"}\n{\"a\":\"3\",\"b\":\"x\"}\n{\"a\":\"4\"}\n{\"a\":\"5\"}\n",
		"no trailing newline": "{\"a\":\"1\"}\n{\"a\":\"2\"}\n{\"a\":\"3\"}\n{\"a\":\"4\"}",
		"crlf":                "{\"a\":\"1\"}\r\n{\"a\":\"2\"}\r\n{\"a\":\"3\"}\r\n{\"a\":\"4\"}\r\n",
		"empty lines":         "{\"a\":\"1\"}\n\n{\"a\":\"2\"}\n\r\n\n{\"a\":\"3\"}\n",
		"bom":                 "\xEF\xBB\xBF{\"a\":\"1\"}\n{\"a\":\"2\"}\n{\"a\":\"3\"}\n",
		"bom later":           "{\"a\":\"1\"}\n\xEF\xBB\xBF{\"a\":\"2\"}\n{\"a\":\"3\"}\n",
		"escaped newlines":    "{\"a\":\"1\\n2\"}\n{\"a\":\"\\\"\\n\"}\n{\"a\":\"3\"}\n",
		"one line":            "{\"a\":\"1\"}\n",
		"bad json":            "{\"a\":\"1\"}\n{\"a\":\n{\"a\":\"3\"}\n[1]\n{\"a\":\"5\"}\n",
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "in.jsonl", content)
			for _, chunk := range []int{1, 2, 7, 1 << 20} {
				smallChunks(t, chunk)
				for _, every := range []int64{1, 2, 3, 100} {
					checkCuts(t, path, "jsonl", every, tbl)
				}
			}
		})
	}
}

// randomCSV writes rows of random fields: quoted or not, holding commas, quotes, LF, CRLF and
// lone CRs, with LF or CRLF record ends; empty lines and rows of the wrong width now and then.
func randomCSV(r *rand.Rand, rows int) string {
	var b strings.Builder
	eol := "\n"
	if r.IntN(2) == 0 {
		eol = "\r\n"
	}
	b.WriteString("a,b" + eol)
	pieces := []string{"x", "yz", ",", "\"", "\n", "\r\n", "\r", " ", "1"}
	for i := range rows {
		switch r.IntN(20) {
		case 0:
			b.WriteString(eol) // an empty line: one field
			continue
		case 1:
			b.WriteString("1,2,3" + eol)
			continue
		}
		for f := range 2 {
			if f > 0 {
				b.WriteByte(',')
			}
			if r.IntN(2) == 0 {
				var v strings.Builder
				for range r.IntN(6) {
					v.WriteString(pieces[r.IntN(len(pieces))])
				}
				b.WriteString(`"` + strings.ReplaceAll(v.String(), `"`, `""`) + `"`)
			} else if r.IntN(3) > 0 {
				fmt.Fprintf(&b, "v%d", i)
			}
		}
		if i < rows-1 || r.IntN(2) == 0 {
			b.WriteString(eol)
		}
	}
	return b.String()
}

func TestCutTextCSVRandom(t *testing.T) {
	tbl := table(t, "a STRING", "b STRING")
	dir := t.TempDir()
	for seed := range uint64(60) {
		r := rand.New(rand.NewPCG(seed, 15))
		content := randomCSV(r, 1+r.IntN(40))
		path := writeFile(t, dir, fmt.Sprintf("in-%d.csv", seed), content)
		smallChunks(t, 1+r.IntN(16))
		for _, every := range []int64{1, 2, 1 + r.Int64N(9)} {
			if cuts := checkCuts(t, path, "csv", every, tbl); len(cuts) < 2 && every == 1 && strings.Count(content, "\n") > 3 {
				t.Fatalf("seed %d: %d splits of a file of several rows cut every row: %q", seed, len(cuts), content)
			}
		}
	}
}

// TestCutTextKeepsWholeFiles: small files, compressed files and files estimated (from the first
// MiB) to hold at most one split's rows stay one whole-file split, read from the start as before.
func TestCutTextKeepsWholeFiles(t *testing.T) {
	dir := t.TempDir()
	big := "a,b\n" + strings.Repeat("1,"+strings.Repeat("x", 1000)+"\n", 3000) // 3 MB, 3000 rows
	for name, c := range map[string]struct {
		content string
		every   int64
	}{
		"smaller than one split": {"a,b\n1,x\n2,y\n", 2},
		"empty":                  {"", 1},
		"gzip":                   {gzipText(t, "a,b\n1,x\n2,y\n3,z\n"), 1},
		"zstd":                   {zstdText(t, "a,b\n1,x\n2,y\n3,z\n"), 1},
		"estimated one split":    {big, 3000},
	} {
		p := writeFile(t, dir, name+".csv", c.content)
		whole := split(t, p)
		cuts, err := CutText(context.Background(), osFS{}, whole, c.every)
		if err != nil || len(cuts) != 1 || cuts[0] != whole {
			t.Errorf("%s: %+v, %v; want the whole-file split %+v", name, cuts, err, whole)
		}
	}
	p := writeFile(t, dir, "big.csv", big)
	if cuts, err := CutText(context.Background(), osFS{}, split(t, p), 1000); err != nil || len(cuts) != 3 {
		t.Errorf("3000 rows cut every 1000: %d splits, %v", len(cuts), err)
	}
}
