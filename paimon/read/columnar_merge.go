package read

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/lakeload/lakeload/paimon/mergetree"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

// onColumnarMerge, if set, is called for every section Records merges column by column (tests).
var onColumnarMerge func(files int)

// colMergeSpec says how a deduplicate or first-row table's sections are merged on Arrow batches
// (columnar_merge.go): what mergetree.Merge does row by row with the table's merge function.
type colMergeSpec struct {
	keyIdx       []int // reading-schema columns of the trimmed primary key, key order
	seqIdx       []int // sequence.field columns
	seqDesc      bool  // sequence.field.sort-order=descending
	firstRow     bool  // merge engine first-row (else deduplicate)
	ignoreDelete bool
}

// columnarMergeSpec returns the columnar merge of r's table, or nil when it must take the row path:
// append tables, partial-update and aggregation engines, and keys or sequence fields of types
// without a typed comparator (keyTypeSupported) in the reading schema sc.
func (r *Reader) columnarMergeSpec(sc *arrow.Schema) *colMergeSpec {
	if r.merge == nil || forceRowPath {
		return nil
	}
	ms := &colMergeSpec{ignoreDelete: r.merge.IgnoreDelete()}
	switch r.merge.Engine() {
	case mergetree.Deduplicate:
	case mergetree.FirstRow:
		ms.firstRow = true
	default:
		return nil
	}
	index := map[string]int{}
	for i, f := range r.schema.Fields {
		index[f.Name] = i
	}
	for _, k := range r.schema.TrimmedPrimaryKeys() {
		i, ok := index[k]
		if !ok || !keyTypeSupported(sc.Field(i).Type) {
			return nil
		}
		ms.keyIdx = append(ms.keyIdx, i)
	}
	opts := r.schema.CoreOptions()
	for _, name := range opts.SequenceField() {
		i, ok := index[name]
		if !ok || !keyTypeSupported(sc.Field(i).Type) {
			return nil
		}
		ms.seqIdx = append(ms.seqIdx, i)
	}
	// mergetree.NewConfigFromSchema has refused a malformed sort order before any read gets here.
	ms.seqDesc, _ = opts.SequenceFieldDescending()
	return ms
}

// mergesColumnar reports whether split s is read by readSplitColumnar: its table has a columnar
// merge, it needs merging (not rawReadable), every file was written with the reading schema and
// none has a deletion vector.
func (r *Reader) mergesColumnar(ms *colMergeSpec, s Split) bool {
	if ms == nil || r.rawReadable(s) {
		return false
	}
	for _, f := range s.Files {
		if f.SchemaID != r.schema.ID {
			return false
		}
		if _, ok := s.Deletions[f.FileName]; ok {
			return false
		}
	}
	return true
}

// readSplitColumnar reads split s as ReadSplit does (mergesColumnar must hold), as Arrow batches
// of schema sc, at most batchSize rows each: key sections (mergetree.IntervalPartition) of one
// file without retract rows are read as is, the others merged on Arrow batches.
func (r *Reader) readSplitColumnar(ctx context.Context, s Split, ms *colMergeSpec, sc *arrow.Schema, batchSize int,
	emit func(arrow.RecordBatch) error) error {
	keyTypes := keyTypesOf(r.schema)
	ranges := make([]mergetree.FileRange, len(s.Files))
	for i, f := range s.Files {
		lo, err := binrow.Deserialize(keyTypes, f.MinKey)
		if err != nil {
			return fmt.Errorf("min key of data file %s: %w", f.FileName, err)
		}
		hi, err := binrow.Deserialize(keyTypes, f.MaxKey)
		if err != nil {
			return fmt.Errorf("max key of data file %s: %w", f.FileName, err)
		}
		ranges[i] = mergetree.FileRange{ID: i, MinKey: lo, MaxKey: hi}
	}
	for _, section := range mergetree.IntervalPartition(r.merge, ranges) {
		if len(section) == 1 && len(section[0]) == 1 && !hasRetracts(s.Files[section[0][0].ID]) {
			f := s.Files[section[0][0].ID]
			if onColumnarFile != nil {
				onColumnarFile(f)
			}
			if err := r.readColumnar(ctx, s, f, sc, batchSize, emit); err != nil {
				return err
			}
			continue
		}
		runs := make([][]manifest.DataFileMeta, len(section))
		n := 0
		for i, run := range section {
			for _, fr := range run {
				runs[i] = append(runs[i], s.Files[fr.ID])
				n++
			}
		}
		if onColumnarMerge != nil {
			onColumnarMerge(n)
		}
		if err := r.mergeColumnar(ctx, s, ms, sc, batchSize, runs, emit); err != nil {
			return err
		}
	}
	return nil
}

