package write

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/format/parquet"
	"github.com/lakeload/lakeload/paimon/mergetree"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

// Java's special field ids (SpecialFields): key columns are offset, system columns fixed.
const (
	keyFieldIDStart    = 1073741823
	sequenceFieldID    = 2147483646
	valueKindFieldID   = 2147483645
	keyFieldPrefix     = "_KEY_"
	sequenceFieldName  = "_SEQUENCE_NUMBER"
	valueKindFieldName = "_VALUE_KIND"
)

// PhysicalFields returns the columns of a data file of a table with the given schema:
// for primary-key tables _KEY_<pk>…, _SEQUENCE_NUMBER, _VALUE_KIND, then every table column.
func PhysicalFields(s *spec.TableSchema) ([]spec.DataField, error) {
	if len(s.PrimaryKeys) == 0 {
		return s.Fields, nil
	}
	keys, err := s.FieldsByName(s.TrimmedPrimaryKeys())
	if err != nil {
		return nil, err
	}
	out := make([]spec.DataField, 0, len(keys)+2+len(s.Fields))
	for _, k := range keys {
		kt := k.Type
		kt.Nullable = false
		out = append(out, spec.DataField{ID: keyFieldIDStart + k.ID, Name: keyFieldPrefix + k.Name, Type: kt})
	}
	out = append(out,
		spec.DataField{ID: sequenceFieldID, Name: sequenceFieldName, Type: spec.DataType{Root: spec.BigInt}},
		spec.DataField{ID: valueKindFieldID, Name: valueKindFieldName, Type: spec.DataType{Root: spec.TinyInt}})
	return append(out, s.Fields...), nil
}

// flush writes the buffered rows of one bucket as level-0 files.
func (w *Writer) flush(ctx context.Context, b *bucketBuffer) error {
	if len(b.rows) == 0 {
		return nil
	}
	n := len(b.rows)
	recs := make([]mergetree.KeyValue, n)
	for i, row := range b.rows {
		recs[i] = mergetree.KeyValue{Seq: b.seqs[i], Kind: b.kinds[i], Value: row}
		if w.merge != nil {
			key := make([]any, len(w.keyIdx))
			for j, p := range w.keyIdx {
				key[j] = row[p]
			}
			recs[i].Key = key
		}
	}
	b.rows, b.kinds, b.seqs = nil, nil, nil
	if w.merge != nil {
		var err error
		if recs, err = mergetree.Fold(w.merge, recs); err != nil {
			return fmt.Errorf("fold bucket %d: %w", b.bucket, err)
		}
	}
	return w.writeFiles(ctx, b, recs)
}

// writeFiles writes records (already sorted and folded for PK tables) into files rolled at target-file-size.
func (w *Writer) writeFiles(ctx context.Context, b *bucketBuffer, recs []mergetree.KeyValue) error {
	target := w.t.Options.TargetFileSize(w.merge != nil)
	return w.rollFiles(ctx, b, len(recs), chunkRows(target, recs), target, func(f *fileWriter, start, end int) error {
		return f.write(recs[start:end])
	})
}

// rollFiles writes rows [0, n) of bucket b in row groups of chunk rows (write writes one group),
// rolling to a new data file once a file reaches target bytes.
func (w *Writer) rollFiles(ctx context.Context, b *bucketBuffer, n, chunk int, target int64, write func(f *fileWriter, start, end int) error) error {
	for start := 0; start < n; {
		f, err := w.newFile(ctx, b, chunk)
		if err != nil {
			return err
		}
		for start < n {
			end := min(start+chunk, n)
			if err := write(f, start, end); err != nil {
				f.abort()
				return err
			}
			start = end
			if f.cw.N >= target {
				break
			}
		}
		meta, err := f.finish()
		if err != nil {
			return err
		}
		b.files = append(b.files, meta)
	}
	return nil
}

