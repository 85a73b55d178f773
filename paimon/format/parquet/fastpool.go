package parquet

import "sync"

// fastBufs are the growable buffers of a file's column encoders. A load writes many files of the
// same columns; growing each file's buffers afresh cost some 5% of a primary-key write, so a
// closed file hands them to the next one.
type fastBufs struct {
	page, comp []byte
	cols       []colBufs
}

// colBufs are one column's buffers (fastColumn's fields of the same names).
type colBufs struct {
	defs    []uint8
	vals    []byte
	bools   []uint8
	idx     []uint32
	data    []byte
	dictBuf []byte
}

var fastBufPool sync.Pool // of *fastBufs

// takeBufs gives f's columns (already made) the buffers of a closed file, if any.
func (f *fastFile) takeBufs() {
	b, _ := fastBufPool.Get().(*fastBufs)
	if b == nil {
		return
	}
	f.page, f.comp = b.page[:0], b.comp[:0]
	for i, c := range f.cols {
		if i == len(b.cols) {
			break
		}
		cb := &b.cols[i]
		c.defs, c.vals, c.bools, c.idx = cb.defs[:0], cb.vals[:0], cb.bools[:0], cb.idx[:0]
		c.data, c.dictBuf = cb.data[:0], cb.dictBuf[:0]
	}
}

// releaseBufs hands f's buffers to the next file; f must not be used afterwards.
func (f *fastFile) releaseBufs() {
	b := &fastBufs{page: f.page, comp: f.comp, cols: make([]colBufs, len(f.cols))}
	for i, c := range f.cols {
		b.cols[i] = colBufs{defs: c.defs, vals: c.vals, bools: c.bools, idx: c.idx, data: c.data, dictBuf: c.dictBuf}
		c.defs, c.vals, c.bools, c.idx, c.data, c.dictBuf = nil, nil, nil, nil, nil, nil
	}
	f.page, f.comp = nil, nil
	fastBufPool.Put(b)
}
