package pqflat

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// out holds the buffers of one column's batch while it is decoded.
type out struct {
	valid *memory.Buffer // validity bitmap (nil for a required column)
	vals  *memory.Buffer // fixed-width values, or int32 offsets of byte arrays
	data  *memory.Buffer // bytes of byte arrays
	n     int            // rows of the batch
	rows  int            // rows the validity and value buffers hold
}

// valueDecoder turns a page's values into a batch's buffers.
type valueDecoder interface {
	// setDict decodes a PLAIN dictionary page of n values.
	setDict(data []byte, n int) error
	// decode places the values of rows off..off+m-1 (valid of them not null, as o.valid says).
	decode(p *page, o *out, off, m, valid int) error
}

type num interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~float32 | ~float64
}

// view is b as values of T, copied to *tmp when b is not aligned for T. Buffers of a
// memory.Allocator are 64-byte aligned, so views of them pass no tmp.
func view[T num](b []byte, tmp *[]T) []T {
	var z T
	size := int(unsafe.Sizeof(z))
	n := len(b) / size
	if n == 0 {
		return nil
	}
	if uintptr(unsafe.Pointer(&b[0]))%unsafe.Alignof(z) == 0 {
		return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), n)
	}
	if cap(*tmp) < n {
		*tmp = make([]T, n)
	}
	t := (*tmp)[:n]
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&t[0])), n*size), b)
	return t
}

// fixed decodes physical values T (PLAIN or dictionary) into Arrow values O.
type fixed[T, O num] struct {
	dict []T
	tmp  []T
	al   []T // aligned copy of unaligned PLAIN values
	idx  []int32
}

func (d *fixed[T, O]) setDict(data []byte, n int) error {
	var z T
	size := int(unsafe.Sizeof(z))
	if n > len(data)/size {
		return fmt.Errorf("dictionary of %d values in %d bytes", n, len(data))
	}
	if cap(d.dict) < n {
		d.dict = make([]T, n)
	}
	d.dict = d.dict[:n]
	if n > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&d.dict[0])), n*size), data)
	}
	return nil
}

func (d *fixed[T, O]) decode(p *page, o *out, off, m, valid int) error {
	var z T
	var src []T
	if p.dict {
		if cap(d.idx) < valid {
			d.idx, d.tmp = make([]int32, valid), make([]T, valid)
		}
		idx, tmp := d.idx[:valid], d.tmp[:valid]
		if err := p.idx.indices(idx, len(d.dict)); err != nil {
			return err
		}
		if valid == m { // gather straight into the batch
			dst := view[O](o.vals.Bytes(), nil)[off : off+m]
			for j, x := range idx {
				dst[j] = O(d.dict[x])
			}
			return nil
		}
		for j, x := range idx {
			tmp[j] = d.dict[x]
		}
		src = tmp
	} else {
		nb := valid * int(unsafe.Sizeof(z))
		if nb > len(p.values)-p.pos {
			return fmt.Errorf("page holds %d bytes of values, fewer than %d", len(p.values)-p.pos, nb)
		}
		src = view(p.values[p.pos:p.pos+nb], &d.al)
		p.pos += nb
	}
	dst := view[O](o.vals.Bytes(), nil)[off : off+m]
	if valid == m {
		if same, ok := any(src).([]O); ok {
			copy(dst, same)
			return nil
		}
		for j, v := range src {
			dst[j] = O(v)
		}
		return nil
	}
	bm := o.valid.Bytes()
	j := 0
	for i := range dst {
		if bitutil.BitIsSet(bm, off+i) {
			dst[i] = O(src[j])
			j++
		} else {
			dst[i] = 0
		}
	}
	return nil
}

// byteArrays decodes BYTE_ARRAY values (PLAIN or dictionary) into int32 offsets and data.
type byteArrays struct {
	page []byte  // copy of the dictionary page
	offs []int32 // dictionary entry i is page[offs[2i]:offs[2i+1]]
	idx  []int32
}

var errTooLarge = errors.New("a batch of the column holds more than 2 GiB of bytes")

func (d *byteArrays) setDict(data []byte, n int) error {
	if n > len(data)/4 || len(data) > math.MaxInt32 {
		return fmt.Errorf("dictionary of %d byte arrays in %d bytes", n, len(data))
	}
	d.page = append(d.page[:0], data...)
	if cap(d.offs) < 2*n {
		d.offs = make([]int32, 2*n)
	}
	d.offs = d.offs[:2*n]
	pos := 0
	for i := 0; i < n; i++ {
		l, err := arrayLen(data, pos)
		if err != nil {
			return err
		}
		d.offs[2*i], d.offs[2*i+1] = int32(pos+4), int32(pos+4+l)
		pos += 4 + l
	}
	return nil
}

// arrayLen is the length of the PLAIN byte array at data[pos:], checked to lie inside data.
func arrayLen(data []byte, pos int) (int, error) {
	if pos+4 > len(data) {
		return 0, fmt.Errorf("byte array length at byte %d past the end of %d", pos, len(data))
	}
	l := int(binary.LittleEndian.Uint32(data[pos:]))
	if l > len(data)-pos-4 {
		return 0, fmt.Errorf("byte array of %d bytes at byte %d past the end of %d", l, pos, len(data))
	}
	return l, nil
}

func (d *byteArrays) decode(p *page, o *out, off, m, valid int) error {
	offs := view[int32](o.vals.Bytes(), nil)
	var bm []byte
	if valid < m {
		bm = o.valid.Bytes()
	}
	start := int64(offs[off])
	total := start
	if p.dict {
		if cap(d.idx) < valid {
			d.idx = make([]int32, valid)
		}
		idx := d.idx[:valid]
		if err := p.idx.indices(idx, len(d.offs)/2); err != nil {
			return err
		}
		j := 0
		for i := 0; i < m; i++ {
			if bm == nil || bitutil.BitIsSet(bm, off+i) {
				x := idx[j]
				total += int64(d.offs[2*x+1] - d.offs[2*x])
				j++
			}
			offs[off+i+1] = int32(total)
		}
		if total > math.MaxInt32 {
			return errTooLarge
		}
		dst := o.grow(int(total), off+m)
		at := start
		for _, x := range idx {
			at += int64(copy(dst[at:], d.page[d.offs[2*x]:d.offs[2*x+1]]))
		}
		return nil
	}
	pos := p.pos
	for i := 0; i < m; i++ {
		if bm == nil || bitutil.BitIsSet(bm, off+i) {
			l, err := arrayLen(p.values, pos)
			if err != nil {
				return err
			}
			total += int64(l)
			if total > math.MaxInt32 {
				return errTooLarge
			}
			pos += 4 + l
		}
		offs[off+i+1] = int32(total)
	}
	dst := o.grow(int(total), off+m)
	at, vals := start, p.values
	for pos = p.pos; valid > 0; valid-- { // lengths checked above
		l := int(binary.LittleEndian.Uint32(vals[pos:]))
		at += int64(copy(dst[at:], vals[pos+4:pos+4+l]))
		pos += 4 + l
	}
	p.pos = pos
	return nil
}

// grow resizes the data buffer to n bytes, the bytes of the batch's first rows rows, and returns
// them. When it must grow, it reserves what the whole batch would take at that rate (at least
// double), so that a batch is copied once or twice, not once per page.
func (o *out) grow(n, rows int) []byte {
	if b := o.data; n > b.Cap() {
		est := int(int64(n) * int64(o.n) / int64(max(rows, 1)) * 9 / 8)
		b.Reserve(max(n, 2*b.Cap(), est))
	}
	o.data.ResizeNoShrink(n)
	return o.data.Bytes()
}