// mergeColumnar k-way merges the sorted runs of one section by key (ties: sequence.field values,
// sequence number, then run index, as mergetree.Merge) and emits the winner of every key that is
// not a retract: the last record for deduplicate, the first for first-row (retracts skipped with
// ignore-delete; a retract among several records of a first-row key is an error, as in Java).
func (r *Reader) mergeColumnar(ctx context.Context, s Split, ms *colMergeSpec, sc *arrow.Schema, batchSize int,
	runs [][]manifest.DataFileMeta, emit func(arrow.RecordBatch) error) (err error) {
	out := &colOutput{sc: sc, batchSize: batchSize, emit: emit, maxHeld: 2*len(runs) + 4,
		held: map[arrow.RecordBatch]bool{}}
	h := &mergetree.Heap[*colCursor]{Less: func(a, b *colCursor) bool { // by (record order, run index)
		if c := ms.compareRecords(a.cur, a.pos, b.cur, b.pos); c != 0 {
			return c < 0
		}
		return a.run < b.run
	}}
	var all []*colCursor
	defer func() {
		for _, c := range all {
			c.close()
		}
		out.release()
	}()
	for i, files := range runs {
		c := &colCursor{r: r, ctx: ctx, s: s, ms: ms, sc: sc, batchSize: batchSize, run: i, files: files, pos: -1}
		all = append(all, c)
		ok, err := c.next()
		if err != nil {
			return err
		}
		if ok {
			h.Items = append(h.Items, c)
		}
	}
	h.Init()
	for len(h.Items) > 0 {
		kb, kp := h.Items[0].cur, h.Items[0].pos
		var (
			wb       *colBatch
			wp       int
			count    int
			retracts bool
		)
		for len(h.Items) > 0 {
			c := h.Items[0]
			b, p := c.cur, c.pos
			if count > 0 && ms.compareKeys(b, p, kb, kp) != 0 {
				break
			}
			count++
			retract := spec.RowKind(b.kind[p]).IsRetract()
			switch {
			case retract && ms.ignoreDelete:
			case ms.firstRow:
				retracts = retracts || retract
				if wb == nil {
					wb, wp = b, p
				}
			default:
				wb, wp = b, p
			}
			ok, err := c.next()
			if err != nil {
				return err
			}
			if ok {
				h.Fix0()
			} else {
				h.Pop0()
			}
		}
		if ms.firstRow && retracts && count > 1 {
			return fmt.Errorf("%w: merge engine first-row cannot accept DELETE/UPDATE_BEFORE records; set %q to ignore them (bucket %d)",
				mergetree.ErrRetractNotAccepted, spec.OptIgnoreDelete, s.Bucket)
		}
		if wb == nil || spec.RowKind(wb.kind[wp]).IsRetract() {
			continue
		}
		if err := out.add(wb, wp); err != nil {
			return err
		}
	}
	return out.flush()
}

// colBatch is one decoded batch of a run: the value columns in the reading schema (rec) and views
// of its key, sequence.field, _SEQUENCE_NUMBER and _VALUE_KIND columns.
type colBatch struct {
	rec    arrow.RecordBatch
	sys    [2]arrow.Array // _SEQUENCE_NUMBER, _VALUE_KIND (kept alive for seq and kind)
	keys   []keyColumn
	seqs   []keyColumn
	seqArr []arrow.Array
	seq    []int64
	kind   []int8
	n      int
}

func (b *colBatch) release() {
	if b == nil {
		return
	}
	b.rec.Release()
	b.sys[0].Release()
	b.sys[1].Release()
}

