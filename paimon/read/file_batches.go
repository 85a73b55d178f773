package read

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/format/datafile"
	"github.com/lakeload/lakeload/paimon/format/parquet"
	"github.com/lakeload/lakeload/paimon/mergetree"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/dv"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

// fileBatches is a pull reader of one data file: each next converts one record batch (at
// most fileReader.batch rows) into KeyValues, so a reader holds one batch, never the whole file.
type fileBatches struct {
	fr      *fileReader
	path    string
	plan    []column
	deleted dv.DeletionVector
	pk      bool
	file    fileio.File
	it      batchIter
	cols    []int // batch column of each plan entry, -1 = read as null; nil until the first batch
	seq     int   // batch columns of _SEQUENCE_NUMBER and _VALUE_KIND (primary-key tables)
	kind    int
	pos     int64 // file position of the next batch's first row
}

// open starts reading file f of split s in fr's schema, deletion vector applied, batch rows at a time.
func (fr *fileReader) open(ctx context.Context, s Split, f manifest.DataFileMeta, batch int64) (*fileBatches, error) {
	path, err := fr.paths.DataFile(s.Partition, s.Bucket, f.FileName, f.ExternalPath)
	if err != nil {
		return nil, err
	}
	fileSchema, err := fr.schema(ctx, f.SchemaID)
	if err != nil {
		return nil, fmt.Errorf("data file %s: %w", path, err)
	}
	plan, err := columnPlan(fr.cur, fileSchema)
	if err != nil {
		return nil, fmt.Errorf("data file %s: %w", path, err)
	}
	for i := range plan {
		if fr.need != nil && !fr.need[i] {
			plan[i] = column{} // not selected: read as null, never decoded
		}
	}
	b := &fileBatches{fr: fr, path: path, plan: plan, pk: fr.t.HasPrimaryKey()}
	if d, ok := s.Deletions[f.FileName]; ok {
		if b.deleted, err = fr.readDV(ctx, d); err != nil {
			return nil, fmt.Errorf("deletion vector of %s: %w", path, err)
		}
	}
	names := make([]string, 0, len(plan)+2)
	if b.pk {
		names = append(names, "_SEQUENCE_NUMBER", "_VALUE_KIND")
	}
	for _, c := range plan {
		if c.name != "" {
			names = append(names, c.name)
		}
	}
	if b.file, err = fr.t.FS.Open(ctx, path); err != nil {
		return nil, fmt.Errorf("open data file %s: %w", path, err)
	}
	size := f.FileSize
	if size <= 0 {
		size = b.file.Size()
	}
	if format := datafile.FormatOf(f.FileName); format != datafile.Parquet {
		cols, err := typedColumns(fileSchema, names)
		if err == nil {
			b.it, err = openNonParquet(ctx, b.file, path, format, size, cols, batch)
		}
		if err != nil {
			b.close()
			return nil, fmt.Errorf("data file %s: %w", path, err)
		}
		return b, nil
	}
	rd, err := parquet.OpenReader(b.file, size)
	if err != nil {
		b.close()
		return nil, fmt.Errorf("data file %s: %w", path, err)
	}
	if b.it, err = rd.Read(ctx, names, batch); err != nil {
		b.close()
		return nil, fmt.Errorf("data file %s: %w", path, err)
	}
	return b, nil
}

// close releases the file and the decoder; it may be called more than once.
func (b *fileBatches) close() {
	if b.it != nil {
		b.it.Release()
		b.it = nil
	}
	if b.file != nil {
		_ = b.file.Close()
		b.file = nil
	}
}

// next appends the live rows of the next batch to buf and returns it; the slice may be empty when
// the deletion vector removed the whole batch. ok=false at the end of the file.
func (b *fileBatches) next(buf []mergetree.KeyValue) (_ []mergetree.KeyValue, ok bool, err error) {
	if b.it == nil || !b.it.Next() {
		if b.it != nil {
			if err := b.it.Err(); err != nil {
				return buf, false, fmt.Errorf("data file %s: %w", b.path, err)
			}
		}
		return buf, false, nil
	}
	rec := b.it.RecordBatch()
	n := int(rec.NumRows())
	if n > 0 && b.cols == nil {
		if err := b.locate(rec.Schema()); err != nil {
			return buf, false, err
		}
	}
	for r := 0; r < n; r, b.pos = r+1, b.pos+1 {
		if b.deleted != nil && b.deleted.IsDeleted(b.pos) {
			continue
		}
		kv, err := b.row(rec, r)
		if err != nil {
			return buf, false, err
		}
		buf = append(buf, kv)
	}
	return buf, true, nil
}

// locate finds the batch column of every planned column and system field.
func (b *fileBatches) locate(sc *arrow.Schema) error {
	idx := map[string]int{}
	for i, fd := range sc.Fields() {
		idx[fd.Name] = i
	}
	cols := make([]int, len(b.plan))
	for i, c := range b.plan {
		cols[i] = -1
		if c.name == "" {
			continue
		}
		ci, ok := idx[c.name]
		if !ok {
			return fmt.Errorf("data file %s has no column %s", b.path, c.name)
		}
		cols[i] = ci
	}
	if b.pk {
		seq, ok1 := idx["_SEQUENCE_NUMBER"]
		kind, ok2 := idx["_VALUE_KIND"]
		if !ok1 || !ok2 {
			return fmt.Errorf("data file %s of a primary-key table lacks _SEQUENCE_NUMBER/_VALUE_KIND", b.path)
		}
		b.seq, b.kind = seq, kind
	}
	b.cols = cols
	return nil
}

