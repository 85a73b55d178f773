package write

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/mergetree"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// RunWriter writes one sorted run of a (partition, bucket) at a given level: a compaction's output
// (Java MergeTreeCompactRewriter's RollingFileWriter). Records of primary-key tables must arrive in
// strictly increasing key order, already merged (one record per key); their sequence numbers and
// kinds are kept. Files roll at target-file-size and carry the same statistics and names as the
// writer's level-0 files, with the run's level and file source COMPACT. It does not check whether
// the table is writable (compaction rewrites what is already in the table) and is not safe for
// concurrent use.
type RunWriter struct {
	w      *Writer
	b      *bucketBuffer
	level  int32
	target int64
	chunk  int
	buf    []mergetree.KeyValue
	last   []any // key of the previous record (primary-key tables)
	cur    *fileWriter
	files  []manifest.DataFileMeta
}

// NewRunWriter returns a writer of files at level for (partition, bucket) of t, in t's current
// schema. now stamps file creation times (nil: time.Now).
func NewRunWriter(t *table.Table, partition []byte, bucket, level int32, now func() time.Time) (*RunWriter, error) {
	if now == nil {
		now = time.Now
	}
	w := &Writer{t: t, o: Options{Now: now}, paths: t.NewPaths()}
	if t.HasPrimaryKey() {
		var err error
		if w.merge, err = mergetree.NewConfig(t.Schema); err != nil {
			return nil, fmt.Errorf("table %s: %w", t.Path, err)
		}
		if w.keyIdx, _, err = indexes(t.Schema, t.Schema.TrimmedPrimaryKeys()); err != nil {
			return nil, err
		}
	}
	return &RunWriter{
		w: w, b: &bucketBuffer{partition: partition, bucket: bucket}, level: level,
		target: t.Options.TargetFileSize(w.merge != nil),
	}, nil
}

// Add appends one record (Value in the table's column order; Key, Seq and Kind for primary-key tables).
func (r *RunWriter) Add(ctx context.Context, kv mergetree.KeyValue) error {
	if r.w.merge != nil {
		if r.last != nil && r.w.merge.CompareKeys(r.last, kv.Key) >= 0 {
			return fmt.Errorf("run writer of bucket %d: key %v after %v: records must be merged and in key order", r.b.bucket, kv.Key, r.last)
		}
		r.last = kv.Key
	}
	r.buf = append(r.buf, kv)
	if r.chunk == 0 && len(r.buf) >= 256 {
		r.chunk = chunkRows(r.target, r.buf)
	}
	if r.chunk > 0 && len(r.buf) >= r.chunk {
		return r.flushChunk(ctx)
	}
	return nil
}

// flushChunk writes the buffered records as one row group, rolling to a new file at the target size.
func (r *RunWriter) flushChunk(ctx context.Context) error {
	if len(r.buf) == 0 {
		return nil
	}
	if r.chunk == 0 {
		r.chunk = chunkRows(r.target, r.buf)
	}
	if r.cur == nil {
		f, err := r.w.newFile(ctx, r.b, r.chunk)
		if err != nil {
			return err
		}
		r.cur = f
	}
	if err := r.cur.write(r.buf); err != nil {
		return err
	}
	clear(r.buf) // the written rows' values must not stay reachable through the reused backing array
	r.buf = r.buf[:0]
	if r.cur.cw.N >= r.target {
		return r.finishFile()
	}
	return nil
}

func (r *RunWriter) finishFile() error {
	meta, err := r.cur.finish()
	r.cur = nil
	if err != nil {
		return err
	}
	meta.Level = r.level
	src := int32(manifest.Compact)
	meta.FileSource = &src
	r.files = append(r.files, meta)
	return nil
}

// Close writes what is buffered and returns the files of the run, in key order.
func (r *RunWriter) Close(ctx context.Context) ([]manifest.DataFileMeta, error) {
	if err := r.flushChunk(ctx); err != nil {
		return nil, err
	}
	if r.cur != nil {
		if err := r.finishFile(); err != nil {
			return nil, err
		}
	}
	return r.files, nil
}

// Abort deletes every file the run writer created (finished or not). Use it only when the files
// are certainly not part of any commit.
func (r *RunWriter) Abort(ctx context.Context) error {
	if r.cur != nil {
		r.cur.abort()
		r.cur = nil
	}
	var errs []error
	for _, p := range r.w.written {
		if err := r.w.t.Delete(ctx, p); err != nil && !errors.Is(err, fileio.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	r.w.written = nil
	return errors.Join(errs...)
}
