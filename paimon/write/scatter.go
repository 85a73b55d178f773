package write

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Scattering: when every column of the table has an Arrow layout of whole-byte fixed-width values
// or 32-bit-offset STRING/BYTES, the columnar path copies each written batch's rows into their
// bucket's own column buffers at Write time, column by column while the batch is still in cache,
// and releases the batch. A flush then writes the bucket's rows from its own buffers (append
// buckets as zero-copy slices, primary-key buckets gathered in key order from the bucket alone)
// instead of gathering them out of the whole window. Rows keep arrival order inside a bucket, so
// sequence numbers, kinds and the deduplicate fold are exactly those of the gathering path.

// scatterCol is one column of a bucket's scattered rows in Arrow layout.
type scatterCol struct {
	width int     // bytes per value; 0 for STRING/BYTES
	vals  []byte  // fixed-width values, or the concatenated bytes of STRING/BYTES values
	offs  []int32 // STRING/BYTES: value offsets into vals, len = rows+1
	valid []byte  // validity bitmap; nil while no row is null
	nulls int
}

// scatterBuf is a bucket's scattered rows.
type scatterBuf struct {
	cols []scatterCol
	rows int
}

// scatterWidths returns, per column of s, the value width for the scatter path (0 = STRING/BYTES);
// ok is false when some column has another layout (booleans, nested, 64-bit offsets).
func scatterWidths(s *arrow.Schema) ([]int, bool) {
	ws := make([]int, s.NumFields())
	for i, f := range s.Fields() {
		switch f.Type.ID() {
		case arrow.STRING, arrow.BINARY:
			ws[i] = 0
			continue
		}
		fw, ok := f.Type.(arrow.FixedWidthDataType)
		if !ok || fw.BitWidth() < 8 || fw.BitWidth()%8 != 0 || f.Type.ID() == arrow.DICTIONARY || f.Type.ID() == arrow.EXTENSION {
			return nil, false
		}
		switch f.Type.ID() {
		case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
			arrow.FLOAT32, arrow.FLOAT64, arrow.DATE32, arrow.DATE64, arrow.TIME32, arrow.TIME64, arrow.TIMESTAMP,
			arrow.DECIMAL128, arrow.DECIMAL256, arrow.FIXED_SIZE_BINARY:
			ws[i] = fw.BitWidth() / 8
		default:
			return nil, false
		}
	}
	return ws, true
}

func newScatterBuf(widths []int) *scatterBuf {
	s := &scatterBuf{cols: make([]scatterCol, len(widths))}
	for i, w := range widths {
		s.cols[i].width = w
		if w == 0 {
			s.cols[i].offs = []int32{0}
		}
	}
	return s
}

// bytes is the memory the buffer holds (capacities).
func (s *scatterBuf) bytes() int64 {
	var n int64
	for i := range s.cols {
		c := &s.cols[i]
		n += int64(cap(c.vals) + 4*cap(c.offs) + cap(c.valid))
	}
	return n
}

