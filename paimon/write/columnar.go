package write

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/mergetree"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
)

// The columnar path keeps written rows as Arrow batches (w.pending) and buffers per bucket only the
// rows' global indexes into the concatenation of those batches, their kinds and sequence numbers.
// At flush primary-key buckets fold their keys (deduplicate: the row of highest sequence number per
// key survives) and each file's columns are gathered by index straight from the batches (gather.go,
// no concatenated copy). When the buffered estimate reaches Options.BufferBytes every bucket is
// flushed as a level-0 sorted run and the batches are released, so memory is bounded by the buffer,
// not by the window. It serves every table except those whose merge needs the row values
// (partial-update, aggregation, first-row, sequence.field) or whose row kinds come from a column
// (rowkind.field); those use the row path (add/flush).

// partState caches one partition's serialized bytes and its bucket buffers, looked up by the
// partition's BinaryRow bytes without allocating.
type partState struct {
	buckets []*bucketBuffer // by bucket; one entry for bucket-unaware tables
	ser     []byte          // the partition's serialized BinaryRow
}

// columnarOK reports whether the table can use the columnar path.
func (w *Writer) columnarOK() bool {
	if w.kindIdx >= 0 {
		return false
	}
	if w.merge == nil {
		return true
	}
	if len(w.t.Options.SequenceField()) > 0 {
		return false
	}
	return w.merge.Engine() == mergetree.Deduplicate
}

// writeColumnar buffers rec on the columnar path.
func (w *Writer) writeColumnar(ctx context.Context, rec arrow.RecordBatch, kinds []spec.RowKind, firstSeq int64) error {
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	norm, err := w.normalize(rec)
	if err != nil {
		return err
	}
	if w.scatterW != nil {
		defer norm.Release()
		return w.writeScattered(ctx, norm, kinds, firstSeq)
	}
	base := w.pendingRows
	w.pending = append(w.pending, norm)
	w.pendingRows += int64(n)
	w.buffered += recordSize(norm)
	for r := 0; r < n; r++ {
		b, kind, seq, err := w.place(ctx, norm, kinds, r, firstSeq)
		if err != nil {
			return err
		}
		if b == nil {
			continue // a dropped retraction
		}
		b.idx = append(b.idx, base+int64(r))
		b.kinds = append(b.kinds, kind)
		b.seqs = append(b.seqs, seq)
	}
	if w.buffered >= w.o.BufferBytes {
		return w.flushAll(ctx)
	}
	return nil
}

// writeScattered is writeColumnar with scattering (scatter.go): each row's values are copied into
// its bucket's buffers before Write returns, so norm is not kept. Rows routed before an error are
// scattered too, keeping every bucket's values, kinds and sequence numbers aligned.
func (w *Writer) writeScattered(ctx context.Context, norm arrow.RecordBatch, kinds []spec.RowKind, firstSeq int64) error {
	n := int(norm.NumRows())
	w.touched = w.touched[:0]
	err := func() error {
		for r := 0; r < n; r++ {
			b, kind, seq, err := w.place(ctx, norm, kinds, r, firstSeq)
			if err != nil {
				return err
			}
			if b == nil {
				continue // a dropped retraction
			}
			if len(b.batchRows) == 0 {
				w.touched = append(w.touched, b)
			}
			b.batchRows = append(b.batchRows, int32(r))
			b.kinds = append(b.kinds, kind)
			b.seqs = append(b.seqs, seq)
		}
		return nil
	}()
	w.buffered += w.scatterBatch(norm, w.touched) + int64(n)*(columnarRowOverhead-8)
	if err != nil {
		return err
	}
	if w.buffered >= w.o.BufferBytes {
		return w.flushAll(ctx)
	}
	return nil
}

