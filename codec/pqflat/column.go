package pqflat

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// column reads one flat leaf column through the chunks of the row groups read.
type column struct {
	pf     *file.Reader
	leaf   int
	groups []int
	gi     int // index in groups of the chunk being read (-1 before the first)
	dt     arrow.DataType
	width  int // bytes per Arrow value; 0 for byte arrays
	maxDef int16
	dec    valueDecoder

	pr        file.PageReader
	chunkLeft int64 // rows of the chunk not yet in a page
	dictSize  int   // -1 until the chunk's dictionary page
	seenData  bool
	p         page
	hint      int // data bytes of the previous batch
}

func newColumn(pf *file.Reader, leaf int, groups []int, dt arrow.DataType, k kind, maxDef int16) *column {
	c := &column{pf: pf, leaf: leaf, groups: groups, gi: -1, dt: dt, maxDef: maxDef}
	switch k {
	case kindI32:
		c.dec, c.width = &fixed[int32, int32]{}, 4
	case kindI8:
		c.dec, c.width = &fixed[int32, int8]{}, 1
	case kindI16:
		c.dec, c.width = &fixed[int32, int16]{}, 2
	case kindI64:
		c.dec, c.width = &fixed[int64, int64]{}, 8
	case kindF32:
		c.dec, c.width = &fixed[float32, float32]{}, 4
	case kindF64:
		c.dec, c.width = &fixed[float64, float64]{}, 8
	default:
		c.dec = &byteArrays{}
	}
	return c
}

// read decodes the next n rows into an array allocated from mem.
func (c *column) read(mem memory.Allocator, n int) (arr arrow.Array, err error) {
	o := out{n: n}
	defer func() {
		if err != nil {
			for _, b := range []*memory.Buffer{o.valid, o.vals, o.data} {
				if b != nil {
					b.Release()
				}
			}
		}
	}()
	if c.maxDef > 0 {
		o.valid = memory.NewResizableBuffer(mem)
	}
	o.vals = memory.NewResizableBuffer(mem)
	if c.width == 0 {
		o.data = memory.NewResizableBuffer(mem)
		o.data.Reserve(c.hint)
	}
	c.size(&o, min(n, firstRows))
	if c.width == 0 {
		clear(o.vals.Bytes()[:4])
	}
	nulls := 0
	for got := 0; got < n; {
		if c.p.left == 0 {
			if err := c.nextPage(); err != nil {
				return nil, err
			}
		}
		m := min(c.p.left, n-got)
		if got+m > o.rows { // a footer may declare any row count: grow with the rows the pages hold
			c.size(&o, min(n, max(got+m, 2*o.rows)))
		}
		valid := m
		if c.maxDef > 0 {
			if valid, err = c.p.levels(o.valid.Bytes(), got, m); err != nil {
				return nil, err
			}
		}
		if err := c.dec.decode(&c.p, &o, got, m, valid); err != nil {
			return nil, err
		}
		nulls += m - valid
		c.p.left -= m
		got += m
	}
	bufs := []*memory.Buffer{o.valid, o.vals}
	if o.data != nil {
		c.hint = o.data.Len()
		bufs = append(bufs, o.data)
	}
	if nulls == 0 && o.valid != nil {
		o.valid.Release()
		bufs[0] = nil
	}
	data := array.NewData(c.dt, n, bufs, nil, nulls, 0)
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
	defer data.Release()
	return array.MakeFromData(data), nil
}

// firstRows is the most rows a batch's buffers are sized for before its pages are read.
const firstRows = 1 << 16

// size resizes o's validity and value buffers for rows rows, keeping their contents.
func (c *column) size(o *out, rows int) {
	o.rows = rows
	if o.valid != nil {
		o.valid.Resize(int(bitutil.BytesForBits(int64(rows))))
	}
	if c.width > 0 {
		o.vals.Resize(rows * c.width)
	} else {
		o.vals.Resize((rows + 1) * 4)
	}
}

// nextPage moves to the next data page, through the chunk's dictionary page and on to the next
// row group's chunk.
func (c *column) nextPage() error {
	for {
		if c.chunkLeft == 0 {
			if err := c.nextChunk(); err != nil {
				return err
			}
			continue
		}
		if !c.pr.Next() {
			if err := c.pr.Err(); err != nil {
				return err
			}
			return fmt.Errorf("column chunk ends with %d of its rows missing", c.chunkLeft)
		}
		pg := c.pr.Page()
		if pg == nil {
			return errors.New("page reader returned no page")
		}
		if _, ok := pg.(*file.DictionaryPage); ok {
			if c.dictSize >= 0 || c.seenData {
				return errors.New("dictionary page after the chunk's first page")
			}
			switch parquet.Encoding(pg.Encoding()) {
			case parquet.Encodings.Plain, parquet.Encodings.PlainDict:
			default:
				return fmt.Errorf("%w: dictionary page encoded %s", ErrUnsupported, parquet.Encoding(pg.Encoding()))
			}
			n := int(pg.NumValues())
			if n < 0 {
				return fmt.Errorf("dictionary page of %d values", n)
			}
			if err := c.dec.setDict(pg.Data(), n); err != nil {
				return err
			}
			c.dictSize = n
			continue
		}
		c.seenData = true
		n := int64(pg.NumValues())
		if n < 0 || n > c.chunkLeft {
			return fmt.Errorf("data page of %d values where the row group has %d rows left", n, c.chunkLeft)
		}
		if n == 0 {
			continue
		}
		if err := c.p.set(pg, int(n), c.maxDef, c.dictSize); err != nil {
			return err
		}
		c.chunkLeft -= n
		return nil
	}
}

func (c *column) nextChunk() error {
	c.close()
	c.gi++
	if c.gi >= len(c.groups) {
		return errors.New("column has fewer rows than its row groups declare")
	}
	rg := c.pf.RowGroup(c.groups[c.gi])
	if rg.NumRows() < 0 {
		return fmt.Errorf("row group %d has %d rows", c.groups[c.gi], rg.NumRows())
	}
	if err := c.checkChunk(rg.MetaData()); err != nil {
		return err
	}
	pr, err := rg.GetColumnPageReader(c.leaf)
	if err != nil {
		return err
	}
	c.pr, c.chunkLeft, c.dictSize, c.seenData = pr, rg.NumRows(), -1, false
	c.p = page{}
	return nil
}

// checkChunk refuses a chunk that does not lie inside the file before arrow-go reads it into
// memory whole (a damaged footer may declare any size).
func (c *column) checkChunk(rg *metadata.RowGroupMetaData) error {
	cc, err := rg.ColumnChunk(c.leaf)
	if err != nil {
		return err
	}
	start, n := cc.DataPageOffset(), cc.TotalCompressedSize()
	if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 {
		start = min(start, cc.DictionaryPageOffset())
	}
	size := c.pf.MetaData().GetSourceFileSize()
	if start < 0 || n < 0 || start > size || n > size-start {
		return fmt.Errorf("column chunk at bytes %d..%d is not inside the file of %d bytes", start, start+n, size)
	}
	return nil
}

func (c *column) close() {
	if c.pr != nil {
		_ = c.pr.Close()
		c.pr = nil
	}
}
