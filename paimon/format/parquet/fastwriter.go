package parquet

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
)

// Page and dictionary limits of the fast path: arrow-go's defaults, which the general path uses.
const (
	fastPageSize      = int(parquet.DefaultDataPageSize)            // raw (PLAIN-equivalent) bytes per data page
	fastDictLimit     = int(parquet.DefaultDictionaryPageSizeLimit) // dictionary bytes before PLAIN fallback
	fastBatch         = 1024                                        // values between page/dictionary checks
	fastMaxStatsBytes = 4096                                        // arrow-go's DefaultMaxStatsSize
)

var parMagic = []byte("PAR1")

// fastSupported reports whether every field is a flat atomic column the fast path encodes:
// BOOLEAN, INT32 (TINYINT, SMALLINT, INT, DATE, TIME), INT64 (BIGINT, TIMESTAMP p<=6), FLOAT,
// DOUBLE and BYTE_ARRAY (CHAR, VARCHAR, BINARY, VARBINARY). DECIMAL, INT96 timestamps and
// nested types take the general path.
func fastSupported(fields []spec.DataField, sc *schema.Schema) bool {
	if sc.NumColumns() != len(fields) {
		return false
	}
	for i, f := range fields {
		if !f.Type.IsAtomic() || f.Type.Root == spec.Decimal {
			return false
		}
		c := sc.Column(i)
		if c.MaxRepetitionLevel() != 0 || c.MaxDefinitionLevel() > 1 {
			return false
		}
		switch c.PhysicalType() {
		case parquet.Types.Boolean, parquet.Types.Int32, parquet.Types.Int64,
			parquet.Types.Float, parquet.Types.Double, parquet.Types.ByteArray:
		default:
			return false
		}
	}
	return true
}

// fastFile writes a data file of flat atomic columns: values go straight from the Arrow buffers
// into PLAIN or dictionary pages, statistics (Paimon's and the footer's) are taken in the same
// pass, and each row group is buffered in memory like the general path's BufferedRowGroupWriter.
type fastFile struct {
	out     *fileio.CountingWriter
	schema  *schema.Schema
	props   *parquet.WriterProperties
	meta    *metadata.FileMetaDataBuilder
	codec   compress.Codec // nil: uncompressed
	level   int
	cols    []*fastColumn
	started bool
	rgRows  int64
	ordinal int16
	page    []byte // scratch: one page body
	comp    []byte // scratch: one compressed page body
}

func newFastFile(out *fileio.CountingWriter, fields []spec.DataField, sc *schema.Schema, props []parquet.WriterProperty, codecType compress.Compression, level int) (*fastFile, error) {
	f := &fastFile{out: out, schema: sc, props: parquet.NewWriterProperties(props...), level: level}
	if codecType != compress.Codecs.Uncompressed {
		c, err := compress.GetCodec(codecType)
		if err != nil {
			return nil, fmt.Errorf("parquet: %w", err)
		}
		f.codec = c
	}
	f.meta = metadata.NewFileMetadataBuilder(sc, f.props, nil)
	for i, fd := range fields {
		c := &fastColumn{
			descr:    sc.Column(i),
			t:        fd.Type,
			nullable: sc.Column(i).MaxDefinitionLevel() == 1,
			stats:    newCollector(fd.Type),
			dataEnc:  map[parquet.Encoding]int32{},
		}
		c.useDict = c.descr.PhysicalType() != parquet.Types.Boolean
		f.cols = append(f.cols, c)
	}
	return f, nil
}

// start writes the magic and, with the first batch, turns the dictionary off for the columns
// whose values it would not shrink (dictionaryPays, as the general path decides).
func (f *fastFile) start(first arrow.RecordBatch) error {
	if first != nil {
		for i, c := range f.cols {
			if pays, decided := dictionaryPays(first.Column(i)); decided && !pays {
				c.useDict = false
			}
		}
	}
	for _, c := range f.cols {
		c.resetChunk()
	}
	f.started = true
	if _, err := f.out.Write(parMagic); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	return nil
}