// place gives row r of norm its kind, bucket and sequence number (firstSeq + r, or the bucket's next
// when firstSeq < 0); a nil bucket means the row is a retraction the table drops.
func (w *Writer) place(ctx context.Context, norm arrow.RecordBatch, kinds []spec.RowKind, r int, firstSeq int64) (*bucketBuffer, spec.RowKind, int64, error) {
	kind := spec.RowKindInsert
	if kinds != nil {
		kind = kinds[r]
	}
	if kind.IsRetract() {
		if w.dropsRetract(kind) {
			return nil, kind, 0, nil
		}
		if w.merge == nil {
			return nil, kind, 0, fmt.Errorf("write: row %d: row kind %d (a retraction) cannot be written to append table %s, which has no primary key", r, kind, w.t.Path)
		}
	}
	b, err := w.route(ctx, norm, r)
	if err != nil {
		return nil, kind, 0, fmt.Errorf("write: row %d: %w", r, err)
	}
	seq := firstSeq + int64(r)
	if firstSeq < 0 {
		seq = b.nextSeq
		b.nextSeq++
	}
	return b, kind, seq, nil
}

// normalize returns rec with every column of the Arrow type ArrowType gives its field, converting
// columns of other types through Datums, and checks NOT NULL columns.
func (w *Writer) normalize(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	fields := w.t.Schema.Fields
	cols := make([]arrow.Array, len(fields))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for c, f := range fields {
		col, err := normalizeColumn(rec.Column(c), f, w.arrowSchema.Field(c).Type)
		if err != nil {
			return nil, err
		}
		cols[c] = col
	}
	return array.NewRecordBatch(w.arrowSchema, cols, rec.NumRows()), nil
}

func normalizeColumn(col arrow.Array, f spec.DataField, want arrow.DataType) (arrow.Array, error) {
	if f.Type.IsAtomic() && arrow.TypeEqual(col.DataType(), want) {
		if !f.Type.Nullable && col.NullN() > 0 {
			for r := 0; r < col.Len(); r++ {
				if col.IsNull(r) {
					return nil, fmt.Errorf("write: row %d: column %s is NOT NULL but the value is null", r, f.Name)
				}
			}
		}
		col.Retain()
		return col, nil
	}
	bld := array.NewBuilder(memory.DefaultAllocator, want)
	defer bld.Release()
	for r := 0; r < col.Len(); r++ {
		v, err := arrowconv.DatumAt(col, r, f.Type)
		if err != nil {
			return nil, fmt.Errorf("write: row %d column %s: %w", r, f.Name, err)
		}
		if v == nil && !f.Type.Nullable {
			return nil, fmt.Errorf("write: row %d: column %s is NOT NULL but the value is null", r, f.Name)
		}
		if err := arrowconv.AppendDatum(bld, f.Type, v); err != nil {
			return nil, fmt.Errorf("write: row %d column %s: %w", r, f.Name, err)
		}
	}
	return bld.NewArray(), nil
}

// route returns the buffer of row r's (partition, bucket), creating it on first use.
func (w *Writer) route(ctx context.Context, rec arrow.RecordBatch, r int) (*bucketBuffer, error) {
	ps, err := w.partitionOf(rec, r)
	if err != nil {
		return nil, err
	}
	var bucket int32
	if w.numBkt > 0 {
		if k, ok := bigintKey(rec, w.bktIdx, w.bktT, r); ok {
			bucket = int32(binrow.Bucket(binrow.HashBigInt(k), int(w.numBkt)))
		} else {
			w.rowBuf.Reset(len(w.bktIdx))
			for i, p := range w.bktIdx {
				if err := setFromArrow(&w.rowBuf, i, w.bktT[i], rec.Column(p), r); err != nil {
					return nil, fmt.Errorf("bucket key: %w", err)
				}
			}
			bucket = int32(binrow.Bucket(binrow.Hash(w.rowBuf.Bytes()), int(w.numBkt)))
		}
	} else if w.dyn != nil {
		var err error
		if bucket, err = w.dyn.bucketOf(ctx, ps.ser, func(b *binrow.Builder, i int, typ spec.DataType, col int) error {
			return setFromArrow(b, i, typ, rec.Column(col), r)
		}); err != nil {
			return nil, err
		}
		for int(bucket) >= len(ps.buckets) {
			ps.buckets = append(ps.buckets, nil)
		}
	}
	b := ps.buckets[max(bucket, 0)]
	if b == nil {
		pb := slices.Clone(ps.ser) // not partBuf: a partition found by partByString leaves partBuf as it was
		k := bucketKey{string(pb), bucket}
		if b = w.buckets[k]; b == nil {
			b = &bucketBuffer{partition: pb, bucket: bucket, nextSeq: w.startSeq(k)}
			w.buckets[k] = b
		}
		ps.buckets[max(bucket, 0)] = b
	}
	return b, nil
}