// chunkRows picks how many rows go into one row group so that files roll close to target.
func chunkRows(target int64, recs []mergetree.KeyValue) int {
	sample := min(len(recs), 256)
	var bytes int64
	for _, r := range recs[:sample] {
		bytes += rowSize(r.Value)
	}
	avg := max(1, bytes/int64(max(1, sample)))
	// Parquet compresses; assume about 4x so a chunk is roughly a quarter of the target on disk.
	rows := target * 4 / avg / 4
	return int(min(max(rows, 1), 65536))
}

type fileWriter struct {
	w        *Writer
	b        *bucketBuffer
	name     string
	path     string
	out      fileio.Writer
	cw       *fileio.CountingWriter
	pw       *parquet.Writer
	fields   []spec.DataField
	schema   *arrow.Schema
	rows     int64
	deletes  int64
	minSeq   int64
	maxSeq   int64
	firstKey []any
	lastKey  []any
}

func (w *Writer) newFile(ctx context.Context, b *bucketBuffer, chunk int) (*fileWriter, error) {
	fields, err := PhysicalFields(w.t.Schema)
	if err != nil {
		return nil, err
	}
	schema, err := arrowconv.ArrowSchema(fields)
	if err != nil {
		return nil, err
	}
	dir, err := w.paths.BucketDir(b.partition, b.bucket)
	if err != nil {
		return nil, err
	}
	name := w.paths.NewDataFileName()
	path := fileio.Join(dir, name)
	out, err := w.t.FS.Create(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("create data file %s: %w", path, err)
	}
	cw := &fileio.CountingWriter{W: out}
	o := w.t.Options
	pw, err := parquet.NewWriter(cw, fields, parquet.WriterOptions{
		Compression: o.FileCompression(), ZstdLevel: o.ZstdLevel(), RowGroupRows: int64(chunk)})
	if err != nil {
		_ = out.Abort()
		return nil, err
	}
	w.writtenMu.Lock()
	w.written = append(w.written, path)
	w.writtenMu.Unlock()
	return &fileWriter{w: w, b: b, name: name, path: path, out: out, cw: cw, pw: pw, fields: fields, schema: schema, minSeq: -1}, nil
}

func (f *fileWriter) write(recs []mergetree.KeyValue) error {
	pk := f.w.merge != nil
	bld := array.NewRecordBuilder(memory.DefaultAllocator, f.schema)
	defer bld.Release()
	nk := len(f.w.keyIdx)
	for _, r := range recs {
		col := 0
		if pk {
			for j := 0; j < nk; j++ {
				if err := arrowconv.AppendDatum(bld.Field(col), f.fields[col].Type, r.Key[j]); err != nil {
					return fmt.Errorf("data file %s column %s: %w", f.path, f.fields[col].Name, err)
				}
				col++
			}
			bld.Field(col).(*array.Int64Builder).Append(r.Seq)
			bld.Field(col + 1).(*array.Int8Builder).Append(int8(r.Kind))
			col += 2
		}
		for j, v := range r.Value {
			if err := arrowconv.AppendDatum(bld.Field(col+j), f.fields[col+j].Type, v); err != nil {
				return fmt.Errorf("data file %s column %s: %w", f.path, f.fields[col+j].Name, err)
			}
		}
		if f.minSeq < 0 || r.Seq < f.minSeq {
			f.minSeq = r.Seq
		}
		if r.Seq > f.maxSeq {
			f.maxSeq = r.Seq
		}
		if r.Kind.IsRetract() {
			f.deletes++
		}
	}
	if pk && len(recs) > 0 {
		if f.firstKey == nil {
			f.firstKey = recs[0].Key
		}
		f.lastKey = recs[len(recs)-1].Key
	}
	rec := bld.NewRecordBatch()
	defer rec.Release()
	if err := f.pw.Write(rec); err != nil {
		return fmt.Errorf("write data file %s: %w", f.path, err)
	}
	f.rows += int64(len(recs))
	return nil
}

func (f *fileWriter) abort() {
	_ = f.out.Abort()
}

