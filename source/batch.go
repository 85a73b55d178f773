package source

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakeload/lakeload/paimon/spec"
)

// MappingOptions control how input columns become table fields.
type MappingOptions struct {
	// OpColumn names an input column holding row kinds (+I, -U, +U, -D, insert, update_before,
	// update, update_after, delete). It is removed from the data. "" = every row is +I.
	OpColumn string
	// IgnoreExtra drops input columns that match no table field instead of failing.
	IgnoreExtra bool
	// TimeZone reads TIMESTAMP_LTZ values written without an offset; nil = UTC.
	TimeZone *time.Location
	// SkipBadRows leaves out rows that fail row-level validation (a *ValueError naming a row: wrong
	// field count, bad value, null in a NOT NULL column, invalid UTF-8, malformed JSON line) and
	// reports them in Batch.Rejected instead of failing. File-level problems still fail.
	SkipBadRows bool
	// Limits bound what one hostile record or file can make a reader hold (nesting depth, record
	// size, Parquet decode budget and footer size); zero fields take their defaults.
	Limits Limits
	// CSV is the dialect of CSV input (delimiter, quote, header row); the zero value is RFC 4180
	// with a header.
	CSV CSVDialect
}

// Location returns TimeZone, or UTC when it is nil.
func (o MappingOptions) Location() *time.Location {
	if o.TimeZone == nil {
		return time.UTC
	}
	return o.TimeZone
}

// Batch is a run of consecutive input rows converted to the table's shape.
type Batch struct {
	// Record has one column per table field in schema order, typed per ArrowType. The receiver
	// owns it and must Release it.
	Record arrow.RecordBatch
	// Kinds holds one row kind per record row when an op column is set; nil means all +I.
	Kinds []spec.RowKind
	// Split is the split the rows come from.
	Split Split
	// FirstRow is the 0-based index, within the file, of the record's first row (header excluded).
	// Record's rows are consecutive input rows; a rejected row ends a batch.
	FirstRow int64
	// Rejected lists rows left out right after the record's rows (SkipBadRows only). A batch may
	// hold no rows and only rejects.
	Rejected []Rejected
}

// Reader streams the batches of one split.
type Reader interface {
	// Next returns the next batch, or io.EOF after the last one. After any other error the
	// reader is unusable and keeps returning that error.
	Next(ctx context.Context) (*Batch, error)
	// Close releases the input file.
	Close() error
}

// Source reads the splits of a load: files (source/file.Source) or anything else a library user
// implements. Reading a split again must give the same rows in the same order (a recomputed window
// writes the same sequence numbers).
type Source interface {
	Open(ctx context.Context, s Split, table *spec.TableSchema, opts MappingOptions) (Reader, error)
}
