package parquet

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/spec"
)

// mirrorFields are diffFields followed by a second column of each ("m_" + name).
func mirrorFields() []spec.DataField {
	fields := diffFields()
	n := len(fields)
	for i := range n {
		f := fields[i]
		f.ID, f.Name = 100+f.ID, "m_"+f.Name
		fields = append(fields, f)
	}
	return fields
}

// mirrorBatch is base's columns twice: the second time the same arrays (same) or copies of them
// (another array of equal values).
func mirrorBatch(t *testing.T, fields []spec.DataField, base arrow.RecordBatch, same bool) arrow.RecordBatch {
	t.Helper()
	sc, err := arrowconv.ArrowSchema(fields)
	if err != nil {
		t.Fatal(err)
	}
	cols := append([]arrow.Array(nil), base.Columns()...)
	for _, c := range base.Columns() {
		if same {
			cols = append(cols, c)
			continue
		}
		cp := copyArray(c)
		defer cp.Release()
		cols = append(cols, cp)
	}
	return array.NewRecordBatch(sc, cols, base.NumRows())
}

// copyArray is another array holding a's values in buffers of its own.
func copyArray(a arrow.Array) arrow.Array {
	data := a.Data()
	bufs := make([]*memory.Buffer, len(data.Buffers()))
	for i, b := range data.Buffers() {
		if b != nil {
			bufs[i] = memory.NewBufferBytes(bytes.Clone(b.Bytes()))
		}
	}
	return array.MakeFromData(array.NewData(data.DataType(), data.Len(), bufs, nil, data.NullN(), data.Offset()))
}

// writeMirrored writes batches through the fast path and returns the file, its statistics and the
// columns that still mirrored another when the last batch was written.
func writeMirrored(t *testing.T, fields []spec.DataField, batches []arrow.RecordBatch) ([]byte, FileStats, []string) {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, fields, WriterOptions{Compression: "zstd", RowGroupRows: 12000})
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range batches {
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if w.fast == nil {
		t.Fatal("the fast path did not take the file")
	}
	var mirrors []string
	for _, c := range w.fast.cols {
		if c.mirror != nil {
			mirrors = append(mirrors, c.descr.Name()+"="+c.mirror.descr.Name())
		}
	}
	st, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), st, mirrors
}

// TestMirrorColumnsMatchEncodingTwice: a column given the same array as an earlier one (a PK
// table's _KEY_ column) is written byte for byte as if its values had been encoded on their own,
// also when a later batch gives it another array (the mirror ends mid-row-group or between row
// groups, with equal or different values from then on).
func TestMirrorColumnsMatchEncodingTwice(t *testing.T) {
	fields := mirrorFields()
	base := diffFields()
	r := rand.New(rand.NewPCG(9, 2026))
	var src, other []arrow.RecordBatch
	for _, start := range []int{0, 7000, 14000, 21000} {
		src = append(src, diffBatch(t, base, r, start, 7000))
		other = append(other, diffBatch(t, base, r, 50000+start, 7000))
	}
	defer func() {
		for _, b := range append(src, other...) {
			b.Release()
		}
	}()
	// combine makes batch k from src[k] (mirrored from ends onwards: copies; when differ, the
	// second half holds other[k]'s values).
	combine := func(ends int, differ, same bool) []arrow.RecordBatch {
		var out []arrow.RecordBatch
		for k, b := range src {
			rec := mirrorBatch(t, fields, b, same && k < ends)
			if differ && k >= ends {
				cols := append(append([]arrow.Array(nil), b.Columns()...), other[k].Columns()...)
				rec.Release()
				rec = array.NewRecordBatch(rec.Schema(), cols, b.NumRows())
			}
			out = append(out, rec)
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		ends   int // batch from which the second columns get other arrays
		differ bool
	}{
		{"mirrored throughout", len(src), false},
		{"ends mid row group, equal values", 1, false},
		{"ends between row groups, equal values", 2, false},
		{"ends mid row group, other values", 1, true},
		{"ends in the last row group, other values", 3, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mirrored, independent := combine(tc.ends, tc.differ, true), combine(tc.ends, tc.differ, false)
			defer func() {
				for _, b := range append(mirrored, independent...) {
					b.Release()
				}
			}()
			got, gs, mirrors := writeMirrored(t, fields, mirrored)
			want, ws, none := writeMirrored(t, fields, independent)
			if len(none) != 0 {
				t.Fatalf("copies of equal values mirrored: %v", none)
			}
			// The mirror really was taken (else this test could not fail): every column that can,
			// until its arrays differ.
			wantMirrors := 0
			if tc.ends == len(src) {
				wantMirrors = len(base)
			}
			if len(mirrors) != wantMirrors {
				t.Fatalf("%d columns mirror at the end, want %d: %v", len(mirrors), wantMirrors, mirrors)
			}
			if tc.ends == len(src) && mirrors[0] != "m_id=id" {
				t.Fatalf("mirrors %v", mirrors)
			}
			sameFile(t, got, want)
			if fmt.Sprintf("%#v", gs) != fmt.Sprintf("%#v", ws) {
				t.Fatalf("FileStats differ:\nmirrored %#v\ntwice    %#v", gs, ws)
			}
		})
	}
}

