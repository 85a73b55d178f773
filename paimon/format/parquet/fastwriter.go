package parquet

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
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
	f.takeBufs()
	return f, nil
}

// start writes the magic and, with the first batch, turns the dictionary off for the columns
// whose values it would not shrink (dictionaryPays, as the general path decides).
func (f *fastFile) start(first arrow.RecordBatch) error {
	if first != nil {
		f.findMirrors(first)
		for i, c := range f.cols {
			if c.mirror != nil {
				c.useDict = c.mirror.useDict
			} else if pays, decided := dictionaryPays(first.Column(i)); decided && !pays {
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
	f.keepMirrors(rec)
	for i, c := range f.cols {
		if !c.nullable && rec.Column(i).NullN() > 0 {
			return 0, fmt.Errorf("parquet: column %q: null value in NOT NULL column", c.descr.Name())
		}
	}
	var written int64
	for off := int64(0); off < rec.NumRows(); {
		n := min(rec.NumRows()-off, maxRG-f.rgRows)
		for i, c := range f.cols {
			if c.mirror != nil {
				continue
			}
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
	for _, c := range f.cols {
		c.resetChunk()
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
	f.releaseBufs()
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
