package write

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/mergetree"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// Options tune a Writer.
type Options struct {
	// BufferBytes bounds the memory of buffered rows: when it is reached every bucket is flushed as
	// a level-0 sorted run (several per bucket per commit when a commit holds more rows than fit) and
	// the buffered batches are released; default: the table's write-buffer-size (256 mb).
	BufferBytes int64
	// SequenceBase, when set, is the first sequence number of every bucket written (it must be above
	// the bucket's live maximum; the loader derives it from its window plan). Nil means "table max + 1".
	SequenceBase *int64
	// Now is the clock used for file creation times; default time.Now.
	Now func() time.Time
	// CompactsBeforePublish lifts the refusal of deletion-vector and first-row tables, whose level-0
	// files Java's batch reads skip: set it only when the caller compacts (compact.Table) before
	// anyone relies on the rows being visible.
	CompactsBeforePublish bool
	// Overwrite marks output that replaces the partitions it writes (an overwrite job's staged
	// windows). A dynamic-bucket writer then assigns keys from OverwriteIndex — the HASH files of
	// the replacement staged before it (nil: every partition starts empty) — instead of the table's
	// index, whose entries for those partitions the overwrite deletes.
	Overwrite      bool
	OverwriteIndex []manifest.IndexManifestEntry
}

type bucketKey struct {
	partition string
	bucket    int32
}

type bucketBuffer struct {
	partition []byte
	bucket    int32
	rows      [][]any
	kinds     []spec.RowKind
	seqs      []int64
	idx       []int64     // columnar path: rows as indexes into the writer's pending batches
	sc        *scatterBuf // columnar path with scattering: the bucket's rows (scatter.go)
	batchRows []int32     // scattering: the current batch's rows routed here
	nextSeq   int64
	files     []manifest.DataFileMeta
}

// Writer buffers rows per (partition, bucket) and writes level-0 data files.
// It is not safe for concurrent use.
type Writer struct {
	t         *table.Table
	o         Options
	paths     *table.Paths
	merge     *mergetree.Config // nil for append tables
	partIdx   []int
	partT     []spec.DataType
	bktIdx    []int
	bktT      []spec.DataType
	keyIdx    []int
	kindIdx   int // column named by option rowkind.field, -1 if none
	buckets   map[bucketKey]*bucketBuffer
	restored  map[bucketKey]int64 // max live sequence number per bucket
	numBkt    int32
	buffered  int64
	written   []string   // full paths of files written, for Abort
	writtenMu sync.Mutex // guards written during parallel flushes
	rowBuf    binrow.Builder

	// Columnar path (columnar.go), used when columnar is set.
	columnar     bool
	arrowSchema  *arrow.Schema // the table's fields as Arrow
	scatterW     []int         // non-nil: rows are scattered into bucket buffers (scatter.go); value widths
	touched      []*bucketBuffer
	pending      []arrow.RecordBatch
	pendingRows  int64
	parts        map[string]*partState
	partByString map[string]*partState // the same states by the value of a single STRING partition column
	partBuf      binrow.Builder

	dyn *dynamicBuckets // dynamic-bucket primary-key tables (bucket = -1); nil otherwise
}

