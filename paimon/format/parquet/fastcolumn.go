package parquet

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/lakeload/lakeload/paimon/spec"
)

// fastColumn encodes one flat column: the current page, the current chunk's finished pages and
// dictionary, and the statistics.
type fastColumn struct {
	descr    *schema.Column
	t        spec.DataType
	nullable bool
	useDict  bool // file-level choice: chunks start dictionary-encoded
	stats    collector
	mirror   *fastColumn // the earlier column this one repeats (fastmirror.go); nil: encoded on its own
	mirrorAt int         // mirror's index in the file

	// current chunk
	dict      bool // dictionary active (until fallback)
	fellBack  bool
	dictBuf   []byte // PLAIN-encoded dictionary
	dictN     int
	dictBytes map[string]uint32
	dictFixed map[uint64]uint32
	data      []byte // finished data pages: header + (compressed) body each
	dataRaw   int64  // their uncompressed size incl. headers
	dataEnc   map[parquet.Encoding]int32
	slots     int64
	cs        chunkStats

	// current page
	defs  []uint8
	vals  []byte   // PLAIN values
	bools []uint8  // BOOLEAN values, one per byte
	idx   []uint32 // dictionary indices
	n     int      // slots in page
	raw   int      // PLAIN-equivalent value bytes in page

	wide []int32 // scratch for TINYINT/SMALLINT widening
}

func (c *fastColumn) resetChunk() {
	c.dict, c.fellBack, c.dictBuf, c.dictN = c.useDict, false, c.dictBuf[:0], 0
	c.dictBytes, c.dictFixed = nil, nil
	if c.dict {
		if c.descr.PhysicalType() == parquet.Types.ByteArray {
			c.dictBytes = map[string]uint32{}
		} else {
			c.dictFixed = map[uint64]uint32{}
		}
	}
	c.data, c.dataRaw, c.slots, c.cs = c.data[:0], 0, 0, chunkStats{}
	clear(c.dataEnc)
}

// write appends values [off, off+n) of arr in batches of fastBatch, cutting pages and falling
// back from the dictionary between batches.
func (c *fastColumn) write(arr arrow.Array, off, n int, f *fastFile) error {
	var valid []byte
	if arr.NullN() > 0 {
		valid = arr.NullBitmapBytes()
	}
	vbase := arr.Data().Offset()
	for end := off + n; off < end; {
		m := min(fastBatch, end-off)
		if err := c.put(arr, valid, vbase, off, m); err != nil {
			return err
		}
		off += m
		c.n += m
		c.slots += int64(m)
		if c.dict && !c.fellBack && len(c.dictBuf) >= fastDictLimit {
			c.flushPage(f)
			c.fellBack = true
		} else if c.raw >= fastPageSize {
			c.flushPage(f)
		}
	}
	return nil
}

func isValid(valid []byte, i int) bool { return valid == nil || valid[i>>3]&(1<<(i&7)) != 0 }

// putDefs records the definition levels of values [off, off+m).
func (c *fastColumn) putDefs(valid []byte, vbase, off, m int) {
	if !c.nullable {
		return
	}
	if valid == nil {
		for range m {
			c.defs = append(c.defs, 1)
		}
		return
	}
	for i := off; i < off+m; i++ {
		if isValid(valid, vbase+i) {
			c.defs = append(c.defs, 1)
		} else {
			c.defs = append(c.defs, 0)
			c.cs.nulls++
		}
	}
}

func (c *fastColumn) put(arr arrow.Array, valid []byte, vbase, off, m int) error {
	c.putDefs(valid, vbase, off, m)
	switch a := arr.(type) {
	case *array.Boolean:
		for i := off; i < off+m; i++ {
			if !isValid(valid, vbase+i) {
				continue
			}
			v := a.Value(i)
			b := uint8(0)
			if v {
				b, c.cs.hasTrue = 1, true
			} else {
				c.cs.hasFalse = true
			}
			c.bools = append(c.bools, b)
			c.cs.values++
		}
		c.raw += m / 8
	case *array.Int8:
		c.wide = c.wide[:0]
		for _, v := range a.Int8Values()[off : off+m] {
			c.wide = append(c.wide, int32(v))
		}
		putInts(c, c.wide, valid, vbase+off)
	case *array.Int16:
		c.wide = c.wide[:0]
		for _, v := range a.Int16Values()[off : off+m] {
			c.wide = append(c.wide, int32(v))
		}
		putInts(c, c.wide, valid, vbase+off)
	case *array.Int32:
		putInts(c, a.Int32Values()[off:off+m], valid, vbase+off)
	case *array.Date32:
		putInts(c, arrow.Int32Traits.CastFromBytes(arrow.Date32Traits.CastToBytes(a.Date32Values()))[off:off+m], valid, vbase+off)
	case *array.Time32:
		putInts(c, arrow.Int32Traits.CastFromBytes(arrow.Time32Traits.CastToBytes(a.Time32Values()))[off:off+m], valid, vbase+off)
	case *array.Int64:
		putInts(c, a.Int64Values()[off:off+m], valid, vbase+off)
	case *array.Timestamp:
		putInts(c, arrow.Int64Traits.CastFromBytes(arrow.TimestampTraits.CastToBytes(a.TimestampValues()))[off:off+m], valid, vbase+off)
	case *array.Float32:
		putFloats(c, a.Float32Values()[off:off+m], valid, vbase+off)
	case *array.Float64:
		putFloats(c, a.Float64Values()[off:off+m], valid, vbase+off)
	case *array.String:
		putBytes(c, a.ValueOffsets(), a.ValueBytes(), valid, vbase, off, m)
	case *array.Binary:
		putBytes(c, a.ValueOffsets(), a.ValueBytes(), valid, vbase, off, m)
	default:
		return fmt.Errorf("arrow %s does not match Paimon type root %d", arr.DataType(), c.t.Root)
	}
	return nil
}