// colCursor walks one sorted run (files in key order) record by record. It keeps the batch
// before the current one alive, so the record it returned last stays readable after next.
type colCursor struct {
	r         *Reader
	ctx       context.Context
	s         Split
	ms        *colMergeSpec
	sc        *arrow.Schema
	batchSize int
	run       int
	files     []manifest.DataFileMeta
	file      string // data file being read
	af        *arrowFile
	cur, prev *colBatch
	pos       int
}

// next moves to the run's next record; false at its end. Keys must strictly increase.
func (c *colCursor) next() (bool, error) {
	c.pos++
	if c.cur != nil && c.pos < c.cur.n {
		if c.ms.compareKeys(c.cur, c.pos-1, c.cur, c.pos) >= 0 {
			return false, c.unsorted()
		}
		return true, nil
	}
	for {
		if c.af == nil {
			if len(c.files) == 0 {
				c.prev.release()
				c.prev, c.cur = c.cur, nil
				return false, nil
			}
			if err := c.open(c.files[0]); err != nil {
				return false, err
			}
			c.files = c.files[1:]
		}
		if c.af.Next() {
			b, err := c.load(c.af.Batch())
			if err != nil {
				return false, err
			}
			c.prev.release()
			c.prev, c.cur, c.pos = c.cur, b, 0
			if c.prev != nil && c.ms.compareKeys(c.prev, c.prev.n-1, c.cur, 0) >= 0 {
				return false, c.unsorted()
			}
			return true, nil
		}
		if err := c.af.Err(); err != nil {
			return false, err
		}
		c.af.Close()
		c.af = nil
	}
}

func (c *colCursor) unsorted() error {
	return fmt.Errorf("%w: data file %s (sorted run %d of bucket %d) is not sorted by primary key with unique keys",
		spec.ErrCorrupt, c.file, c.run, c.s.Bucket)
}

func (c *colCursor) open(f manifest.DataFileMeta) error {
	path, err := c.r.files.paths.DataFile(c.s.Partition, c.s.Bucket, f.FileName, f.ExternalPath)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(c.r.schema.Fields)+2)
	names = append(names, "_SEQUENCE_NUMBER", "_VALUE_KIND")
	for _, fd := range c.r.schema.Fields {
		names = append(names, fd.Name)
	}
	af, err := openArrowFile(c.ctx, c.r.t.FS, path, f.FileSize, names, c.r.schema, int64(c.batchSize))
	if err != nil {
		return err
	}
	c.af, c.file = af, path
	return nil
}

// load turns a file batch (_SEQUENCE_NUMBER, _VALUE_KIND, then the reading schema's columns) into
// a colBatch.
func (c *colCursor) load(raw arrow.RecordBatch) (*colBatch, error) {
	seq, ok1 := raw.Column(0).(*array.Int64)
	kind, ok2 := raw.Column(1).(*array.Int8)
	if !ok1 || !ok2 || seq.NullN() > 0 || kind.NullN() > 0 {
		return nil, fmt.Errorf("%w: data file %s: _SEQUENCE_NUMBER/_VALUE_KIND are %s/%s with %d/%d nulls, want non-null BIGINT/TINYINT",
			spec.ErrCorrupt, c.file, raw.Column(0).DataType(), raw.Column(1).DataType(), raw.Column(0).NullN(), raw.Column(1).NullN())
	}
	fields := c.r.schema.Fields
	cols := make([]arrow.Array, len(fields))
	defer func() {
		for _, a := range cols {
			if a != nil {
				a.Release()
			}
		}
	}()
	for i, fd := range fields {
		a, err := conform(raw.Column(i+2), c.sc.Field(i).Type, fd.Type)
		if err != nil {
			return nil, fmt.Errorf("data file %s column %s: %w", c.file, fd.Name, err)
		}
		cols[i] = a
	}
	n := int(raw.NumRows())
	b := &colBatch{rec: array.NewRecordBatch(c.sc, cols, int64(n)), seq: seq.Int64Values(), kind: kind.Int8Values(), n: n}
	seq.Retain()
	kind.Retain()
	b.sys = [2]arrow.Array{seq, kind}
	for _, i := range c.ms.keyIdx {
		k, ok := keyColumnFor(b.rec.Column(i))
		if !ok {
			b.release()
			return nil, fmt.Errorf("data file %s: key column %s has type %s without comparator", c.file, fields[i].Name, b.rec.Column(i).DataType())
		}
		b.keys = append(b.keys, k)
	}
	for _, i := range c.ms.seqIdx {
		k, ok := keyColumnFor(b.rec.Column(i))
		if !ok {
			b.release()
			return nil, fmt.Errorf("data file %s: sequence field %s has type %s without comparator", c.file, fields[i].Name, b.rec.Column(i).DataType())
		}
		b.seqs = append(b.seqs, k)
		b.seqArr = append(b.seqArr, b.rec.Column(i))
	}
	return b, nil
}

