package temporal

import (
	"errors"
	"strings"

	"go.temporal.io/sdk/temporal"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/compact"
	"github.com/lakeload/lakeload/paimon/write"
)

// errorKind maps a sentinel error of the driver to the application error type that carries it
// across the wire, so the submitter gets an error matching the same sentinel (and the CLI the same
// exit code) as an in-process run.
type errorKind struct {
	typ      string
	sentinel error
	retry    bool // a segment failing with it is retried by Temporal
}

var errorKinds = []errorKind{
	{"lakeload.LeaseHeld", checkpoint.ErrLeaseHeld, false}, // held by a runner outside this workflow
	{"lakeload.StoreGone", checkpoint.ErrStoreGone, false}, // before Stop, which it matches too
	{"lakeload.Stop", checkpoint.ErrStop, false},
	{"lakeload.Corrupt", checkpoint.ErrCorrupt, false},
	{"lakeload.Aborted", job.ErrAborted, false},
	{"lakeload.NoJob", checkpoint.ErrNoJob, false},
	{"lakeload.JobChanged", checkpoint.ErrJobChanged, false}, // the run's options differ from the job's
	{"lakeload.TableNotExist", catalog.ErrTableNotExist, false},
	{"lakeload.DatabaseNotExist", catalog.ErrDatabaseNotExist, false},
	{"lakeload.BadName", catalog.ErrBadName, false},
	{"lakeload.UnsupportedTable", write.ErrUnsupportedTable, false},
	{"lakeload.CompactUnsupported", compact.ErrUnsupported, false},
	{"lakeload.Conflict", commit.ErrConflict, true}, // a rerun re-plans: so does a retried segment
}

func nonRetryableKinds() []string {
	out := []string{inputErrorType}
	for _, k := range errorKinds {
		if !k.retry {
			out = append(out, k.typ)
		}
	}
	return out
}

// toWire turns a driver error into an application error whose type names its kind; errors of no
// known kind stay plain (retryable) errors.
func toWire(err error) error {
	var ie *job.InputError
	if errors.As(err, &ie) {
		return temporal.NewNonRetryableApplicationError(err.Error(), inputErrorType, err)
	}
	for _, k := range errorKinds {
		if errors.Is(err, k.sentinel) {
			return temporal.NewApplicationErrorWithOptions(err.Error(), k.typ, temporal.ApplicationErrorOptions{NonRetryable: !k.retry, Cause: err})
		}
	}
	return err
}

// kindError is a driver error received from a worker: its message as the worker wrote it, matching
// the sentinel of its kind with errors.Is.
type kindError struct {
	msg      string
	sentinel error
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.sentinel }

// fromWireKind returns the error a worker raised with its kind restored: a *job.InputError, an error
// matching the kind's sentinel, or err itself.
func fromWireKind(err error) error {
	var app *temporal.ApplicationError
	if !errors.As(err, &app) {
		return err
	}
	if app.Type() == inputErrorType {
		msg := app.Message()
		if !strings.HasSuffix(msg, reportedSuffix) { // a task's error relayed by a driver segment has it already
			msg += reportedSuffix
		}
		return &job.InputError{Err: errors.New(msg)}
	}
	for _, k := range errorKinds {
		if app.Type() == k.typ {
			return &kindError{msg: app.Message(), sentinel: k.sentinel}
		}
	}
	return errors.New(app.Message() + reportedSuffix)
}

// reportedSuffix ends the message of an error of no known kind or an input error raised on a worker.
const reportedSuffix = " (reported by a worker)"