// write appends rec (types already checked), closing a row group every maxRG rows.
func (f *fastFile) write(rec arrow.RecordBatch, maxRG int64) (int64, error) {
	if !f.started {
		if err := f.start(rec); err != nil {
			return 0, err
		}
	}
	for i, c := range f.cols {
		if !c.nullable && rec.Column(i).NullN() > 0 {
			return 0, fmt.Errorf("parquet: column %q: null value in NOT NULL column", c.descr.Name())
		}
	}
	var written int64
	for off := int64(0); off < rec.NumRows(); {
		n := min(rec.NumRows()-off, maxRG-f.rgRows)
		for i, c := range f.cols {
			if err := c.write(rec.Column(i), int(off), int(n), f); err != nil {
				return written, fmt.Errorf("parquet: column %q: %w", c.descr.Name(), err)
			}
		}
		off += n
		f.rgRows += n
		written += n
		if f.rgRows >= maxRG {
			if err := f.flushRowGroup(); err != nil {
				return written, err
			}
		}
	}
	return written, nil
}

// flushRowGroup writes the buffered column chunks and their metadata.
func (f *fastFile) flushRowGroup() error {
	rg := f.meta.AppendRowGroup()
	for _, c := range f.cols {
		if err := c.finishChunk(f, rg.NextColumnChunk()); err != nil {
			return fmt.Errorf("parquet: column %q: %w", c.descr.Name(), err)
		}
	}
	rg.SetNumRows(int(f.rgRows))
	if err := rg.Finish(0, f.ordinal); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	f.ordinal++
	f.rgRows = 0
	return nil
}

// close flushes the last row group and writes the footer.
func (f *fastFile) close() error {
	if !f.started {
		if err := f.start(nil); err != nil {
			return err
		}
	}
	if f.rgRows > 0 {
		if err := f.flushRowGroup(); err != nil {
			return err
		}
	}
	md, err := f.meta.Finish()
	if err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	n, err := md.WriteTo(f.out, nil)
	if err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	tail := binary.LittleEndian.AppendUint32(nil, uint32(n))
	if _, err := f.out.Write(append(tail, parMagic...)); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	return nil
}

// compress returns body compressed with the file's codec (body itself when uncompressed).
func (f *fastFile) compress(body []byte) []byte {
	if f.codec == nil {
		return body
	}
	bound := int(f.codec.CompressBound(int64(len(body))))
	if cap(f.comp) < bound {
		f.comp = make([]byte, 0, bound)
	}
	f.comp = f.codec.EncodeLevel(f.comp[:0], body, f.level)
	return f.comp
}

// chunkStats are the statistics of the values of one column chunk, kept in the physical type.
type chunkStats struct {
	nulls, values     int64
	any               bool // a non-NaN value was seen
	nan               bool
	imin, imax        int64
	fmin, fmax        float64
	bmin, bmax        []byte
	hasFalse, hasTrue bool
}

