package read

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// gatherColumn builds one column of n rows from the row ranges segs (column ci of each segment's
// batch, all of type t). Fixed-width columns (bit width a multiple of 8) and STRING/BINARY columns
// are copied buffer range by buffer range; other types are sliced and concatenated.
func gatherColumn(t arrow.DataType, segs []colSegment, ci, n int) (arrow.Array, error) {
	switch {
	case t.ID() == arrow.STRING || t.ID() == arrow.BINARY:
		return gatherBinary(t, segs, ci, n)
	default:
		if fw, ok := t.(arrow.FixedWidthDataType); ok && fw.BitWidth() >= 8 && fw.BitWidth()%8 == 0 {
			return gatherFixed(t, fw.BitWidth()/8, segs, ci, n)
		}
	}
	parts := make([]arrow.Array, len(segs))
	for k, g := range segs {
		parts[k] = array.NewSlice(g.rec.Column(ci), int64(g.start), int64(g.end))
	}
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	return array.Concatenate(parts, memAlloc)
}

// gatherValidity returns the validity bitmap of the gathered rows and their null count (nil, 0
// when no row is null).
func gatherValidity(segs []colSegment, ci, n int) (*memory.Buffer, int) {
	any := false
	for _, g := range segs {
		if g.rec.Column(ci).NullN() > 0 {
			any = true
			break
		}
	}
	if !any {
		return nil, 0
	}
	bits := make([]byte, bitutil.BytesForBits(int64(n)))
	nulls, pos := 0, 0
	for _, g := range segs {
		a := g.rec.Column(ci)
		if a.NullN() == 0 {
			bitutil.SetBitsTo(bits, int64(pos), int64(g.end-g.start), true)
			pos += g.end - g.start
			continue
		}
		for i := g.start; i < g.end; i++ {
			if a.IsValid(i) {
				bitutil.SetBit(bits, pos)
			} else {
				nulls++
			}
			pos++
		}
	}
	return memory.NewBufferBytes(bits), nulls
}

func gatherFixed(t arrow.DataType, width int, segs []colSegment, ci, n int) (arrow.Array, error) {
	out := make([]byte, n*width)
	pos := 0
	for _, g := range segs {
		d := g.rec.Column(ci).Data()
		bufs := d.Buffers()
		if len(bufs) < 2 || bufs[1] == nil {
			return nil, fmt.Errorf("column of type %s has no value buffer", t)
		}
		src := bufs[1].Bytes()
		lo, hi := (d.Offset()+g.start)*width, (d.Offset()+g.end)*width
		if hi > len(src) {
			return nil, fmt.Errorf("column of type %s: value buffer of %d bytes, want %d", t, len(src), hi)
		}
		pos += copy(out[pos:], src[lo:hi])
	}
	valid, nulls := gatherValidity(segs, ci, n)
	d := array.NewData(t, n, []*memory.Buffer{valid, memory.NewBufferBytes(out)}, nil, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

func gatherBinary(t arrow.DataType, segs []colSegment, ci, n int) (arrow.Array, error) {
	type offsetted interface{ ValueOffsets() []int32 }
	total := 0
	for _, g := range segs {
		o, ok := g.rec.Column(ci).(offsetted)
		if !ok {
			return nil, fmt.Errorf("column of type %s is a %T", t, g.rec.Column(ci))
		}
		offs := o.ValueOffsets()
		total += int(offs[g.end] - offs[g.start])
	}
	offsets := make([]int32, n+1)
	data := make([]byte, 0, total)
	pos := 0
	for _, g := range segs {
		a := g.rec.Column(ci)
		offs := a.(offsetted).ValueOffsets()
		var src []byte
		if b := a.Data().Buffers()[2]; b != nil {
			src = b.Bytes()
		}
		base := int32(len(data)) - offs[g.start]
		data = append(data, src[offs[g.start]:offs[g.end]]...)
		for i := g.start; i < g.end; i++ {
			offsets[pos+1] = offs[i+1] + base
			pos++
		}
	}
	valid, nulls := gatherValidity(segs, ci, n)
	d := array.NewData(t, n, []*memory.Buffer{valid, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets)),
		memory.NewBufferBytes(data)}, nil, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}
