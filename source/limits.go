package source

import (
	"math"
	"runtime/debug"
)

// Defaults of Limits; a zero field means its default.
const (
	// DefaultMaxJSONDepth is the deepest nesting of JSON arrays and objects a value may have.
	DefaultMaxJSONDepth = 512
	// DefaultMaxRecordBytes is the largest CSV record or JSON line, in bytes.
	DefaultMaxRecordBytes = 64 << 20
	// DefaultMaxFooterBytes is the largest Parquet footer (its Thrift metadata), in bytes.
	DefaultMaxFooterBytes = 64 << 20
	// DefaultMaxColumns is the most schema elements (columns and groups) a Parquet footer may declare.
	DefaultMaxColumns = 100_000
	// DefaultMaxDecodedBytes is the decode budget of a Parquet reader when the Go runtime has no
	// memory limit (debug.SetMemoryLimit); with one, the budget is that limit.
	DefaultMaxDecodedBytes = 1 << 30
)

// Limits bound what one hostile input record or file can make a reader hold in memory, so that such
// input is an error naming the file and the row (or row group and column), never a crash or an
// out-of-memory kill. Zero fields take their defaults; every limit can be raised.
type Limits struct {
	// MaxJSONDepth is the deepest nesting of JSON arrays and objects in a JSON line or in a CSV
	// field holding JSON text (0: DefaultMaxJSONDepth). Deeper input is a row error.
	MaxJSONDepth int
	// MaxRecordBytes is the largest CSV record or JSON line (0: DefaultMaxRecordBytes). A reader stops
	// buffering a record at the limit; the record is a row error. Because a decoded value takes more
	// memory than its text, it also bounds a record's decoded size: every CSV field and every JSON
	// value counts ValueCost bytes besides its text.
	MaxRecordBytes int64
	// MaxDecodedBytes bounds what a Parquet reader decodes at once (0: the Go memory limit, or
	// DefaultMaxDecodedBytes without one): the decompressed pages and dictionaries of the column chunks
	// being read, and the Arrow data of one batch, each. More is an input error (a decompression bomb,
	// or row groups too large for the memory limit).
	MaxDecodedBytes int64
	// MaxFooterBytes is the largest Parquet footer (0: DefaultMaxFooterBytes); MaxColumns the most
	// schema elements it may declare (0: DefaultMaxColumns). Both are checked before the footer is
	// decoded.
	MaxFooterBytes int64
	MaxColumns     int
	// AllowNonRegular lets a local input be a character device, FIFO or socket (planning refuses
	// them by default: /dev/zero never ends, and a FIFO cannot be read again when a window is
	// recomputed, which exactly-once needs).
	AllowNonRegular bool
}

// ValueCost is what a CSV field or a decoded JSON value counts towards MaxRecordBytes besides its
// text: about its size in memory.
const ValueCost = 32

// JSONDepth returns MaxJSONDepth or its default.
func (l Limits) JSONDepth() int {
	if l.MaxJSONDepth <= 0 {
		return DefaultMaxJSONDepth
	}
	return l.MaxJSONDepth
}

// RecordBytes returns MaxRecordBytes or its default.
func (l Limits) RecordBytes() int64 {
	if l.MaxRecordBytes <= 0 {
		return DefaultMaxRecordBytes
	}
	return l.MaxRecordBytes
}

// FooterBytes returns MaxFooterBytes or its default.
func (l Limits) FooterBytes() int64 {
	if l.MaxFooterBytes <= 0 {
		return DefaultMaxFooterBytes
	}
	return l.MaxFooterBytes
}

// Columns returns MaxColumns or its default.
func (l Limits) Columns() int {
	if l.MaxColumns <= 0 {
		return DefaultMaxColumns
	}
	return l.MaxColumns
}

// DecodedBytes returns MaxDecodedBytes, or the Go memory limit (DefaultMaxDecodedBytes when there is
// none), and whether the value came from the memory limit.
func (l Limits) DecodedBytes() (n int64, fromMemoryLimit bool) {
	if l.MaxDecodedBytes > 0 {
		return l.MaxDecodedBytes, false
	}
	if m := debug.SetMemoryLimit(-1); m > 0 && m < math.MaxInt64 {
		return m, true
	}
	return DefaultMaxDecodedBytes, false
}
