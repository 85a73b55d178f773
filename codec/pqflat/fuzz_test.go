package pqflat

import (
	"bytes"
	"fmt"
	"math/rand"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// panicInPqflat reports whether the panic being recovered was raised by pqflat's own code (not
// by arrow-go, which the readers' callers recover from).
func panicInPqflat(stack string) bool {
	lines := strings.Split(stack, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "panic(") {
			continue
		}
		for _, f := range lines[i+1:] {
			if strings.HasPrefix(f, "\t") || strings.HasPrefix(f, "runtime.") || strings.HasPrefix(f, "panic(") {
				continue
			}
			return strings.Contains(f, "/codec/pqflat.")
		}
	}
	return false
}

// readAll decodes every batch of data with the fast path (fast) or pqarrow, recovering panics;
// ok is false when the fast path is not taken. A panic raised by pqflat itself fails t.
func readAll(t testing.TB, data []byte, batch int64, fast bool) (recs []arrow.RecordBatch, taken bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			if st := string(debug.Stack()); panicInPqflat(st) {
				t.Fatalf("pqflat panicked: %v\n%s", p, st)
			}
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		return nil, false, err
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: batch}, memory.DefaultAllocator)
	if err != nil {
		return nil, false, err
	}
	var rr pqarrow.RecordReader
	if fast {
		r, ok := NewRecordReader(fr, nil, nil, memory.DefaultAllocator)
		if !ok {
			return nil, false, nil
		}
		rr = r
	} else if rr, err = fr.GetRecordReader(t.Context(), nil, nil); err != nil {
		return nil, false, err
	}
	defer rr.Release()
	for len(recs) < 50 && rr.Next() { // a footer may declare billions of rows
		rec := rr.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	return recs, true, rr.Err()
}

func release(recs []arrow.RecordBatch) {
	for _, r := range recs {
		r.Release()
	}
}

// checkMutated decodes data with pqflat, which must not panic (an error is fine). Where both
// pqflat and pqarrow accept a damaged page they may decode different values: without page
// checksums the damage is undetectable, and the two decoders read a malformed run differently.
func checkMutated(t testing.TB, data []byte) {
	got, _, _ := readAll(t, data, 100, true)
	release(got)
}

// smallFiles are valid files of every shape the fast path reads: dictionary and plain pages,
// v1 and v2, nulls, several pages and row groups; uncompressed so that a flipped byte reaches
// the decoder rather than the decompressor.
func smallFiles(t testing.TB) [][]byte {
	rng := rand.New(rand.NewSource(7))
	var out [][]byte
	for i, v := range []variant{
		{dict: true, codec: compress.Codecs.Uncompressed, pageSize: 128, dictPage: 1 << 20, groupRow: 40, noSchema: true},
		{dict: true, v2: true, codec: compress.Codecs.Uncompressed, pageSize: 128, dictPage: 64, groupRow: 40, noSchema: true},
		{dict: false, codec: compress.Codecs.Uncompressed, pageSize: 256, dictPage: 1 << 20, groupRow: 100, noSchema: true},
		{dict: false, v2: true, codec: compress.Codecs.Snappy, pageSize: 256, dictPage: 1 << 20, groupRow: 100, noSchema: true},
	} {
		rec := randomRecord(rng, 60, []int{10, 30, 0, 50}[i])
		out = append(out, writeFile(t, rec, v))
		rec.Release()
	}
	return out
}

// TestFlatCorruptPagesNeverPanic changes bytes of valid files, one at a time, across the pages:
// pqflat returns an error or arrays, and never panics.
func TestFlatCorruptPagesNeverPanic(t *testing.T) {
	files := smallFiles(t)
	step := 7
	if testing.Short() {
		step = 23
	}
	for fi, data := range files[:2] {
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		end := len(data) - 8 - int(pf.MetaData().Size())
		mut := make([]byte, len(data))
		for at := 4 + fi; at < end; at += step {
			for _, x := range []byte{0xff, data[at] ^ 0x01, data[at] + 0x40} {
				copy(mut, data)
				mut[at] = x
				checkMutated(t, mut)
				if t.Failed() {
					t.Fatalf("file %d, byte %d set to %#x", fi, at, x)
				}
			}
		}
	}
}

// FuzzFlatDecode mutates valid files: pqflat must not panic.
func FuzzFlatDecode(f *testing.F) {
	for _, d := range smallFiles(f) {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkMutated(t, data)
	})
}
