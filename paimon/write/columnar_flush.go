package write

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/mergetree"
	"github.com/lakeload/lakeload/paimon/spec"
)

// flushColumnar writes the columnar rows of one bucket (global indexes into all, the pending
// batches) as level-0 files: primary-key buckets sorted and folded, append buckets in arrival order.
func (w *Writer) flushColumnar(ctx context.Context, b *bucketBuffer, all *pendingView) error {
	sel, seqs, kinds := b.idx, b.seqs, b.kinds
	b.idx, b.kinds, b.seqs = nil, nil, nil
	if len(sel) == 0 {
		return nil
	}
	var keys [][]any
	if w.merge != nil {
		var err error
		if sel, seqs, kinds, keys, err = w.foldColumnar(all, sel, seqs, kinds); err != nil {
			return fmt.Errorf("fold bucket %d: %w", b.bucket, err)
		}
	}
	target := w.t.Options.TargetFileSize(w.merge != nil)
	return w.rollFiles(ctx, b, len(sel), chunkRowsColumnar(target, all, sel), target, func(f *fileWriter, start, end int) error {
		var ks [][]any
		if keys != nil {
			ks = keys[start:end]
		}
		return f.writeColumns(ctx, all, sel[start:end], seqs[start:end], kinds[start:end], ks)
	})
}

// flushScattered is flushColumnar for a bucket whose rows were scattered into its own buffers.
func (w *Writer) flushScattered(ctx context.Context, b *bucketBuffer) error {
	rec := b.sc.record(w.arrowSchema)
	defer rec.Release()
	b.sc = nil
	b.idx = make([]int64, rec.NumRows())
	for i := range b.idx {
		b.idx[i] = int64(i)
	}
	return w.flushColumnar(ctx, b, newPendingView([]arrow.RecordBatch{rec}))
}

// foldColumnar sorts the bucket's rows by key and keeps one per key (mergetree.Fold with the
// deduplicate engine, which looks only at keys, sequence numbers and kinds). Sequence numbers of a
// bucket are unique: Write numbers rows per bucket, WriteSeq callers guarantee it.
func (w *Writer) foldColumnar(all *pendingView, sel, seqs []int64, kinds []spec.RowKind) ([]int64, []int64, []spec.RowKind, [][]any, error) {
	if len(w.keyIdx) == 1 && !w.merge.IgnoreDelete() {
		if vals, ok := int64Keys(all, w.keyIdx[0], sel); ok {
			osel, oseq, okind, keys := dedupKeys(vals, sel, seqs, kinds)
			return osel, oseq, okind, keys, nil
		}
	}
	fields := w.t.Schema.Fields
	recs := make([]mergetree.KeyValue, len(sel))
	pos := make(map[int64]int, len(sel))
	flat := make([]any, len(sel)*len(w.keyIdx))
	for i, row := range sel {
		key := flat[i*len(w.keyIdx) : (i+1)*len(w.keyIdx) : (i+1)*len(w.keyIdx)]
		for j, p := range w.keyIdx {
			bi, li := all.locate(row)
			v, err := arrowconv.DatumAt(all.column(bi, p), li, fields[p].Type)
			if err != nil {
				return nil, nil, nil, nil, fmt.Errorf("key column %s: %w", fields[p].Name, err)
			}
			key[j] = v
		}
		recs[i] = mergetree.KeyValue{Key: key, Seq: seqs[i], Kind: kinds[i]}
		if _, dup := pos[seqs[i]]; dup {
			return nil, nil, nil, nil, fmt.Errorf("sequence number %d given to two rows of the bucket", seqs[i])
		}
		pos[seqs[i]] = i
	}
	out, err := mergetree.Fold(w.merge, recs)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	osel := make([]int64, len(out))
	oseq := make([]int64, len(out))
	okind := make([]spec.RowKind, len(out))
	keys := make([][]any, len(out))
	for i, kv := range out {
		p := pos[kv.Seq]
		osel[i], oseq[i], okind[i], keys[i] = sel[p], kv.Seq, kv.Kind, kv.Key
	}
	return osel, oseq, okind, keys, nil
}

// chunkRowsColumnar is chunkRows for rows given by index into all.
func chunkRowsColumnar(target int64, all *pendingView, sel []int64) int {
	sample := min(len(sel), 256)
	var bytes int64
	for _, g := range sel[:sample] {
		bytes += int64(16 + 16*all.numCols())
		bi, r := all.locate(g)
		for _, c := range all.recs[bi].Columns() {
			switch a := c.(type) {
			case *array.String:
				if a.IsValid(r) {
					bytes += int64(a.ValueLen(r))
				}
			case *array.Binary:
				if a.IsValid(r) {
					bytes += int64(a.ValueLen(r))
				}
			}
		}
	}
	avg := max(1, bytes/int64(max(1, sample)))
	rows := target * 4 / avg / 4
	return int(min(max(rows, 1), 65536))
}

