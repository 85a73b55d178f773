package main

import (
	"context"
	"errors"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/compact"
	"github.com/lakeload/lakeload/paimon/format/datafile"
	"github.com/lakeload/lakeload/paimon/format/parquet"
	"github.com/lakeload/lakeload/paimon/write"
)

// Exit codes, documented in docs/cli.md.
const (
	exitOK          = 0
	exitFailure     = 1   // unexpected failure (I/O, corrupt table, bug)
	exitUsage       = 2   // bad command line (also a load whose table, input or options differ from the job's)
	exitInput       = 3   // bad input data: a file, row or value is at fault
	exitTable       = 4   // table (or the named job) missing, already present, or not supported (also a value in its files lakeload cannot represent); or table drop of a table that still has load jobs
	exitConflict    = 5   // commit conflict with another writer; running again re-plans
	exitBusy        = 6   // the job is run by another live runner (its lease; stop it or use --takeover), or this runner was overtaken by one while it was stopped (nothing is lost)
	exitAttention   = 7   // recovery stopped (the table or checkpoint store needs a person; the message says what to do), the job was aborted, its table was dropped and created again since the job was created, or its checkpoint store vanished during the run
	exitInterrupted = 130 // stopped by Ctrl-C / SIGTERM
)

// usageError marks errors in the command line.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// inputError marks errors in the input data.
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

func exitCode(ctx context.Context, err error) int {
	var ue usageError
	var ie inputError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, job.ErrOvertaken): // before Canceled: losing the lease cancels the run
		return exitBusy
	case errors.Is(err, checkpoint.ErrStoreGone): // before Canceled: a renewal finding the store gone cancels the run
		return exitAttention
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		return exitInterrupted
	case errors.As(err, &ue), errors.Is(err, checkpoint.ErrJobChanged), errors.Is(err, job.ErrInvalidSpec):
		return exitUsage
	case errors.As(err, &ie):
		return exitInput
	case errors.Is(err, catalog.ErrTableNotExist), errors.Is(err, catalog.ErrTableExist), errors.Is(err, checkpoint.ErrNoJob),
		errors.Is(err, catalog.ErrDatabaseNotExist), errors.Is(err, catalog.ErrBadName),
		errors.Is(err, write.ErrUnsupportedTable), errors.Is(err, compact.ErrUnsupported), errors.Is(err, errTableHasJobs),
		errors.Is(err, parquet.ErrUnrepresentable), // e.g. a Java INT96 timestamp beyond int64 nanoseconds
		errors.Is(err, datafile.ErrUnsupported):    // a data file format or ORC/Avro feature lakeload cannot read
		return exitTable
	case errors.Is(err, commit.ErrConflict):
		return exitConflict
	case errors.Is(err, checkpoint.ErrLeaseHeld):
		return exitBusy
	case errors.Is(err, checkpoint.ErrStop), errors.Is(err, checkpoint.ErrCorrupt), errors.Is(err, job.ErrAborted): // ErrStop covers ErrTableReplaced
		return exitAttention
	}
	return exitFailure
}
