package file

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakeload/lakeload/source"
)

// bytesOf is a reader of n copies of b that counts what was read.
type bytesOf struct {
	b    byte
	n    int64
	read int64
}

func (r *bytesOf) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(int64(len(p)), r.n)
	for i := range p[:k] {
		p[i] = r.b
	}
	r.n -= k
	r.read += k
	return int(k), nil
}

// textRows reads src through a textReader; it returns the ids of the rows read, the rejected rows
// and the first error.
func textRows(t *testing.T, src rowSource, err error, tblCols []string, skipBad bool) ([]string, []source.Rejected, error) {
	t.Helper()
	if err != nil {
		return nil, nil, err
	}
	schema, err := source.ArrowSchema(table(t, tblCols...).Fields)
	if err != nil {
		t.Fatal(err)
	}
	r := &textReader{split: source.Split{Path: "in", RowCount: -1}, src: src, sink: newRowSink(memory.DefaultAllocator, schema, false), skipBad: skipBad}
	defer r.sink.release()
	var ids []string
	var rej []source.Rejected
	for {
		b, err := r.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return ids, rej, nil
		}
		if err != nil {
			return ids, rej, err
		}
		for i := 0; i < int(b.Record.NumRows()); i++ {
			ids = append(ids, b.Record.Column(0).ValueStr(i))
		}
		rej = append(rej, b.Rejected...)
		b.Record.Release()
	}
}

// TestDeepJSONIsARowError (issue 14, finding 4): a 6 MB line of '[' overflowed the Go stack and killed
// the process. It is a row error naming the file, row and line and the depth limit, and with
// SkipBadRows the row is rejected and the lines after it load.
func TestDeepJSONIsARowError(t *testing.T) {
	deep := strings.Repeat("[", 6<<20)
	in := `{"id":1}` + "\n" + `{"id":2,"v":` + deep + "\n" + `{"id":3}` + "\n"
	cols := []string{"id INT", "v ARRAY<INT>"}
	_, _, err := textRows(t, mustJSONL(t, in), nil, cols, false)
	wantErr(t, err, "file in, row 2 (line 2)", "nested deeper than 512", "--max-json-depth")
	var ve *source.ValueError
	if !errors.As(err, &ve) || ve.Row != 1 {
		t.Errorf("error %v is not a row error of row 2", err)
	}
	ids, rej, err := textRows(t, mustJSONL(t, in), nil, cols, true)
	if err != nil || strings.Join(ids, ",") != "1,3" || len(rej) != 1 || rej[0].Row != 2 {
		t.Errorf("with SkipBadRows: ids %v, rejected %+v, err %v", ids, rej, err)
	}
	// A CSV field holding JSON text has the same limit.
	_, _, err = textRows(t, mustCSV(t, "id,v\n2,\""+strings.Repeat("[", 100000)+"\"\n", cols), nil, cols, false)
	wantErr(t, err, "row 1 (line 2)", `column "v"`, "nested deeper than 512")
}

func mustJSONL(t *testing.T, in string) rowSource {
	t.Helper()
	s, err := newJSONLSource("in", strings.NewReader(in), table(t, "id INT", "v ARRAY<INT>").Fields, source.MappingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustCSV(t *testing.T, in string, cols []string) rowSource {
	t.Helper()
	s, err := newCSVSource("in", strings.NewReader(in), table(t, cols...).Fields, source.MappingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestLongRecordStopsReading (issue 14, finding 6): one 100 MB line used 1.0–1.6 GB. A JSON line or
// CSV record longer than the 64 MiB default is a row error naming the row and line, the reader stops
// buffering at the limit (fail mode: it reads no further than the limit and its buffer), and with
// SkipBadRows the record is rejected and the next one loads.
func TestLongRecordStopsReading(t *testing.T) {
	const big = 100 << 20
	const slack = 1 << 20 // buffers
	cols := []string{"id INT", "v STRING"}
	for _, c := range []struct {
		name      string
		csv       bool
		pre, post string
		fill      byte
		want      string
	}{
		{name: "JSON line", pre: `{"id":1}` + "\n" + `{"id":2,"v":"`, fill: 'x', post: `"}` + "\n" + `{"id":3}` + "\n", want: "row 2 (line 2)"},
		{name: "JSON line of spaces", pre: `{"id":1}` + "\n" + `{"id":2,"v":`, fill: ' ', post: `"a"}` + "\n" + `{"id":3}` + "\n", want: "row 2 (line 2)"},
		{name: "CSV field", csv: true, pre: "id,v\n1,a\n2,\"", fill: 'x', post: "\"\n3,c\n", want: "row 2 (line 3)"},
		{name: "CSV record of commas", csv: true, pre: "id,v\n1,a\n2,", fill: ',', post: "\n3,c\n", want: "row 2 (line 3)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			open := func() (rowSource, *bytesOf, error) {
				fill := &bytesOf{b: c.fill, n: big}
				r := io.MultiReader(strings.NewReader(c.pre), fill, strings.NewReader(c.post))
				if c.csv {
					s, err := newCSVSource("in", r, table(t, cols...).Fields, source.MappingOptions{})
					return s, fill, err
				}
				s, err := newJSONLSource("in", r, table(t, cols...).Fields, source.MappingOptions{})
				return s, fill, err
			}
			src, fill, err := open()
			_, _, err = textRows(t, src, err, cols, false)
			wantErr(t, err, "file in, "+c.want, "67108864 bytes", "--max-record-bytes")
			if fill.read > 64<<20+slack {
				t.Errorf("read %d bytes of the %d-byte record, more than the 64 MiB limit", fill.read, big)
			}
			src, _, err = open()
			ids, rej, err := textRows(t, src, err, cols, true)
			if err != nil || strings.Join(ids, ",") != "1,3" || len(rej) != 1 || rej[0].Row != 2 {
				t.Errorf("with SkipBadRows: ids %v, %d rejected, err %v", ids, len(rej), err)
			}
			if len(rej) == 1 && len(rej[0].Raw) > 4096 {
				t.Errorf("the quarantined raw text of a 100 MB record holds %d bytes", len(rej[0].Raw))
			}
		})
	}
}

// TestPlanRefusesNonRegularInput (issue 14, finding 6): `--from /dev/zero` grew without bound. Planning
// refuses character devices and FIFOs (directly or through a symlink), naming the file and the flag.
func TestPlanRefusesNonRegularInput(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "zero.jsonl")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ glob, format, want string }{
		{"/dev/zero", "jsonl", "/dev/zero"},
		{link, "", link},
		{fifo, "", fifo},
		{filepath.Join(dir, "*.jsonl"), "", fifo},
	} {
		_, err := Plan(context.Background(), osFS{}, c.glob, c.format)
		wantErr(t, err, "input file "+c.want, "not a regular file", "--allow-non-regular-input")
	}
	writeFile(t, dir, "ok.jsonl", "{}\n")
	if ss, err := Plan(context.Background(), osFS{}, filepath.Join(dir, "ok.jsonl"), ""); err != nil || len(ss) != 1 {
		t.Errorf("a regular file: %v %v", ss, err)
	}
}