// writeColumns appends the rows sel of all (with their sequence numbers, kinds and, for primary-key
// tables, keys) as one row group.
func (f *fileWriter) writeColumns(ctx context.Context, all *pendingView, sel, seqs []int64, kinds []spec.RowKind, keys [][]any) error {
	n := len(sel)
	var bs, rs []int32
	if len(all.recs) > 1 || !contiguous(sel) {
		bs, rs = all.locations(sel)
	}
	taken := make([]arrow.Array, all.numCols())
	defer func() {
		for _, a := range taken {
			if a != nil {
				a.Release()
			}
		}
	}()
	for c := range taken {
		a, err := all.gather(ctx, c, sel, bs, rs)
		if err != nil {
			return fmt.Errorf("data file %s column %s: %w", f.path, f.w.t.Schema.Fields[c].Name, err)
		}
		taken[c] = a
	}
	var cols []arrow.Array
	if f.w.merge != nil {
		for _, p := range f.w.keyIdx {
			cols = append(cols, taken[p])
		}
		sb := array.NewInt64Builder(memory.DefaultAllocator)
		sb.AppendValues(seqs, nil)
		kb := array.NewInt8Builder(memory.DefaultAllocator)
		kb.Reserve(n)
		for _, k := range kinds {
			kb.UnsafeAppend(int8(k))
		}
		s, k := sb.NewArray(), kb.NewArray()
		sb.Release()
		kb.Release()
		defer s.Release()
		defer k.Release()
		cols = append(cols, s, k)
	}
	cols = append(cols, taken...)
	rec := array.NewRecordBatch(f.schema, cols, int64(n))
	defer rec.Release()
	if err := f.pw.Write(rec); err != nil {
		return fmt.Errorf("write data file %s: %w", f.path, err)
	}
	for i, s := range seqs {
		if f.minSeq < 0 || s < f.minSeq {
			f.minSeq = s
		}
		if s > f.maxSeq {
			f.maxSeq = s
		}
		if kinds[i].IsRetract() {
			f.deletes++
		}
	}
	if len(keys) > 0 {
		if f.firstKey == nil {
			f.firstKey = keys[0]
		}
		f.lastKey = keys[len(keys)-1]
	}
	f.rows += int64(n)
	return nil
}

// dedupInt64 is foldColumnar for one non-null BIGINT key column holding the rows sel.
func dedupInt64(col *array.Int64, sel, seqs []int64, kinds []spec.RowKind) ([]int64, []int64, []spec.RowKind, [][]any) {
	vals := col.Int64Values()
	keys := make([]int64, len(sel))
	for i, r := range sel {
		keys[i] = vals[r]
	}
	return dedupKeys(keys, sel, seqs, kinds)
}

// int64Keys returns the values of a non-null BIGINT column at rows sel; ok is false when the column
// is of another type or holds nulls in some pending batch.
func int64Keys(all *pendingView, c int, sel []int64) ([]int64, bool) {
	vals := make([][]int64, len(all.recs))
	for i, r := range all.recs {
		col, ok := r.Column(c).(*array.Int64)
		if !ok || col.NullN() > 0 {
			return nil, false
		}
		vals[i] = col.Int64Values()
	}
	out := make([]int64, len(sel))
	for i, g := range sel {
		b, r := all.locate(g)
		out[i] = vals[b][r]
	}
	return out, true
}

// dedupKeys is foldColumnar for one non-null BIGINT key (keyVals[i] is the key of row sel[i]): rows
// sorted by (key, sequence number), the last row of each key kept, as mergetree.Fold does for the
// deduplicate engine without ignore-delete. The order comes from stable radix sorts: by sequence
// number (skipped when the rows arrive in sequence order, as Write gives them; load's write tasks
// interleave runs of their own), then by key.
func dedupKeys(keyVals, sel, seqs []int64, kinds []spec.RowKind) ([]int64, []int64, []spec.RowKind, [][]any) {
	n := len(keyVals)
	perm, tmp := make([]int32, n), make([]int32, n)
	for i := range perm {
		perm[i] = int32(i)
	}
	if !increasing(seqs) {
		perm, tmp = radixSort(perm, tmp, signFlipped(seqs))
	}
	perm, _ = radixSort(perm, tmp, signFlipped(keyVals))
	last := perm[:0] // the surviving rows, in key order (overwrites perm behind the reading position)
	for i, p := range perm {
		if i+1 < n && keyVals[perm[i+1]] == keyVals[p] {
			continue // a later row of the same key wins
		}
		last = append(last, p)
	}
	m := len(last)
	osel, oseq, okind := make([]int64, m), make([]int64, m), make([]spec.RowKind, m)
	keys, flat := make([][]any, m), make([]any, m)
	for i, p := range last {
		osel[i], oseq[i], okind[i] = sel[p], seqs[p], kinds[p]
		flat[i] = keyVals[p]
		keys[i] = flat[i : i+1 : i+1]
	}
	return osel, oseq, okind, keys
}

// increasing reports whether s is strictly increasing (rows in sequence-number order, as Write gives them).
func increasing(s []int64) bool {
	for i := 1; i < len(s); i++ {
		if s[i] <= s[i-1] {
			return false
		}
	}
	return true
}

// signFlipped is vals in unsigned order: the sign bit flipped.
func signFlipped(vals []int64) []uint64 {
	u := make([]uint64, len(vals))
	for i, v := range vals {
		u[i] = uint64(v) ^ (1 << 63)
	}
	return u
}

// radixSort orders perm stably by vals[p] (an LSD radix sort through tmp, of perm's length) and
// returns the sorted permutation and the spare buffer. Digit positions where every value has the
// same byte are skipped.
func radixSort(perm, tmp []int32, vals []uint64) ([]int32, []int32) {
	n := len(perm)
	var count [256]int
	for shift := uint(0); shift < 64; shift += 8 {
		clear(count[:])
		for _, v := range vals {
			count[(v>>shift)&0xff]++
		}
		if n == 0 || count[(vals[0]>>shift)&0xff] == n {
			continue // every value has this byte: the pass would not move a row
		}
		pos := 0
		for d := range count {
			c := count[d]
			count[d] = pos
			pos += c
		}
		for _, p := range perm {
			d := (vals[p] >> shift) & 0xff
			tmp[count[d]] = p
			count[d]++
		}
		perm, tmp = tmp, perm
	}
	return perm, tmp
}