// row converts row r of rec (file position b.pos). Key and Value share one allocation per row, so
// a KeyValue kept by a consumer retains nothing of the rest of its batch.
func (b *fileBatches) row(rec arrow.RecordBatch, r int) (mergetree.KeyValue, error) {
	nf, nk := len(b.plan), 0
	if b.pk {
		nk = len(b.fr.keyIdx)
	}
	vals := make([]any, nf+nk)
	kv := mergetree.KeyValue{Value: vals[:nf:nf]}
	for i, c := range b.plan {
		if b.cols[i] < 0 {
			continue
		}
		v, err := arrowconv.DatumAt(rec.Column(b.cols[i]), r, c.fileType)
		if err != nil {
			return kv, fmt.Errorf("data file %s row %d column %s: %w", b.path, b.pos, c.name, err)
		}
		if v != nil && c.cast != nil {
			if v, err = c.cast(v); err != nil {
				return kv, fmt.Errorf("data file %s row %d column %s: %w", b.path, b.pos, c.name, err)
			}
		}
		kv.Value[i] = v
	}
	if !b.pk {
		return kv, nil
	}
	sv, err := arrowconv.DatumAt(rec.Column(b.seq), r, spec.DataType{Root: spec.BigInt})
	if err != nil {
		return kv, fmt.Errorf("data file %s row %d column _SEQUENCE_NUMBER: %w", b.path, b.pos, err)
	}
	kd, err := arrowconv.DatumAt(rec.Column(b.kind), r, spec.DataType{Root: spec.TinyInt})
	if err != nil {
		return kv, fmt.Errorf("data file %s row %d column _VALUE_KIND: %w", b.path, b.pos, err)
	}
	seq, ok1 := sv.(int64)
	kind, ok2 := kd.(int8)
	if !ok1 || !ok2 {
		return kv, fmt.Errorf("data file %s row %d: %w: null _SEQUENCE_NUMBER or _VALUE_KIND", b.path, b.pos, spec.ErrCorrupt)
	}
	kv.Seq, kv.Kind = seq, spec.RowKind(kind)
	kv.Key = vals[nf:]
	for j, p := range b.fr.keyIdx {
		kv.Key[j] = kv.Value[p]
	}
	return kv, nil
}

// fileRun is a mergetree.Run over the files of one sorted run (files in key order), read one
// record batch at a time. Close it when the merge ends.
type fileRun struct {
	ctx   context.Context
	fr    *fileReader
	s     Split
	files []manifest.DataFileMeta
	batch int64 // rows per batch
	cur   *fileBatches
	buf   []mergetree.KeyValue
	pos   int
}

// run returns the records of files (one sorted run, files in key order) as a mergetree.Run that is
// merged with runs−1 others: its batches are sized so that the runs together hold about mergeRows.
func (fr *fileReader) run(ctx context.Context, s Split, files []manifest.DataFileMeta, runs int) *fileRun {
	batch := min(fr.batch, max(fr.mergeRows/int64(max(runs, 1)), fr.minBatch))
	return &fileRun{ctx: ctx, fr: fr, s: s, files: files, batch: batch}
}

// Next returns the run's next record; the run holds at most one batch of records.
func (r *fileRun) Next() (mergetree.KeyValue, bool, error) {
	for r.pos >= len(r.buf) {
		r.hold(nil)
		if r.cur == nil {
			if len(r.files) == 0 {
				return mergetree.KeyValue{}, false, nil
			}
			b, err := r.fr.open(r.ctx, r.s, r.files[0], r.batch)
			if err != nil {
				return mergetree.KeyValue{}, false, err
			}
			r.files, r.cur = r.files[1:], b
		}
		buf, ok, err := r.cur.next(r.buf[:0])
		if err != nil {
			r.Close()
			return mergetree.KeyValue{}, false, err
		}
		if !ok {
			r.cur.close()
			r.cur = nil
			continue
		}
		r.hold(buf)
	}
	kv := r.buf[r.pos]
	r.buf[r.pos] = mergetree.KeyValue{}
	r.pos++
	return kv, true, nil
}

// hold makes buf the run's current batch, keeping fileReader's buffered-record count.
func (r *fileRun) hold(buf []mergetree.KeyValue) {
	r.fr.buffered += len(buf) - len(r.buf)
	r.fr.peakBuffered = max(r.fr.peakBuffered, r.fr.buffered)
	clear(r.buf[r.pos:])
	if buf == nil {
		buf = r.buf[:0]
	}
	r.buf, r.pos = buf, 0
}

// Close releases the file being read; the run ends.
func (r *fileRun) Close() {
	r.hold(nil)
	r.files = nil
	if r.cur != nil {
		r.cur.close()
		r.cur = nil
	}
}