// sameFile fails unless got and want hold the same bytes up to the footer and footers with the
// same chunk metadata. (arrow-go writes a chunk's page encoding statistics in map order, so two
// writes of the same file may differ there.)
func sameFile(t *testing.T, got, want []byte) {
	t.Helper()
	body := func(data []byte) []byte {
		n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
		return data[:len(data)-8-n]
	}
	if !bytes.Equal(body(got), body(want)) {
		t.Fatalf("pages differ: %d and %d bytes before the footer", len(body(got)), len(body(want)))
	}
	g, w := chunkMeta(t, got), chunkMeta(t, want)
	if len(g) != len(w) {
		t.Fatalf("%d column chunks, want %d", len(g), len(w))
	}
	for i := range g {
		if g[i] != w[i] {
			t.Fatalf("column chunk %d:\n%s\nwant\n%s", i, g[i], w[i])
		}
	}
}

// chunkMeta renders the footer metadata of every column chunk, encodings sorted.
func chunkMeta(t *testing.T, data []byte) []string {
	t.Helper()
	rd, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var out []string
	for g := 0; g < rd.NumRowGroups(); g++ {
		rgm := rd.MetaData().RowGroup(g)
		for c := 0; c < rgm.NumColumns(); c++ {
			cc, err := rgm.ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			var encs []string
			for _, e := range cc.Encodings() {
				encs = append(encs, e.String())
			}
			for _, e := range cc.EncodingStats() {
				encs = append(encs, fmt.Sprintf("%v/%v", e.PageType, e.Encoding))
			}
			slices.Sort(encs)
			var stats string
			if ok, _ := cc.StatsSet(); ok {
				st, err := cc.Statistics()
				if err != nil {
					t.Fatal(err)
				}
				stats = fmt.Sprintf("%v %x %x %d %d", st.HasMinMax(), st.EncodeMin(), st.EncodeMax(), st.NullCount(), st.NumValues())
			}
			out = append(out, fmt.Sprintf("%v rows=%d values=%d dict=%v@%d data@%d size=%d/%d enc=%v stats=%s",
				cc.PathInSchema(), rgm.NumRows(), cc.NumValues(), cc.HasDictionaryPage(), cc.DictionaryPageOffset(),
				cc.DataPageOffset(), cc.TotalCompressedSize(), cc.TotalUncompressedSize(), encs, stats))
		}
	}
	return out
}

// twoColumns writes the batches of k and v (one pair of arrays per batch) into a file of fields
// k and v, and again with v copied, and fails unless the files and their FileStats match. It
// returns the columns that mirrored another at the end.
func twoColumns(t *testing.T, fields []spec.DataField, ks, vs []arrow.Array) []string {
	t.Helper()
	sc, err := arrowconv.ArrowSchema(fields)
	if err != nil {
		t.Fatal(err)
	}
	var given, copied []arrow.RecordBatch
	for i := range ks {
		n := int64(ks[i].Len())
		both := array.NewRecordBatch(sc, []arrow.Array{ks[i], vs[i]}, n)
		defer both.Release()
		given = append(given, both)
		cp := copyArray(vs[i])
		defer cp.Release()
		twice := array.NewRecordBatch(sc, []arrow.Array{ks[i], cp}, n)
		defer twice.Release()
		copied = append(copied, twice)
	}
	got, gs, mirrors := writeMirrored(t, fields, given)
	want, ws, _ := writeMirrored(t, fields, copied)
	sameFile(t, got, want)
	if fmt.Sprintf("%#v", gs) != fmt.Sprintf("%#v", ws) {
		t.Fatalf("FileStats differ:\nmirrored %#v\ntwice    %#v", gs, ws)
	}
	return mirrors
}

// TestMirrorNeedsTheSameLeaf: the same array in a NOT NULL and a nullable column is encoded twice
// (the nullable one has definition levels), as copies of it would be.
func TestMirrorNeedsTheSameLeaf(t *testing.T) {
	fields := []spec.DataField{
		{ID: 0, Name: "req", Type: typ(spec.BigInt, false)},
		{ID: 1, Name: "opt", Type: typ(spec.BigInt, true)},
	}
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	for i := range 5000 {
		b.Append(int64(i * i))
	}
	a := b.NewArray()
	defer a.Release()
	if mirrors := twoColumns(t, fields, []arrow.Array{a}, []arrow.Array{a}); len(mirrors) != 0 {
		t.Fatalf("mirrors across leaf types: %v", mirrors)
	}
}

// TestMirrorEndsWithOwnStatistics: once a mirror ends, new extremes of either column do not
// reach the other's statistics.
func TestMirrorEndsWithOwnStatistics(t *testing.T) {
	fields := []spec.DataField{
		{ID: 0, Name: "k", Type: typ(spec.VarChar, false)},
		{ID: 1, Name: "v", Type: typ(spec.VarChar, false)},
	}
	str := func(vs ...string) arrow.Array {
		b := array.NewStringBuilder(memory.DefaultAllocator)
		defer b.Release()
		b.AppendValues(vs, nil)
		return b.NewArray()
	}
	first, k2, v2 := str("m", "n"), str("a", "z"), str("b", "y")
	for _, a := range []arrow.Array{first, k2, v2} {
		defer a.Release()
	}
	twoColumns(t, fields, []arrow.Array{first, k2}, []arrow.Array{first, v2})
}
