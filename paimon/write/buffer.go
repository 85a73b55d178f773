package write

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// DefaultBufferBytes is Paimon's default write-buffer-size (256 mb).
const DefaultBufferBytes = 256 << 20

// tableBufferBytes is the table's option write-buffer-size in bytes (DefaultBufferBytes when unset).
func tableBufferBytes(t *table.Table) (int64, error) {
	v, _ := t.Options.Get(spec.OptWriteBufferSize)
	if v == "" {
		return DefaultBufferBytes, nil
	}
	n, err := t.Options.WriteBufferSize()
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%w: table %s: option write-buffer-size=%q is not a positive memory size (e.g. '256 mb'); fix it with ALTER TABLE … SET",
			ErrUnsupportedTable, t.Path, v)
	}
	return n, nil
}

// columnarRowOverhead is what the columnar path buffers per row besides the batch: its global
// index, sequence number and kind in the bucket's buffer.
const columnarRowOverhead = 8 + 8 + 1

// recordSize is the memory a buffered batch holds: the capacity of every Arrow buffer it keeps alive
// (readers often over-allocate; a slice keeps its parent's buffers) plus the per-row bookkeeping.
func recordSize(rec arrow.RecordBatch) int64 {
	n := rec.NumRows() * columnarRowOverhead
	for _, c := range rec.Columns() {
		n += arrayBytes(c.Data())
	}
	return n
}

func arrayBytes(d arrow.ArrayData) int64 {
	if d == nil {
		return 0
	}
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(b.Cap())
		}
	}
	for _, c := range d.Children() {
		n += arrayBytes(c)
	}
	if d.DataType().ID() == arrow.DICTIONARY {
		n += arrayBytes(d.Dictionary())
	}
	return n
}