// appendRows appends rows (indexes into col) to column c; rows is the buffer's row count before.
func (c *scatterCol) appendRows(col arrow.Array, rows []int32, before int) {
	d := col.Data()
	if c.width > 0 {
		src := d.Buffers()[1]
		w := c.width
		start := len(c.vals)
		c.vals = growBytes(c.vals, len(rows)*w)
		dst := c.vals[start:]
		if src == nil { // all null: zeros
			clear(dst)
		} else {
			b := src.Bytes()[d.Offset()*w:]
			if w == 8 {
				s64 := arrow.Int64Traits.CastFromBytes(b[:len(b)/8*8])
				d64 := arrow.Int64Traits.CastFromBytes(dst)
				for i, r := range rows {
					d64[i] = s64[r]
				}
			} else {
				for i, r := range rows {
					copy(dst[i*w:(i+1)*w], b[int(r)*w:int(r)*w+w])
				}
			}
		}
	} else {
		a := col.(interface {
			ValueOffsets() []int32
			ValueBytes() []byte
		})
		offs, data := a.ValueOffsets(), a.ValueBytes()
		base := offs[0]
		total := 0
		for _, r := range rows {
			total += int(offs[r+1] - offs[r])
		}
		c.vals = growBytes(c.vals, total)[:len(c.vals)]
		if cap(c.offs)-len(c.offs) < len(rows) {
			c.offs = append(make([]int32, 0, 2*cap(c.offs)+len(rows)), c.offs...)
		}
		end := int32(len(c.vals))
		for _, r := range rows {
			c.vals = append(c.vals, data[offs[r]-base:offs[r+1]-base]...)
			end += offs[r+1] - offs[r]
			c.offs = append(c.offs, end)
		}
	}
	if col.NullN() == 0 {
		if c.valid != nil {
			c.setValid(before, len(rows), nil)
		}
		return
	}
	c.setValid(before, len(rows), func(i int) bool { return col.IsValid(int(rows[i])) })
}

// setValid extends the validity bitmap by n rows starting at row from; valid nil means all valid.
// The bitmap is created on the first null, with every earlier row valid.
func (c *scatterCol) setValid(from, n int, valid func(int) bool) {
	need := int(bitutil.BytesForBits(int64(from + n)))
	if c.valid == nil {
		c.valid = make([]byte, need, 2*need)
		bitutil.SetBitsTo(c.valid, 0, int64(from), true)
	} else if len(c.valid) < need {
		c.valid = growBytes(c.valid, need-len(c.valid))
	}
	for i := 0; i < n; i++ {
		if valid == nil || valid(i) {
			bitutil.SetBit(c.valid, from+i)
		} else {
			bitutil.ClearBit(c.valid, from+i)
			c.nulls++
		}
	}
}

// growBytes extends b by n bytes (contents of the new bytes unspecified), doubling the capacity.
func growBytes(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b[:len(b)+n]
	}
	nb := make([]byte, len(b)+n, 2*cap(b)+n)
	copy(nb, b)
	return nb
}

// record returns the buffer's rows as one batch of schema, sharing the buffer's memory; the
// buffer must not be appended to afterwards.
func (s *scatterBuf) record(schema *arrow.Schema) arrow.RecordBatch {
	cols := make([]arrow.Array, len(s.cols))
	for i := range s.cols {
		c := &s.cols[i]
		var vb *memory.Buffer
		if c.valid != nil {
			vb = memory.NewBufferBytes(c.valid)
		}
		bufs := []*memory.Buffer{vb, memory.NewBufferBytes(c.vals)}
		if c.width == 0 {
			bufs = []*memory.Buffer{vb, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(c.offs)), memory.NewBufferBytes(c.vals)}
		}
		d := array.NewData(schema.Field(i).Type, s.rows, bufs, nil, c.nulls, 0)
		cols[i] = array.MakeFromData(d)
		d.Release()
	}
	rec := array.NewRecordBatch(schema, cols, int64(s.rows))
	for _, c := range cols {
		c.Release()
	}
	return rec
}

// scatterBatch copies the rows routed to each touched bucket (b.batchRows, indexes into rec) into
// the bucket's scatter buffer, column by column, and returns how many bytes the buffers grew.
func (w *Writer) scatterBatch(rec arrow.RecordBatch, touched []*bucketBuffer) int64 {
	var grown int64
	for _, b := range touched {
		if b.sc == nil {
			b.sc = newScatterBuf(w.scatterW)
		}
		grown -= b.sc.bytes()
	}
	for c := range w.scatterW {
		col := rec.Column(c)
		for _, b := range touched {
			b.sc.cols[c].appendRows(col, b.batchRows, b.sc.rows)
		}
	}
	for _, b := range touched {
		b.sc.rows += len(b.batchRows)
		b.batchRows = b.batchRows[:0]
		grown += b.sc.bytes()
	}
	return grown
}
