package parquet

import (
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/spec"
)

// DefaultRowGroupRows is the row-group size used when WriterOptions.RowGroupRows is 0.
const DefaultRowGroupRows = 1 << 20

// WriterOptions configures a Writer. The zero value is Paimon's default (zstd level 1).
type WriterOptions struct {
	// Compression is Paimon's file.compression: "zstd" (default when empty), "snappy", "gzip",
	// or "none"/"uncompressed".
	Compression string
	// ZstdLevel is file.compression.zstd-level; 0 means Paimon's default 1.
	ZstdLevel int
	// RowGroupRows caps the rows of one row group; 0 means DefaultRowGroupRows.
	RowGroupRows int64

	general bool // tests: use the general (arrow-go column writer) path even where the fast path applies
}

// FileStats describes a finished data file.
type FileStats struct {
	RowCount int64
	FileSize int64         // exact number of bytes written to the io.Writer
	Columns  []ColumnStats // one per field, in field order
}

// ColumnStats are a column's value statistics as Paimon stores them (SimpleColStats).
type ColumnStats struct {
	Min, Max  any // Datums (spec/types.go); nil if unknown, all null, or not atomic
	NullCount int64
}

// Writer writes one Paimon Parquet data file. It buffers the current row group in memory and
// never closes the io.Writer it was given: the caller owns it and closes it after Close.
type Writer struct {
	fields    []spec.DataField
	plans     []*lnode
	leafStart []int
	stats     []collector
	out       *fileio.CountingWriter
	schema    *schema.Schema
	props     []parquet.WriterProperty
	fast      *fastFile    // non-nil: every column is flat and atomic (fastwriter.go)
	fw        *file.Writer // created by the first Write (see start) or by Close
	rgw       file.BufferedRowGroupWriter
	rgRows    int64
	maxRG     int64
	rows      int64
	err       error
	closed    bool
}

func compression(opts WriterOptions) (compress.Compression, int, error) {
	switch strings.ToLower(opts.Compression) {
	case "", "zstd":
		level := opts.ZstdLevel
		if level == 0 {
			level = 1
		}
		return compress.Codecs.Zstd, level, nil
	case "snappy":
		return compress.Codecs.Snappy, compress.DefaultCompressionLevel, nil
	case "gzip":
		return compress.Codecs.Gzip, compress.DefaultCompressionLevel, nil
	case "none", "uncompressed":
		return compress.Codecs.Uncompressed, compress.DefaultCompressionLevel, nil
	}
	return 0, 0, fmt.Errorf("parquet: unsupported compression %q", opts.Compression)
}

// NewWriter starts a data file with the given fields (Java's physical layout, see the package doc).
func NewWriter(w io.Writer, fields []spec.DataField, opts WriterOptions) (*Writer, error) {
	sc, err := ParquetSchema(fields)
	if err != nil {
		return nil, fmt.Errorf("parquet: %w", err)
	}
	codec, level, err := compression(opts)
	if err != nil {
		return nil, err
	}
	props := []parquet.WriterProperty{
		parquet.WithCompression(codec),
		parquet.WithCompressionLevel(level),
		parquet.WithDataPageVersion(parquet.DataPageV1),
		parquet.WithEncoding(parquet.Encodings.Plain),
		parquet.WithDictionaryDefault(true),
		parquet.WithCreatedBy("lakeload"),
	}
	wr := &Writer{fields: fields, out: &fileio.CountingWriter{W: w}, schema: sc, props: props, maxRG: opts.RowGroupRows}
	if wr.maxRG <= 0 {
		wr.maxRG = DefaultRowGroupRows
	}
	leaves := 0
	for _, f := range fields {
		p, err := planNode(f.Type, 0, 0)
		if err != nil {
			return nil, fmt.Errorf("parquet: field %q: %w", f.Name, err)
		}
		wr.plans = append(wr.plans, p)
		wr.leafStart = append(wr.leafStart, leaves)
		leaves += len(p.leaves)
		wr.stats = append(wr.stats, newCollector(f.Type))
	}
	if leaves != sc.NumColumns() {
		return nil, fmt.Errorf("parquet: internal: %d planned leaves for %d columns", leaves, sc.NumColumns())
	}
	if fastSupported(fields, sc) && !opts.general {
		if wr.fast, err = newFastFile(wr.out, fields, sc, props, codec, level); err != nil {
			return nil, err
		}
	}
	return wr, nil
}

// start creates the file writer. With first (the first batch written) it turns the dictionary off
// for each top-level atomic column whose values it would not shrink (dictionaryPays): building the
// dictionary of a column of distinct values costs more CPU than the rest of its encoding.
func (w *Writer) start(first arrow.RecordBatch) error {
	props := w.props
	if first != nil {
		for i, p := range w.plans {
			if p.leaf == nil {
				continue
			}
			if pays, decided := dictionaryPays(first.Column(i)); decided && !pays {
				props = append(props[:len(props):len(props)], parquet.WithDictionaryFor(w.schema.Column(w.leafStart[i]).Path(), false))
			}
		}
	}
	fw, err := file.NewParquetWriterWithError(w.out, w.schema.Root(), file.WithWriterProps(parquet.NewWriterProperties(props...)))
	if err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	w.fw = fw
	return nil
}

// Write appends rec, whose columns are the fields in order with the Arrow types of ArrowType
// (names are not checked). An error leaves the file unusable; the caller must discard it.
func (w *Writer) Write(rec arrow.RecordBatch) error {
	if w.closed {
		return fmt.Errorf("parquet: write after Close")
	}
	if w.err != nil {
		return w.err
	}
	if err := w.write(rec); err != nil {
		w.err = err
		return err
	}
	return nil
}

