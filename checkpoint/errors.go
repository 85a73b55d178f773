package checkpoint

import (
	"errors"
	"fmt"

	"github.com/lakeload/lakeload/paimon/spec"
)

// ErrCorrupt is wrapped by every error about a torn, corrupt, misplaced or inconsistent record.
// errors.Is(err, spec.ErrCorrupt) holds too.
var ErrCorrupt = fmt.Errorf("checkpoint: corrupt store: %w", spec.ErrCorrupt)

// ErrLeaseHeld is returned (wrapped) by AcquireLease when another live owner holds the lease.
var ErrLeaseHeld = errors.New("checkpoint: lease held by another runner")

// ErrLeaseLost is returned (wrapped) by Lease.Renew and Lease.Release when another runner took the
// lease over since this handle's version.
var ErrLeaseLost = errors.New("checkpoint: lease lost to another runner")

// ErrStop is wrapped by the error of a Stop action: recovery cannot proceed without a person.
var ErrStop = errors.New("checkpoint: recovery stopped")

// ErrTableReplaced is wrapped by JobRecord.Compatible's error when the job's table was dropped and
// created again since the job was created: the job's windows went to the old table, so the run must
// not go on (nor report the job finished). errors.Is(err, ErrStop) holds too: a person must decide.
var ErrTableReplaced error = stopKind("checkpoint: the job's table was dropped and created again")

// ErrJobChanged is wrapped by JobRecord.Compatible's error when a run's table path, input or a
// result-changing option differs from what the job was created with: the command line is at fault,
// and running it again unchanged cannot help.
var ErrJobChanged = errors.New("checkpoint: the run differs from the job")

// changedError is JobRecord.Compatible's error: its message alone, matching ErrJobChanged.
type changedError string

func (e changedError) Error() string        { return string(e) }
func (e changedError) Is(target error) bool { return target == ErrJobChanged }

// stopKind is a sentinel that also matches ErrStop.
type stopKind string

func (e stopKind) Error() string        { return string(e) }
func (e stopKind) Is(target error) bool { return target == ErrStop }

// corruptf builds an error wrapping ErrCorrupt that names path.
func corruptf(path, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrCorrupt, path, fmt.Sprintf(format, args...))
}

// ErrStoreGone is wrapped by the error of a run whose checkpoint store vanished while it held the
// job's lease (deleted, or forgotten with `job forget`): the run stops at its next window boundary,
// or before its next record or commit, and records nothing more. errors.Is(err, ErrStop) holds too:
// a person must restore the store or decide how to go on.
var ErrStoreGone error = stopKind("checkpoint: the job's checkpoint store vanished during the run")
