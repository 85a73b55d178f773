package parquet

import "encoding/binary"

// Thrift compact protocol, just enough for Parquet page headers (the footer is written by
// arrow-go's metadata package).
const (
	tcBoolTrue  = 1
	tcBoolFalse = 2
	tcI32       = 5
	tcStruct    = 12
)

// tcWriter appends Thrift compact-protocol fields to buf; last is the previous field id of the
// struct being written.
type tcWriter struct {
	buf  []byte
	last []int16
}

func (w *tcWriter) field(id int16, typ byte) {
	top := &w.last[len(w.last)-1]
	if d := id - *top; d > 0 && d <= 15 {
		w.buf = append(w.buf, byte(d)<<4|typ)
	} else {
		w.buf = append(w.buf, typ)
		w.buf = binary.AppendVarint(w.buf, int64(id))
	}
	*top = id
}

func (w *tcWriter) i32(id int16, v int32) {
	w.field(id, tcI32)
	w.buf = binary.AppendVarint(w.buf, int64(v)) // zigzag varint
}

func (w *tcWriter) boolean(id int16, v bool) {
	if v {
		w.field(id, tcBoolTrue)
	} else {
		w.field(id, tcBoolFalse)
	}
}

func (w *tcWriter) begin(id int16) {
	w.field(id, tcStruct)
	w.last = append(w.last, 0)
}

func (w *tcWriter) end() {
	w.buf = append(w.buf, 0)
	w.last = w.last[:len(w.last)-1]
}

// Parquet thrift enum values used by the fast path.
const (
	pageData       = 0
	pageDictionary = 2
	encPlain       = 0
	encRLE         = 3
	encRLEDict     = 8
)

// appendDataPageHeader appends a PageHeader for a v1 data page (no page statistics).
func appendDataPageHeader(dst []byte, uncompressed, compressed, numValues int, enc int32) []byte {
	w := tcWriter{buf: dst, last: make([]int16, 1, 3)}
	w.i32(1, pageData)
	w.i32(2, int32(uncompressed))
	w.i32(3, int32(compressed))
	w.begin(5)
	w.i32(1, int32(numValues))
	w.i32(2, enc)
	w.i32(3, encRLE)
	w.i32(4, encRLE)
	w.end()
	w.end()
	return w.buf
}

// appendDictPageHeader appends a PageHeader for a PLAIN dictionary page.
func appendDictPageHeader(dst []byte, uncompressed, compressed, numValues int) []byte {
	w := tcWriter{buf: dst, last: make([]int16, 1, 3)}
	w.i32(1, pageDictionary)
	w.i32(2, int32(uncompressed))
	w.i32(3, int32(compressed))
	w.begin(7)
	w.i32(1, int32(numValues))
	w.i32(2, encPlain)
	w.boolean(3, false)
	w.end()
	w.end()
	return w.buf
}
