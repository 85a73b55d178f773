package write

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// pendingView addresses the writer's pending batches by global row index (the position in their
// concatenation) without concatenating them: a flush gathers each file's rows straight from the
// batches, so the buffered rows are never held twice. Columns of types without a direct gather
// (booleans, nested types, 64-bit offsets) are concatenated once per flush, one column at a time.
// It is safe for concurrent use by the parallel flushes of one writer.
type pendingView struct {
	recs   []arrow.RecordBatch
	starts []int64 // starts[i] = global index of the first row of recs[i]; starts[len(recs)] = total

	mu     sync.Mutex
	concat map[int]arrow.Array // columns concatenated for the generic gather, released by release
}

func newPendingView(recs []arrow.RecordBatch) *pendingView {
	v := &pendingView{recs: recs, starts: make([]int64, len(recs)+1), concat: map[int]arrow.Array{}}
	for i, r := range recs {
		v.starts[i+1] = v.starts[i] + r.NumRows()
	}
	return v
}

// release drops the columns concatenated for the generic gather (the batches stay the writer's).
func (v *pendingView) release() {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, c := range v.concat {
		c.Release()
	}
	v.concat = map[int]arrow.Array{}
}

// locate returns the batch holding global row r and r's index in it.
func (v *pendingView) locate(r int64) (int, int) {
	b := sort.Search(len(v.recs), func(i int) bool { return v.starts[i+1] > r })
	if b >= len(v.recs) { // out of range: callers pass only buffered rows
		b = len(v.recs) - 1
	}
	return b, int(r - v.starts[b])
}

// numCols is the column count of the pending batches (all have the table's schema).
func (v *pendingView) numCols() int {
	if len(v.recs) == 0 {
		return 0
	}
	return int(v.recs[0].NumCols())
}

// column returns column c of batch b.
func (v *pendingView) column(b, c int) arrow.Array { return v.recs[b].Column(c) }

// locations resolves sel to (batch, row in batch) pairs, once per file chunk for all its columns.
func (v *pendingView) locations(sel []int64) (bs, rs []int32) {
	bs, rs = make([]int32, len(sel)), make([]int32, len(sel))
	if len(v.recs) == 1 {
		for i, r := range sel {
			rs[i] = int32(r)
		}
		return bs, rs
	}
	for i, r := range sel {
		b, l := v.locate(r)
		bs[i], rs[i] = int32(b), int32(l)
	}
	return bs, rs
}

// gather returns column c at rows sel (global indexes), given their locations (bs, rs from
// locations; nil only when sel is a contiguous run of one batch, which is sliced).
func (v *pendingView) gather(ctx context.Context, c int, sel []int64, bs, rs []int32) (arrow.Array, error) {
	one := len(v.recs) == 1
	if one && contiguous(sel) {
		return array.NewSlice(v.recs[0].Column(c), sel[0], sel[0]+int64(len(sel))), nil
	}
	first := v.recs[0].Column(c)
	direct := false
	switch first.(type) {
	case *array.String, *array.Binary:
		direct = true
	}
	fw, fixed := first.DataType().(arrow.FixedWidthDataType)
	fixed = fixed && fw.BitWidth() >= 8 && fw.BitWidth()%8 == 0 && len(first.Data().Buffers()) == 2
	if !direct && !fixed {
		if one {
			return takeIndexes(ctx, first, sel)
		}
		all, err := v.concatenated(c)
		if err != nil {
			return nil, err
		}
		return takeIndexes(ctx, all, sel)
	}
	if direct {
		return v.gatherBinary(c, first.DataType(), bs, rs), nil
	}
	return v.gatherFixed(c, first.DataType(), fw.BitWidth()/8, bs, rs), nil
}

// contiguous reports whether sel is a non-empty run of consecutive rows.
func contiguous(sel []int64) bool {
	for i := range sel {
		if sel[i] != sel[0]+int64(i) {
			return false
		}
	}
	return len(sel) > 0
}

// concatenated returns column c of every pending batch as one array (built on first use).
func (v *pendingView) concatenated(c int) (arrow.Array, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if a, ok := v.concat[c]; ok {
		return a, nil
	}
	parts := make([]arrow.Array, len(v.recs))
	for i, r := range v.recs {
		parts[i] = r.Column(c)
	}
	a, err := array.Concatenate(parts, memory.DefaultAllocator)
	if err != nil {
		return nil, fmt.Errorf("write: concatenate column %d: %w", c, err)
	}
	v.concat[c] = a
	return a, nil
}