func (c *colCursor) close() {
	if c.af != nil {
		c.af.Close()
		c.af = nil
	}
	c.prev.release()
	c.cur.release()
	c.prev, c.cur = nil, nil
}

// compareKeys orders row i of a and row j of b by primary key.
func (ms *colMergeSpec) compareKeys(a *colBatch, i int, b *colBatch, j int) int {
	for k, x := range a.keys {
		if c := x.compare(i, b.keys[k], j); c != 0 {
			return c
		}
	}
	return 0
}

// compareRecords orders records by key, sequence.field values (nulls first; non-null values
// reversed when descending) and sequence number: mergetree's Config.compareRecords.
func (ms *colMergeSpec) compareRecords(a *colBatch, i int, b *colBatch, j int) int {
	if c := ms.compareKeys(a, i, b, j); c != 0 {
		return c
	}
	for k, x := range a.seqs {
		c := x.compare(i, b.seqs[k], j)
		if c != 0 && ms.seqDesc && !a.seqArr[k].IsNull(i) && !b.seqArr[k].IsNull(j) {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	switch x, y := a.seq[i], b.seq[j]; {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// colOutput gathers merge winners as row ranges of their batches and emits them as batches of at
// most batchSize rows (one zero-copy slice when all rows come from one range, else gathered). It
// also flushes early once its ranges hold more than maxHeld distinct input batches, so sparse
// winners (a large run almost entirely updated by newer ones) cannot keep a run's batches alive.
type colOutput struct {
	sc        *arrow.Schema
	batchSize int
	emit      func(arrow.RecordBatch) error
	segs      []colSegment
	n         int
	maxHeld   int
	held      map[arrow.RecordBatch]bool
}

type colSegment struct {
	rec        arrow.RecordBatch // retained
	start, end int
}

func (o *colOutput) add(b *colBatch, p int) error {
	if k := len(o.segs) - 1; k >= 0 && o.segs[k].rec == b.rec && o.segs[k].end == p {
		o.segs[k].end++
	} else {
		b.rec.Retain()
		o.segs = append(o.segs, colSegment{rec: b.rec, start: p, end: p + 1})
		o.held[b.rec] = true
	}
	o.n++
	if o.n >= o.batchSize || len(o.held) > o.maxHeld {
		return o.flush()
	}
	return nil
}

func (o *colOutput) flush() error {
	if o.n == 0 {
		return nil
	}
	defer o.release()
	if len(o.segs) == 1 {
		g := o.segs[0]
		rec := g.rec.NewSlice(int64(g.start), int64(g.end))
		defer rec.Release()
		return o.emit(rec)
	}
	cols := make([]arrow.Array, o.sc.NumFields())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for ci := range cols {
		c, err := gatherColumn(o.sc.Field(ci).Type, o.segs, ci, o.n)
		if err != nil {
			return fmt.Errorf("column %s: %w", o.sc.Field(ci).Name, err)
		}
		cols[ci] = c
	}
	rec := array.NewRecordBatch(o.sc, cols, int64(o.n))
	defer rec.Release()
	return o.emit(rec)
}

func (o *colOutput) release() {
	for _, g := range o.segs {
		g.rec.Release()
	}
	o.segs, o.n = o.segs[:0], 0
	clear(o.held)
}