func (w *Writer) write(rec arrow.RecordBatch) error {
	if int(rec.NumCols()) != len(w.fields) {
		return fmt.Errorf("parquet: record has %d columns, file has %d fields", rec.NumCols(), len(w.fields))
	}
	for i, f := range w.fields {
		if err := checkArrowType(f.Type, rec.Column(i).DataType()); err != nil {
			return fmt.Errorf("parquet: column %d (%q): %w", i, f.Name, err)
		}
	}
	if w.fast != nil {
		n, err := w.fast.write(rec, w.maxRG)
		w.rows += n
		return err
	}
	if w.fw == nil {
		if err := w.start(rec); err != nil {
			return err
		}
	}
	for i := range w.fields {
		w.stats[i].collect(rec.Column(i))
	}
	for off := int64(0); off < rec.NumRows(); {
		if w.rgw == nil {
			rgw, err := w.fw.AppendBufferedRowGroupChecked()
			if err != nil {
				return fmt.Errorf("parquet: %w", err)
			}
			w.rgw, w.rgRows = rgw, 0
		}
		n := min(rec.NumRows()-off, w.maxRG-w.rgRows)
		part := rec
		if off != 0 || n != rec.NumRows() {
			part = rec.NewSlice(off, off+n)
		}
		err := w.writeChunk(part)
		if part != rec {
			part.Release()
		}
		if err != nil {
			return err
		}
		off += n
		w.rgRows += n
		w.rows += n
		if w.rgRows >= w.maxRG {
			if err := w.rgw.Close(); err != nil {
				return fmt.Errorf("parquet: %w", err)
			}
			w.rgw = nil
		}
	}
	return nil
}

func (w *Writer) writeChunk(rec arrow.RecordBatch) error {
	for i, p := range w.plans {
		if err := p.shredTop(rec.Column(i)); err != nil {
			return fmt.Errorf("parquet: column %q: %w", w.fields[i].Name, err)
		}
		for k, l := range p.leaves {
			cw, err := w.rgw.Column(w.leafStart[i] + k)
			if err != nil {
				return fmt.Errorf("parquet: column %q: %w", w.fields[i].Name, err)
			}
			if err := writeLeaf(cw, l); err != nil {
				return fmt.Errorf("parquet: column %q: %w", w.fields[i].Name, err)
			}
			l.reset()
		}
	}
	return nil
}

// Close flushes the last row group and the footer and returns the file's statistics. It does
// not close the io.Writer given to NewWriter. Calling Close twice is an error.
func (w *Writer) Close() (FileStats, error) {
	if w.closed {
		return FileStats{}, fmt.Errorf("parquet: Close called twice")
	}
	w.closed = true
	if w.err != nil {
		return FileStats{}, w.err
	}
	if w.fast != nil {
		if err := w.fast.close(); err != nil {
			return FileStats{}, err
		}
		st := FileStats{RowCount: w.rows, FileSize: w.out.N, Columns: make([]ColumnStats, len(w.fast.cols))}
		for i, c := range w.fast.cols {
			st.Columns[i] = c.stats.result()
		}
		return st, nil
	}
	if w.fw == nil {
		if err := w.start(nil); err != nil {
			return FileStats{}, err
		}
	}
	if w.rgw != nil {
		if err := w.rgw.Close(); err != nil {
			return FileStats{}, fmt.Errorf("parquet: %w", err)
		}
		w.rgw = nil
	}
	if err := w.fw.Close(); err != nil {
		return FileStats{}, fmt.Errorf("parquet: %w", err)
	}
	st := FileStats{RowCount: w.rows, FileSize: w.out.N, Columns: make([]ColumnStats, len(w.stats))}
	for i, c := range w.stats {
		st.Columns[i] = c.result()
	}
	return st, nil
}

// checkArrowType verifies that dt has the shape and units of arrowconv.ArrowType(t); names and
// nullability flags are not compared (nulls are checked value by value).
func checkArrowType(t spec.DataType, dt arrow.DataType) error {
	want, err := arrowconv.ArrowType(t)
	if err != nil {
		return err
	}
	if !sameShape(want, dt) {
		return fmt.Errorf("arrow type %s, want %s", dt, want)
	}
	return nil
}

func sameShape(a, b arrow.DataType) bool {
	if a.ID() != b.ID() {
		return false
	}
	switch a := a.(type) {
	case *arrow.TimestampType:
		bt := b.(*arrow.TimestampType)
		return a.Unit == bt.Unit && a.TimeZone == bt.TimeZone
	case *arrow.Time32Type:
		return a.Unit == b.(*arrow.Time32Type).Unit
	case *arrow.Decimal128Type:
		bt := b.(*arrow.Decimal128Type)
		return a.Precision == bt.Precision && a.Scale == bt.Scale
	case *arrow.MapType:
		bt := b.(*arrow.MapType)
		return sameShape(a.KeyType(), bt.KeyType()) && sameShape(a.ItemType(), bt.ItemType())
	case *arrow.ListType:
		return sameShape(a.Elem(), b.(*arrow.ListType).Elem())
	case *arrow.StructType:
		bt := b.(*arrow.StructType)
		if a.NumFields() != bt.NumFields() {
			return false
		}
		for i := range a.Fields() {
			if !sameShape(a.Field(i).Type, bt.Field(i).Type) {
				return false
			}
		}
	}
	return true
}