// partitionOf returns the state of row r's partition, created on first use. A table partitioned by one
// STRING column finds it by the value itself (partByString) without building the BinaryRow.
func (w *Writer) partitionOf(rec arrow.RecordBatch, r int) (*partState, error) {
	var str *array.String
	if len(w.partIdx) == 1 && w.partT[0].Root == spec.VarChar {
		if a, ok := rec.Column(w.partIdx[0]).(*array.String); ok && a.IsValid(r) {
			str = a
			if ps := w.partByString[a.Value(r)]; ps != nil {
				return ps, nil
			}
		}
	}
	w.partBuf.Reset(len(w.partIdx))
	for i, p := range w.partIdx {
		if err := setFromArrow(&w.partBuf, i, w.partT[i], rec.Column(p), r); err != nil {
			return nil, fmt.Errorf("partition: %w", err)
		}
	}
	ps := w.parts[string(w.partBuf.Bytes())]
	if ps == nil {
		ps = &partState{buckets: make([]*bucketBuffer, max(w.numBkt, 1)), ser: w.partBuf.AppendSerialized(nil)}
		w.parts[string(w.partBuf.Bytes())] = ps
	}
	if str != nil {
		// A copy: the Arrow value's bytes belong to the batch, which is released after Write.
		w.partByString[strings.Clone(str.Value(r))] = ps
	}
	return ps, nil
}

// bigintKey returns row r's value of a bucket key made of one BIGINT column, if that is the key and
// the value is not null.
func bigintKey(rec arrow.RecordBatch, idx []int, types []spec.DataType, r int) (int64, bool) {
	if len(idx) != 1 || types[0].Root != spec.BigInt {
		return 0, false
	}
	a, ok := rec.Column(idx[0]).(*array.Int64)
	if !ok || a.IsNull(r) {
		return 0, false
	}
	return a.Value(r), true
}

// setFromArrow sets field i of bld to row r of col, without boxing for BIGINT and VARCHAR columns.
func setFromArrow(bld *binrow.Builder, i int, t spec.DataType, col arrow.Array, r int) error {
	if !col.IsNull(r) {
		switch a := col.(type) {
		case *array.Int64:
			if t.Root == spec.BigInt {
				bld.SetInt64(i, a.Value(r))
				return nil
			}
		case *array.String:
			if t.Root == spec.VarChar {
				bld.SetString(i, a.Value(r))
				return nil
			}
		}
	}
	v, err := arrowconv.DatumAt(col, r, t)
	if err != nil {
		return err
	}
	return bld.Set(i, t, v)
}

// releasePending drops the pending batches; every bucket must have been flushed (or discarded).
func (w *Writer) releasePending() {
	for _, p := range w.pending {
		p.Release()
	}
	w.pending, w.pendingRows = nil, 0
}

// writeRowColumnar buffers one Datum row on the columnar path as a one-row batch.
func (w *Writer) writeRowColumnar(ctx context.Context, row []any, kind spec.RowKind) error {
	bld := array.NewRecordBuilder(memory.DefaultAllocator, w.arrowSchema)
	defer bld.Release()
	for c, f := range w.t.Schema.Fields {
		if err := arrowconv.AppendDatum(bld.Field(c), f.Type, row[c]); err != nil {
			return fmt.Errorf("write: column %s: %w", f.Name, err)
		}
	}
	rec := bld.NewRecordBatch()
	defer rec.Release()
	return w.writeColumnar(ctx, rec, []spec.RowKind{kind}, -1)
}