// New opens a writer on t. It reads the latest snapshot to continue sequence numbers per bucket.
func New(ctx context.Context, t *table.Table, o Options) (*Writer, error) {
	if err := checkWritable(t, o.CompactsBeforePublish); err != nil {
		return nil, err
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.BufferBytes <= 0 {
		var err error
		if o.BufferBytes, err = tableBufferBytes(t); err != nil {
			return nil, err
		}
	}
	w := &Writer{t: t, o: o, paths: t.NewPaths(), buckets: map[bucketKey]*bucketBuffer{}, restored: map[bucketKey]int64{}}
	w.numBkt = int32(t.Options.Bucket())
	w.kindIdx = -1
	if col := t.Options.RowKindField(); col != "" {
		f, pos, found := t.Schema.Field(col)
		if !found || (f.Type.Root != spec.VarChar && f.Type.Root != spec.Char) {
			return nil, fmt.Errorf("%w: table %s: option rowkind.field names %q, which is not a STRING column", ErrUnsupportedTable, t.Path, col)
		}
		w.kindIdx = pos
	}
	var err error
	if w.partIdx, w.partT, err = indexes(t.Schema, t.Schema.PartitionKeys); err != nil {
		return nil, err
	}
	if t.HasPrimaryKey() {
		if w.merge, err = mergetree.NewConfig(t.Schema); err != nil {
			return nil, fmt.Errorf("%w: table %s: %v", ErrUnsupportedTable, t.Path, err)
		}
		if w.keyIdx, _, err = indexes(t.Schema, t.Schema.TrimmedPrimaryKeys()); err != nil {
			return nil, err
		}
	}
	if w.numBkt > 0 {
		bk, err := t.BucketKeyFields()
		if err != nil {
			return nil, err
		}
		names := make([]string, len(bk))
		for i, f := range bk {
			names[i] = f.Name
		}
		if w.bktIdx, w.bktT, err = indexes(t.Schema, names); err != nil {
			return nil, err
		}
		if len(w.bktIdx) == 0 {
			return nil, fmt.Errorf("%w: table %s: bucket=%d needs 'bucket-key' (append tables) or a primary key", ErrUnsupportedTable, t.Path, w.numBkt)
		}
	}
	if err := w.restore(ctx); err != nil {
		return nil, err
	}
	if w.numBkt == -1 && t.HasPrimaryKey() && w.dyn == nil { // empty table
		if w.dyn, err = newDynamicBucketsFor(ctx, t, o, nil, nil); err != nil {
			return nil, err
		}
	}
	if w.arrowSchema, err = arrowconv.ArrowSchema(t.Schema.Fields); err != nil {
		return nil, err
	}
	w.columnar = w.columnarOK()
	if w.columnar {
		if ws, ok := scatterWidths(w.arrowSchema); ok {
			w.scatterW = ws
		}
	}
	w.parts = map[string]*partState{}
	w.partByString = map[string]*partState{}
	return w, nil
}

func indexes(s *spec.TableSchema, names []string) ([]int, []spec.DataType, error) {
	idx := make([]int, len(names))
	types := make([]spec.DataType, len(names))
	for i, n := range names {
		f, pos, ok := s.Field(n)
		if !ok {
			return nil, nil, fmt.Errorf("column %q not in table schema", n)
		}
		idx[i], types[i] = pos, f.Type
	}
	return idx, types, nil
}

// restore reads the live files of the latest snapshot: max sequence number per bucket and bucket counts.
func (w *Writer) restore(ctx context.Context) error {
	latest, err := w.t.Snapshots().Latest(ctx)
	if err != nil || latest == nil {
		return err
	}
	live, err := w.t.LiveFiles(ctx, latest)
	if err != nil {
		return err
	}
	if w.numBkt == -1 && w.t.HasPrimaryKey() { // the HASH index of the same snapshot
		if w.dyn, err = newDynamicBucketsFor(ctx, w.t, w.o, latest, live); err != nil {
			return err
		}
	}
	for _, e := range live {
		k := bucketKey{string(e.Partition), e.Bucket}
		if cur, ok := w.restored[k]; !ok || e.File.MaxSequenceNumber > cur {
			w.restored[k] = e.File.MaxSequenceNumber
		}
		if w.numBkt > 0 && e.TotalBuckets != w.numBkt {
			return fmt.Errorf("%w: table %s: a partition holds %d buckets but the table option says bucket=%d (rescaled by an overwrite); lakeload cannot write it",
				ErrUnsupportedTable, w.t.Path, e.TotalBuckets, w.numBkt)
		}
	}
	return nil
}

// Write buffers the rows of rec, whose columns are the table's fields in schema order.
// kinds gives each row's kind (nil = all inserts). Rows get the next sequence numbers of their bucket.
func (w *Writer) Write(ctx context.Context, rec arrow.RecordBatch, kinds []spec.RowKind) error {
	return w.write(ctx, rec, kinds, -1)
}

// WriteSeq is Write with explicit sequence numbers: row i gets firstSeq+i. The caller guarantees the
// numbers are above every number live in the rows' buckets and never reused (the loader derives them
// from its window plan, so every attempt over the same input writes the same numbers).
func (w *Writer) WriteSeq(ctx context.Context, rec arrow.RecordBatch, kinds []spec.RowKind, firstSeq int64) error {
	if firstSeq < 0 {
		return fmt.Errorf("write: negative sequence number %d", firstSeq)
	}
	return w.write(ctx, rec, kinds, firstSeq)
}

func (w *Writer) write(ctx context.Context, rec arrow.RecordBatch, kinds []spec.RowKind, firstSeq int64) error {
	fields := w.t.Schema.Fields
	if int(rec.NumCols()) != len(fields) {
		return fmt.Errorf("write: record has %d columns, table %s has %d", rec.NumCols(), w.t.Path, len(fields))
	}
	if kinds != nil && int64(len(kinds)) != rec.NumRows() {
		return fmt.Errorf("write: %d row kinds for %d rows", len(kinds), rec.NumRows())
	}
	if w.columnar {
		return w.writeColumnar(ctx, rec, kinds, firstSeq)
	}
	n := int(rec.NumRows())
	for r := 0; r < n; r++ {
		row := make([]any, len(fields))
		for c, f := range fields {
			v, err := arrowconv.DatumAt(rec.Column(c), r, f.Type)
			if err != nil {
				return fmt.Errorf("write: row %d column %s: %w", r, f.Name, err)
			}
			if v == nil && !f.Type.Nullable {
				return fmt.Errorf("write: row %d: column %s is NOT NULL but the value is null", r, f.Name)
			}
			row[c] = v
		}
		kind := spec.RowKindInsert
		if kinds != nil {
			kind = kinds[r]
		}
		seq := int64(-1)
		if firstSeq >= 0 {
			seq = firstSeq + int64(r)
		}
		if err := w.add(ctx, row, kind, seq); err != nil {
			return fmt.Errorf("write: row %d: %w", r, err)
		}
	}
	if w.buffered >= w.o.BufferBytes {
		return w.flushAll(ctx)
	}
	return nil
}

// WriteRow buffers one row given as Datums in schema order.
func (w *Writer) WriteRow(ctx context.Context, row []any, kind spec.RowKind) error {
	// The checks Write makes: a short row would index out of range, a null key would only fail at flush.
	fields := w.t.Schema.Fields
	if len(row) != len(fields) {
		return fmt.Errorf("write: row has %d values, table %s has %d columns", len(row), w.t.Path, len(fields))
	}
	for c, f := range fields {
		if row[c] == nil && !f.Type.Nullable {
			return fmt.Errorf("write: column %s is NOT NULL but the value is null", f.Name)
		}
	}
	if w.columnar {
		return w.writeRowColumnar(ctx, row, kind)
	}
	if err := w.add(ctx, row, kind, -1); err != nil {
		return err
	}
	if w.buffered >= w.o.BufferBytes {
		return w.flushAll(ctx)
	}
	return nil
}

// add buffers one row; seq < 0 means "next number of the bucket".
func (w *Writer) add(ctx context.Context, row []any, kind spec.RowKind, seq int64) error {
	if w.kindIdx >= 0 {
		// Java's RowKindGenerator: the column's short string decides the kind.
		k, err := kindFromField(row[w.kindIdx])
		if err != nil {
			return fmt.Errorf("column %s (option rowkind.field): %w", w.t.Schema.Fields[w.kindIdx].Name, err)
		}
		kind = k
	}
	if kind.IsRetract() && w.dropsRetract(kind) {
		return nil // Java TableWriteImpl's RowKindFilter: ignored retractions never reach a file
	}
	if w.merge == nil && kind.IsRetract() {
		return fmt.Errorf("row kind %d (a retraction) cannot be written to append table %s, which has no primary key", kind, w.t.Path)
	}
	if w.merge != nil && kind.IsRetract() && w.t.Options.MergeEngine() == "partial-update" && !w.t.Options.IgnoreDelete() {
		return fmt.Errorf("partial-update table %s does not accept retractions (-U/-D) unless 'ignore-delete'='true' (or 'partial-update.ignore-delete') is set", w.t.Path)
	}
	part := make([]any, len(w.partIdx))
	for i, p := range w.partIdx {
		part[i] = row[p]
	}
	pb, err := binrow.Serialize(w.partT, part)
	if err != nil {
		return fmt.Errorf("partition: %w", err)
	}
	var bucket int32
	if w.numBkt > 0 {
		w.rowBuf.Reset(len(w.bktIdx))
		for i, p := range w.bktIdx {
			if err := w.rowBuf.Set(i, w.bktT[i], row[p]); err != nil {
				return fmt.Errorf("bucket key: %w", err)
			}
		}
		bucket = int32(binrow.Bucket(binrow.Hash(w.rowBuf.Bytes()), int(w.numBkt)))
	} else if w.dyn != nil {
		if bucket, err = w.dyn.bucketOf(ctx, pb, func(b *binrow.Builder, i int, typ spec.DataType, col int) error { return b.Set(i, typ, row[col]) }); err != nil {
			return err
		}
	}
	k := bucketKey{string(pb), bucket}
	b := w.buckets[k]
	if b == nil {
		b = &bucketBuffer{partition: pb, bucket: bucket, nextSeq: w.startSeq(k)}
		w.buckets[k] = b
	}
	if seq < 0 {
		seq = b.nextSeq
		b.nextSeq++
	}
	b.rows = append(b.rows, row)
	b.kinds = append(b.kinds, kind)
	b.seqs = append(b.seqs, seq)
	w.buffered += rowSize(row)
	return nil
}

// dropsRetract reports whether the table ignores rows of this retract kind on write
// ('ignore-delete' drops -U and -D, 'ignore-update-before' drops -U).
func (w *Writer) dropsRetract(kind spec.RowKind) bool {
	if w.t.Options.IgnoreDelete() {
		return true
	}
	drop, _ := w.t.Options.IgnoreUpdateBefore() // malformed: false, Java's default
	return kind == spec.RowKindUpdateBefore && drop
}

func (w *Writer) startSeq(k bucketKey) int64 {
	next := int64(0)
	if m, ok := w.restored[k]; ok {
		next = m + 1
	}
	if w.o.SequenceBase != nil && *w.o.SequenceBase > next {
		next = *w.o.SequenceBase
	}
	return next
}

func rowSize(row []any) int64 {
	n := int64(16 + 16*len(row))
	for _, v := range row {
		switch x := v.(type) {
		case string:
			n += int64(len(x))
		case []byte:
			n += int64(len(x))
		}
	}
	return n
}

// Runner runs independent functions, possibly concurrently, and returns the first error. This
// package starts no goroutines: a caller that wants parallel flushes passes a Runner that does.
type Runner func(fns []func() error) error

// sequential runs fns one after the other.
func sequential(fns []func() error) error {
	for _, fn := range fns {
		if err := fn(); err != nil {
			return err
		}
	}
	return nil
}

func (w *Writer) flushAll(ctx context.Context) error { return w.flushAllWith(ctx, sequential) }

// flushAllWith flushes every bucket; each bucket's flush is one function given to run. The flushes
// share only read-only state and the path factory (safe for concurrent use).
func (w *Writer) flushAllWith(ctx context.Context, run Runner) error {
	keys := make([]bucketKey, 0, len(w.buckets))
	for k := range w.buckets {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].partition != keys[j].partition {
			return keys[i].partition < keys[j].partition
		}
		return keys[i].bucket < keys[j].bucket
	})
	var all *pendingView
	if len(w.pending) > 0 {
		all = newPendingView(w.pending)
		defer w.releasePending()
		defer all.release()
	}
	fns := make([]func() error, 0, len(keys))
	for _, k := range keys {
		b := w.buckets[k]
		fns = append(fns, func() error {
			if b.sc != nil && b.sc.rows > 0 {
				return w.flushScattered(ctx, b)
			}
			if len(b.idx) > 0 {
				return w.flushColumnar(ctx, b, all)
			}
			return w.flush(ctx, b)
		})
	}
	if err := run(fns); err != nil {
		return err
	}
	w.buffered = 0
	return nil
}