func takeIndexes(ctx context.Context, col arrow.Array, sel []int64) (arrow.Array, error) {
	ib := array.NewInt64Builder(memory.DefaultAllocator)
	ib.AppendValues(sel, nil)
	indices := ib.NewInt64Array()
	ib.Release()
	defer indices.Release()
	return compute.TakeArray(ctx, col, indices)
}

// validity appends the validity of the gathered rows to a new bitmap; nil when none is null.
func (v *pendingView) validity(c int, bs, rs []int32) ([]byte, int) {
	anyNull := false
	for _, r := range v.recs {
		if r.Column(c).NullN() > 0 {
			anyNull = true
			break
		}
	}
	if !anyNull {
		return nil, 0
	}
	bm := make([]byte, bitutil.BytesForBits(int64(len(bs))))
	nulls := 0
	for i := range bs {
		if v.recs[bs[i]].Column(c).IsValid(int(rs[i])) {
			bitutil.SetBit(bm, i)
		} else {
			nulls++
		}
	}
	return bm, nulls
}

// gatherFixed gathers a fixed-width column of whole-byte values (integers, floats, dates,
// timestamps, decimals, fixed-size binary) by copying each value's bytes.
func (v *pendingView) gatherFixed(c int, dt arrow.DataType, width int, bs, rs []int32) arrow.Array {
	n := len(bs)
	src := make([][]byte, len(v.recs))
	for i, r := range v.recs {
		d := r.Column(c).Data()
		if buf := d.Buffers()[1]; buf != nil {
			src[i] = buf.Bytes()[d.Offset()*width:]
		} else { // no values buffer (all null): gather zeros
			src[i] = make([]byte, d.Len()*width)
		}
	}
	out := make([]byte, n*width)
	if width == 8 {
		dst := arrow.Int64Traits.CastFromBytes(out)
		view := make([][]int64, len(src))
		for i, s := range src {
			view[i] = arrow.Int64Traits.CastFromBytes(s[:len(s)/8*8])
		}
		for i := range bs {
			dst[i] = view[bs[i]][rs[i]]
		}
	} else {
		for i := range bs {
			o := int(rs[i]) * width
			copy(out[i*width:(i+1)*width], src[bs[i]][o:o+width])
		}
	}
	bm, nulls := v.validity(c, bs, rs)
	var vb *memory.Buffer
	if bm != nil {
		vb = memory.NewBufferBytes(bm)
	}
	d := array.NewData(dt, n, []*memory.Buffer{vb, memory.NewBufferBytes(out)}, nil, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// gatherBinary gathers a STRING or BYTES column (32-bit offsets).
func (v *pendingView) gatherBinary(c int, dt arrow.DataType, bs, rs []int32) arrow.Array {
	n := len(bs)
	type binCol interface {
		ValueOffsets() []int32
		ValueBytes() []byte
	}
	offs := make([][]int32, len(v.recs))
	data := make([][]byte, len(v.recs))
	for i, r := range v.recs {
		a := r.Column(c).(binCol)
		offs[i], data[i] = a.ValueOffsets(), a.ValueBytes()
	}
	total := 0
	for i := range bs {
		o := offs[bs[i]]
		total += int(o[rs[i]+1] - o[rs[i]])
	}
	outOffs := make([]byte, (n+1)*4)
	oo := arrow.Int32Traits.CastFromBytes(outOffs)
	out := make([]byte, 0, total)
	for i := range bs {
		o := offs[bs[i]]
		// ValueBytes starts at the first value's offset (slices of a batch keep their offsets).
		lo, hi := o[rs[i]]-o[0], o[rs[i]+1]-o[0]
		out = append(out, data[bs[i]][lo:hi]...)
		oo[i+1] = int32(len(out))
	}
	bm, nulls := v.validity(c, bs, rs)
	var vb *memory.Buffer
	if bm != nil {
		vb = memory.NewBufferBytes(bm)
	}
	d := array.NewData(dt, n, []*memory.Buffer{vb, memory.NewBufferBytes(outOffs), memory.NewBufferBytes(out)}, nil, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d)
}
