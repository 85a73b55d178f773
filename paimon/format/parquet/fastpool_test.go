package parquet

import (
	"bytes"
	"math/rand/v2"
	"runtime/debug"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakeload/lakeload/paimon/arrowconv"
)

// TestFastPathReusesBuffers: a file written with the buffers of the file closed before it (other
// values, other columns) is what the general path writes.
func TestFastPathReusesBuffers(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // a collection would empty the pool
	r := rand.New(rand.NewPCG(5, 2026))
	first := diffFields()[:9]
	a := diffBatch(t, diffFields(), r, 0, 9000)
	defer a.Release()
	cols, err := arrowconv.ArrowSchema(first)
	if err != nil {
		t.Fatal(err)
	}
	prev := array.NewRecordBatch(cols, a.Columns()[:9], a.NumRows())
	defer prev.Release()
	fields := diffFields()
	b := diffBatch(t, fields, r, 20000, 5000)
	defer b.Release()

	// The pool keeps what a goroutine puts on the P it ran on: if the test's goroutine moved to
	// another P in between, the new file starts afresh, and the pair is written again.
	var buf bytes.Buffer
	var w *Writer
	for try := 0; ; try++ {
		writeBatches(t, first, []arrow.RecordBatch{prev}, WriterOptions{Compression: "zstd"})
		buf.Reset()
		if w, err = NewWriter(&buf, fields, WriterOptions{Compression: "zstd"}); err != nil {
			t.Fatal(err)
		}
		if cap(w.fast.cols[1].vals) > 0 && cap(w.fast.page) > 0 {
			break
		}
		if try == 200 {
			t.Fatal("no new file took a closed file's buffers in 200 tries")
		}
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	fs, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	general, gs, _ := writeBatches(t, fields, []arrow.RecordBatch{b}, WriterOptions{Compression: "zstd", general: true})
	compareFiles(t, fields, []arrow.RecordBatch{b}, buf.Bytes(), general, fs, gs)
}
