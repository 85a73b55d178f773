package file

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakeload/lakeload/source"
)

// count reads src to the end with SkipBadRows and returns the rows read plus the rows rejected.
func count(t *testing.T, src rowSource, cols []string) (int, error) {
	schema, err := source.ArrowSchema(table(t, cols...).Fields)
	if err != nil {
		t.Fatal(err)
	}
	r := &textReader{split: source.Split{Path: "fuzz", RowCount: -1}, src: src, sink: newRowSink(memory.DefaultAllocator, schema, false), skipBad: true}
	defer r.sink.release()
	n := 0
	for {
		b, err := r.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n += int(b.Record.NumRows()) + len(b.Rejected)
		b.Record.Release()
	}
}

var limitCols = []string{"a INT", "b STRING", "e ARRAY<MAP<STRING, INT>>"}

// FuzzJSONLLimits: under any depth and record size limit, a JSON Lines reader with SkipBadRows that
// reads an input without a file-level error when unlimited also does limited, and accounts for every
// line once (read or rejected): a line over a limit is a rejected row, never a lost or merged line.
func FuzzJSONLLimits(f *testing.F) {
	f.Add([]byte(`{"a":1,"e":[{"k":1}]}`+"\n"+`{"e":`+strings.Repeat("[", 40)+"\n"+`{"a":2}`), uint8(3), uint16(200))
	f.Add([]byte(`{"b":"`+strings.Repeat("x", 300)+`"}`+"\r\n"+`{"a":3}`+"\r\n"), uint8(8), uint16(64))
	f.Add([]byte(`[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]`+"\n\n"+`{"a":1,"a":2}`), uint8(1), uint16(100))
	f.Add([]byte("\xEF\xBB\xBF{\"e\":[[[]]]}\n"+strings.Repeat(" ", 70)+"\n"), uint8(2), uint16(33))
	fields := table(f, limitCols...).Fields
	f.Fuzz(func(t *testing.T, data []byte, depth uint8, size uint16) {
		data = bytes.ReplaceAll(data, []byte("\r"), nil) // a lone CR is no line end; keep line counting simple
		ref, err := newJSONLSource("fuzz", bytes.NewReader(data), fields, source.MappingOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := count(t, ref, limitCols); err != nil {
			return // a file-level error (e.g. two keys matching one column)
		}
		lim := source.Limits{MaxJSONDepth: 1 + int(depth%16), MaxRecordBytes: 1 + int64(size%512)}
		src, err := newJSONLSource("fuzz", bytes.NewReader(data), fields, source.MappingOptions{Limits: lim})
		if err != nil {
			t.Fatal(err)
		}
		src.r = bufio.NewReaderSize(bytes.NewReader(data), 16) // lines longer than the buffer, as in a real file
		n, err := count(t, src, limitCols)
		if err != nil {
			t.Fatalf("limits %+v: %v", lim, err)
		}
		lines := bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			lines++
		}
		if n != lines {
			t.Fatalf("limits %+v: %d rows read or rejected, the input has %d lines", lim, n, lines)
		}
	})
}

// FuzzCSVLimits: a record size limit never changes where CSV records begin and end: with SkipBadRows,
// a reader under a small limit accounts for as many records (read or rejected) as one without, and
// fails exactly when it does (malformed CSV).
func FuzzCSVLimits(f *testing.F) {
	f.Add([]byte("a,b\n1,x\n2,\""+strings.Repeat("y\n", 40)+"\"\n3,z\n"), uint16(60)) // over the limit inside a quoted field
	f.Add([]byte("a,b\n1,x\n2,\""+strings.Repeat("y\n", 40)+"\"\n3,z\n"), uint16(20)) // at a field's start
	f.Add([]byte("a,b\r\n1,"+strings.Repeat(",", 50)+"\r\n\"2\",\"\"\"q\"\"\"\r\n"), uint16(40))
	f.Add([]byte("a,e\n1,\"[{\"\"k\"\":1}]\"\n2,\""+strings.Repeat("[", 30)+"\"\n"), uint16(90))
	f.Add([]byte("a,b\n1,\"unclosed\n"), uint16(70))
	f.Add([]byte("a,b\n\"x\"y,1\n"), uint16(70))
	f.Fuzz(func(t *testing.T, data []byte, size uint16) {
		cols := []string{"a STRING", "b STRING", "e ARRAY<INT>"}
		fields := table(t, cols...).Fields
		opts := source.MappingOptions{IgnoreExtra: true}
		ref, err := newCSVSource("fuzz", bytes.NewReader(data), fields, opts)
		if err != nil {
			return
		}
		want, wantErr := count(t, ref, cols)
		opts.Limits.MaxRecordBytes = int64(source.ValueCost) + 1 + int64(size%512)
		src, err := newCSVSource("fuzz", bytes.NewReader(data), fields, opts)
		if err != nil {
			return // the header is over the limit
		}
		got, gotErr := count(t, src, cols)
		if (wantErr == nil) != (gotErr == nil) {
			t.Fatalf("limit %d: error %v, without the limit %v", opts.Limits.MaxRecordBytes, gotErr, wantErr)
		}
		if wantErr == nil && got != want {
			t.Fatalf("limit %d: %d records, without the limit %d", opts.Limits.MaxRecordBytes, got, want)
		}
	})
}