// appendLE appends the low size bytes of x little-endian.
func appendLE(dst []byte, x uint64, size int) []byte {
	if size == 4 {
		return binary.LittleEndian.AppendUint32(dst, uint32(x))
	}
	return binary.LittleEndian.AppendUint64(dst, x)
}

// dictIndex returns the dictionary index of the fixed-width value with bit pattern x, adding it.
func (c *fastColumn) dictIndex(x uint64, size int) uint32 {
	if k, ok := c.dictFixed[x]; ok {
		return k
	}
	k := uint32(c.dictN)
	c.dictFixed[x] = k
	c.dictN++
	c.dictBuf = appendLE(c.dictBuf, x, size)
	return k
}

// putInts encodes integer values (vals[k] is valid iff bit vbase+k of valid is set).
func putInts[T int32 | int64](c *fastColumn, vals []T, valid []byte, vbase int) {
	size := 8
	if _, ok := any(vals).([]int32); ok {
		size = 4
	}
	mask := ^uint64(0) >> (64 - 8*size)
	cs := &c.cs
	if valid == nil && !(c.dict && !c.fellBack) && len(vals) > 0 {
		// No nulls, PLAIN: copy the Arrow buffer, then one tight min/max loop.
		switch v := any(vals).(type) {
		case []int32:
			c.vals = append(c.vals, arrow.Int32Traits.CastToBytes(v)...)
		case []int64:
			c.vals = append(c.vals, arrow.Int64Traits.CastToBytes(v)...)
		}
		lo, hi := vals[0], vals[0]
		for _, v := range vals[1:] {
			lo, hi = min(lo, v), max(hi, v)
		}
		widenRange(&cs.any, &cs.imin, &cs.imax, int64(lo), int64(hi))
		cs.values += int64(len(vals))
		c.raw += size * len(vals)
		return
	}
	for k, v := range vals {
		if !isValid(valid, vbase+k) {
			continue
		}
		x := int64(v)
		if !cs.any {
			cs.imin, cs.imax, cs.any = x, x, true
		} else if x < cs.imin {
			cs.imin = x
		} else if x > cs.imax {
			cs.imax = x
		}
		cs.values++
		c.raw += size
		if c.dict && !c.fellBack {
			c.idx = append(c.idx, c.dictIndex(uint64(x)&mask, size))
		} else {
			c.vals = appendLE(c.vals, uint64(x)&mask, size)
		}
	}
}

// putFloats encodes FLOAT/DOUBLE values; NaN is encoded but kept out of min/max.
func putFloats[T float32 | float64](c *fastColumn, vals []T, valid []byte, vbase int) {
	size := 8
	if _, ok := any(vals).([]float32); ok {
		size = 4
	}
	cs := &c.cs
	if valid == nil && !(c.dict && !c.fellBack) {
		// No nulls, PLAIN: copy the Arrow buffer, then one min/max loop.
		switch v := any(vals).(type) {
		case []float32:
			c.vals = append(c.vals, arrow.Float32Traits.CastToBytes(v)...)
		case []float64:
			c.vals = append(c.vals, arrow.Float64Traits.CastToBytes(v)...)
		}
		for _, v := range vals {
			cs.addFloat(float64(v))
		}
		cs.values += int64(len(vals))
		c.raw += size * len(vals)
		return
	}
	for k, v := range vals {
		if !isValid(valid, vbase+k) {
			continue
		}
		cs.addFloat(float64(v))
		cs.values++
		c.raw += size
		var b uint64
		if size == 4 {
			b = uint64(math.Float32bits(float32(v)))
		} else {
			b = math.Float64bits(float64(v))
		}
		if c.dict && !c.fellBack {
			c.idx = append(c.idx, c.dictIndex(b, size))
		} else {
			c.vals = appendLE(c.vals, b, size)
		}
	}
}