// fastColumn encodes one flat column: the current page, the current chunk's finished pages and
// dictionary, and the statistics.
type fastColumn struct {
	descr    *schema.Column
	t        spec.DataType
	nullable bool
	useDict  bool // file-level choice: chunks start dictionary-encoded
	stats    collector

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
		if !cs.any {
			cs.imin, cs.imax, cs.any = int64(lo), int64(hi), true
		} else {
			cs.imin, cs.imax = min(cs.imin, int64(lo)), max(cs.imax, int64(hi))
		}
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

// addFloat widens the chunk's min/max (Java's order, -0.0 < +0.0) to x; NaN only sets nan.
func (cs *chunkStats) addFloat(x float64) {
	if x != x {
		cs.nan = true
	} else if !cs.any {
		cs.fmin, cs.fmax, cs.any = x, x, true
	} else {
		if floatLess(x, cs.fmin) {
			cs.fmin = x
		}
		if floatLess(cs.fmax, x) {
			cs.fmax = x
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

// addBytes widens the chunk's byte-wise unsigned min/max to v (copied when kept).
func (cs *chunkStats) addBytes(v []byte) {
	if !cs.any {
		cs.bmin, cs.bmax, cs.any = setBytes(cs.bmin, v), setBytes(cs.bmax, v), true
		return
	}
	if string(v) < string(cs.bmin) {
		cs.bmin = setBytes(cs.bmin, v)
	} else if string(v) > string(cs.bmax) {
		cs.bmax = setBytes(cs.bmax, v)
	}
}

// setBytes copies v into dst's storage; the result is never nil (an empty value is a value).
func setBytes(dst, v []byte) []byte {
	if dst == nil {
		dst = make([]byte, 0, len(v))
	}
	return append(dst[:0], v...)
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
func (c *fastColumn) finishChunk(f *fastFile, cc *metadata.ColumnChunkMetaDataBuilder) error {
	c.flushPage(f)
	start := f.out.N
	info := metadata.ChunkMetaInfo{NumValues: c.slots, IndexPageOffset: -1, DataPageOffset: start}
	var enc metadata.EncodingStats
	enc.DataEncodingStats = c.dataEnc
	if c.dict {
		comp := f.compress(c.dictBuf)
		hdr := appendDictPageHeader(nil, len(c.dictBuf), len(comp), c.dictN)
		if _, err := f.out.Write(hdr); err != nil {
			return err
		}
		if _, err := f.out.Write(comp); err != nil {
			return err
		}
		info.DictPageOffset = start
		info.DataPageOffset = f.out.N
		info.CompressedSize = int64(len(hdr) + len(comp))
		info.UncompressedSize = int64(len(hdr) + len(c.dictBuf))
		enc.DictEncodingStats = map[parquet.Encoding]int32{parquet.Encodings.Plain: 1}
	}
	if _, err := f.out.Write(c.data); err != nil {
		return err
	}
	info.CompressedSize += int64(len(c.data))
	info.UncompressedSize += c.dataRaw
	if st, err := c.parquetStats(); err != nil {
		return err
	} else if st.IsSet() {
		cc.SetStats(st)
	}
	if err := cc.Finish(info, c.dict, c.fellBack, enc); err != nil {
		return err
	}
	c.foldStats()
	c.resetChunk()
	return nil
}

// parquetStats are the chunk's footer statistics, made by arrow-go's own statistics type from the
// chunk's min/max so that they are exactly what the general path writes.
func (c *fastColumn) parquetStats() (metadata.EncodedStatistics, error) {
	ts := metadata.NewStatistics(c.descr, memory.DefaultAllocator)
	ts.IncNulls(c.cs.nulls)
	ts.IncNumValues(c.cs.values)
	cs := &c.cs
	switch s := ts.(type) {
	case *metadata.BooleanStatistics:
		if cs.hasFalse || cs.hasTrue {
			s.SetMinMax(!cs.hasFalse, cs.hasTrue)
		}
	case *metadata.Int32Statistics:
		if cs.any {
			s.SetMinMax(int32(cs.imin), int32(cs.imax))
		}
	case *metadata.Int64Statistics:
		if cs.any {
			s.SetMinMax(cs.imin, cs.imax)
		}
	case *metadata.Float32Statistics:
		if cs.any {
			s.SetMinMax(float32(cs.fmin), float32(cs.fmax))
		}
	case *metadata.Float64Statistics:
		if cs.any {
			s.SetMinMax(cs.fmin, cs.fmax)
		}
	case *metadata.ByteArrayStatistics:
		if cs.any {
			s.SetMinMax(cs.bmin, cs.bmax)
		}
	}
	st, err := ts.Encode()
	if err != nil {
		return st, err
	}
	st.ApplyStatSizeLimits(fastMaxStatsBytes)
	st.Signed = c.descr.SortOrder() == schema.SortSIGNED
	return st, nil
}

// foldRange merges the chunk's integer range into a collector's (any: the collector has one).
func foldRange(any *bool, lo, hi *int64, cs *chunkStats) {
	switch {
	case !cs.any:
	case !*any:
		*lo, *hi, *any = cs.imin, cs.imax, true
	default:
		*lo, *hi = min(*lo, cs.imin), max(*hi, cs.imax)
	}
}

// foldStats merges the chunk's statistics into the file's Paimon statistics (stats.go semantics).
func (c *fastColumn) foldStats() {
	cs := &c.cs
	switch p := c.stats.(type) {
	case *boolCollector:
		p.nulls += cs.nulls
		p.hasFalse = p.hasFalse || cs.hasFalse
		p.hasTrue = p.hasTrue || cs.hasTrue
	case *intCollector:
		p.nulls += cs.nulls
		foldRange(&p.any, &p.min, &p.max, cs)
	case *timestampCollector:
		p.nulls += cs.nulls
		foldRange(&p.any, &p.min, &p.max, cs)
	case *floatCollector:
		p.nulls += cs.nulls
		p.nan = p.nan || cs.nan
		if cs.any {
			p.add(cs.fmin)
			p.add(cs.fmax)
		}
	case *bytesCollector:
		p.nulls += cs.nulls
		if cs.any {
			if !p.any || string(cs.bmin) < string(p.min) {
				p.min = setBytes(p.min, cs.bmin)
			}
			if !p.any || string(cs.bmax) > string(p.max) {
				p.max = setBytes(p.max, cs.bmax)
			}
			p.any = true
		}
	case *nullCollector:
		p.nulls += cs.nulls
	}
}
