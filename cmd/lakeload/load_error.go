package main

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job"
)

// loadError is the one-line error of a failed `load` of job name: the job's error with the advice
// that is true for it. "Run the same command again" is offered only where a rerun can succeed once
// the cause is fixed (bad input, I/O, a conflict); errors that carry their own advice (a recovery
// stop, a replaced table, an aborted or changed job, an overtaken runner) and command-line errors get
// none, and a dry run, which resumes nothing, is told to run again.
func loadError(name string, dryRun bool, err error) error {
	var ue usageError
	switch {
	case errors.Is(err, filepath.ErrBadPattern), errors.Is(err, path.ErrBadPattern):
		return usageError{fmt.Errorf("job %s: --from: %w", name, err)}
	case errors.As(err, &ue), errors.Is(err, checkpoint.ErrJobChanged), errors.Is(err, job.ErrInvalidSpec):
		return err
	case errors.Is(err, checkpoint.ErrTableReplaced), errors.Is(err, checkpoint.ErrStoreGone):
		return err // its message names the job or store and what to do; running again does not help
	case errors.Is(err, checkpoint.ErrStop), errors.Is(err, checkpoint.ErrCorrupt), errors.Is(err, job.ErrAborted),
		errors.Is(err, job.ErrOvertaken):
		return fmt.Errorf("job %s: %w", name, err) // its message says what to do; running again does not help
	case errors.Is(err, checkpoint.ErrLeaseHeld):
		return fmt.Errorf("job %s: %w; another runner holds the job: stop it, or pass --takeover if it is gone", name, err)
	case dryRun:
		return fmt.Errorf("job %s (dry run, nothing written): %w", name, err)
	}
	if strings.Contains(err.Error(), rerunAdvice) {
		return fmt.Errorf("job %s: %w", name, err) // the message already says so, fitted to its cause
	}
	return fmt.Errorf("job %s: %w; %s to resume once the cause is fixed", name, err, rerunAdvice)
}

// rerunAdvice is the advice of errors a rerun of the same command can get past.
const rerunAdvice = "run the same command again"