// putBytes encodes BYTE_ARRAY values [off, off+m) given by Arrow offsets and value bytes.
func putBytes(c *fastColumn, offs []int32, data []byte, valid []byte, vbase, off, m int) {
	base := offs[0]
	cs := &c.cs
	dict := c.dict && !c.fellBack
	for i := off; i < off+m; i++ {
		if !isValid(valid, vbase+i) {
			continue
		}
		v := data[offs[i]-base : offs[i+1]-base]
		cs.values++
		c.raw += 4 + len(v)
		if dict {
			k, ok := c.dictBytes[string(v)]
			if !ok {
				k = uint32(c.dictN)
				c.dictBytes[string(v)] = k
				c.dictN++
				c.dictBuf = binary.LittleEndian.AppendUint32(c.dictBuf, uint32(len(v)))
				c.dictBuf = append(c.dictBuf, v...)
				cs.addBytes(v)
			}
			c.idx = append(c.idx, k)
			continue
		}
		cs.addBytes(v)
		c.vals = binary.LittleEndian.AppendUint32(c.vals, uint32(len(v)))
		c.vals = append(c.vals, v...)
	}
}

// dictBitWidth is the index bit width of a dictionary of n entries (at least 1).
func dictBitWidth(n int) int { return max(1, bits.Len(uint(max(n, 1)-1))) }

// flushPage encodes the current page as a v1 data page (definition levels RLE with a 4-byte
// length, values PLAIN or RLE_DICTIONARY) and appends it to the chunk.
func (c *fastColumn) flushPage(f *fastFile) {
	if c.n == 0 {
		return
	}
	body := f.page[:0]
	if c.nullable {
		body = append(body, 0, 0, 0, 0)
		body = appendHybrid(body, c.defs, 1)
		binary.LittleEndian.PutUint32(body, uint32(len(body)-4))
	}
	enc := parquet.Encodings.Plain
	switch {
	case c.dict && !c.fellBack:
		enc = parquet.Encodings.RLEDict
		bw := dictBitWidth(c.dictN)
		body = append(body, byte(bw))
		body = appendHybrid(body, c.idx, bw)
	case c.descr.PhysicalType() == parquet.Types.Boolean:
		body = appendBitPacked(body, c.bools, len(c.bools), 1)
	default:
		body = append(body, c.vals...)
	}
	f.page = body
	comp := f.compress(body)
	start := len(c.data)
	c.data = appendDataPageHeader(c.data, len(body), len(comp), c.n, int32(enc))
	c.dataRaw += int64(len(c.data)-start) + int64(len(body))
	c.data = append(c.data, comp...)
	c.dataEnc[enc]++
	c.defs, c.vals, c.bools, c.idx, c.n, c.raw = c.defs[:0], c.vals[:0], c.bools[:0], c.idx[:0], 0, 0
}

// finishChunk writes the chunk (dictionary page first) to the file, fills its metadata and
// statistics, and folds its statistics into the file's.
// The chunk's buffers stay until resetChunk, so that a mirror column can write them again.
func (c *fastColumn) finishChunk(f *fastFile, cc *metadata.ColumnChunkMetaDataBuilder) error {
	s := c.chunk()
	if s == c {
		c.flushPage(f)
	}
	start := f.out.N
	info := metadata.ChunkMetaInfo{NumValues: s.slots, IndexPageOffset: -1, DataPageOffset: start}
	var enc metadata.EncodingStats
	enc.DataEncodingStats = s.dataEnc
	if s.dict {
		comp := f.compress(s.dictBuf)
		hdr := appendDictPageHeader(nil, len(s.dictBuf), len(comp), s.dictN)
		if _, err := f.out.Write(hdr); err != nil {
			return err
		}
		if _, err := f.out.Write(comp); err != nil {
			return err
		}
		info.DictPageOffset = start
		info.DataPageOffset = f.out.N
		info.CompressedSize = int64(len(hdr) + len(comp))
		info.UncompressedSize = int64(len(hdr) + len(s.dictBuf))
		enc.DictEncodingStats = map[parquet.Encoding]int32{parquet.Encodings.Plain: 1}
	}
	if _, err := f.out.Write(s.data); err != nil {
		return err
	}
	info.CompressedSize += int64(len(s.data))
	info.UncompressedSize += s.dataRaw
	if st, err := c.parquetStats(&s.cs); err != nil {
		return err
	} else if st.IsSet() {
		cc.SetStats(st)
	}
	if err := cc.Finish(info, s.dict, s.fellBack, enc); err != nil {
		return err
	}
	c.foldStats(&s.cs)
	return nil
}