// Prepare flushes every buffer and returns one commit message per (partition, bucket) written.
// The writer can keep writing afterwards; later messages hold only later files.
func (w *Writer) Prepare(ctx context.Context) ([]table.CommitMessage, error) {
	return w.PrepareWith(ctx, sequential)
}

// PrepareWith is Prepare with the flush of each (partition, bucket) handed to run, which may run
// them concurrently (one writer per bucket, flushed in parallel).
func (w *Writer) PrepareWith(ctx context.Context, run Runner) ([]table.CommitMessage, error) {
	if err := w.flushAllWith(ctx, run); err != nil {
		return nil, err
	}
	var msgs []table.CommitMessage
	keys := make([]bucketKey, 0, len(w.buckets))
	for k, b := range w.buckets {
		if len(b.files) > 0 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].partition != keys[j].partition {
			return keys[i].partition < keys[j].partition
		}
		return keys[i].bucket < keys[j].bucket
	})
	for _, k := range keys {
		b := w.buckets[k]
		msgs = append(msgs, table.CommitMessage{Partition: b.partition, Bucket: b.bucket, TotalBuckets: w.numBkt, NewFiles: b.files})
		b.files = nil
	}
	if w.dyn != nil {
		var err error
		if msgs, err = w.dyn.attach(ctx, msgs, w.numBkt); err != nil {
			return nil, err
		}
	}
	w.written = nil
	return msgs, nil
}

// Abort deletes every file written since the last Prepare. Use it only when the files are certainly
// not part of any commit.
func (w *Writer) Abort(ctx context.Context) error {
	var errs []error
	for _, p := range w.written {
		if err := w.t.Delete(ctx, p); err != nil {
			errs = append(errs, err)
		}
	}
	if w.dyn != nil {
		errs = append(errs, w.dyn.abort(ctx))
	}
	w.written = nil
	w.buckets = map[bucketKey]*bucketBuffer{}
	w.parts = map[string]*partState{}
	w.partByString = map[string]*partState{}
	w.releasePending()
	return errors.Join(errs...)
}

func kindFromField(v any) (spec.RowKind, error) {
	s, _ := v.(string)
	switch s {
	case "+I":
		return spec.RowKindInsert, nil
	case "-U":
		return spec.RowKindUpdateBefore, nil
	case "+U":
		return spec.RowKindUpdateAfter, nil
	case "-D":
		return spec.RowKindDelete, nil
	}
	if v == nil {
		return 0, fmt.Errorf("row kind is null; use +I, -U, +U or -D")
	}
	return 0, fmt.Errorf("row kind %q is not one of +I, -U, +U, -D", s)
}