// finish closes the file and builds its DataFileMeta.
func (f *fileWriter) finish() (manifest.DataFileMeta, error) {
	stats, err := f.pw.Close()
	if err != nil {
		f.abort()
		return manifest.DataFileMeta{}, fmt.Errorf("close data file %s: %w", f.path, err)
	}
	if err := f.out.Close(); err != nil {
		return manifest.DataFileMeta{}, fmt.Errorf("close data file %s: %w", f.path, err)
	}
	t := f.w.t
	meta := manifest.DataFileMeta{
		FileName:           f.name,
		FileSize:           f.cw.N,
		RowCount:           f.rows,
		MinSequenceNumber:  max(f.minSeq, 0),
		MaxSequenceNumber:  f.maxSeq,
		SchemaID:           t.Schema.ID,
		Level:              0,
		ExtraFiles:         []string{},
		CreationTimeMillis: localMillis(f.w.o.Now()),
	}
	deletes := f.deletes
	meta.DeleteRowCount = &deletes
	src := int32(manifest.Append)
	meta.FileSource = &src
	nk := 0
	if f.w.merge != nil {
		nk = len(f.w.keyIdx)
		keyTypes := t.KeyTypes()
		if meta.MinKey, err = binrow.Serialize(keyTypes, f.firstKey); err != nil {
			return meta, err
		}
		if meta.MaxKey, err = binrow.Serialize(keyTypes, f.lastKey); err != nil {
			return meta, err
		}
		if meta.KeyStats, err = simpleStats(keyTypes, stats.Columns[:nk]); err != nil {
			return meta, err
		}
	} else {
		meta.MinKey, meta.MaxKey, meta.KeyStats = binrow.EmptyRow, binrow.EmptyRow, manifest.EmptyStats
	}
	valueCols := stats.Columns[len(stats.Columns)-len(t.Schema.Fields):]
	meta.ValueStats, meta.ValueStatsCols, err = valueStats(t.Schema.Fields, valueCols)
	return meta, err
}

// localMillis is Java's Timestamp.fromLocalDateTime(LocalDateTime.now()): local wall clock encoded as UTC millis.
func localMillis(t time.Time) int64 {
	_, off := t.Zone()
	return t.UnixMilli() + int64(off)*1000
}

func simpleStats(types []spec.DataType, cols []parquet.ColumnStats) (manifest.SimpleStats, error) {
	mins := make([]any, len(cols))
	maxs := make([]any, len(cols))
	nulls := make([]*int64, len(cols))
	for i, c := range cols {
		mins[i], maxs[i] = c.Min, c.Max
		n := c.NullCount
		nulls[i] = &n
	}
	minB, err := binrow.Serialize(types, mins)
	if err != nil {
		return manifest.SimpleStats{}, err
	}
	maxB, err := binrow.Serialize(types, maxs)
	if err != nil {
		return manifest.SimpleStats{}, err
	}
	return manifest.SimpleStats{MinValues: minB, MaxValues: maxB, NullCounts: nulls}, nil
}

// valueStats returns stats over all columns (cols = nil) when every column is atomic, else dense stats
// over the atomic columns only (their names in _VALUE_STATS_COLS).
func valueStats(fields []spec.DataField, cols []parquet.ColumnStats) (manifest.SimpleStats, []string, error) {
	allAtomic := true
	for _, f := range fields {
		if !f.Type.IsAtomic() {
			allAtomic = false
		}
	}
	if allAtomic {
		types := make([]spec.DataType, len(fields))
		for i, f := range fields {
			types[i] = f.Type
		}
		s, err := simpleStats(types, cols)
		return s, nil, err
	}
	var types []spec.DataType
	var keep []parquet.ColumnStats
	names := []string{}
	for i, f := range fields {
		if f.Type.IsAtomic() {
			types = append(types, f.Type)
			keep = append(keep, cols[i])
			names = append(names, f.Name)
		}
	}
	s, err := simpleStats(types, keep)
	return s, names, err
}
