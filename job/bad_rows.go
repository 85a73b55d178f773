package job

import (
	"context"
	"errors"
	"strconv"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/source"
)

// Values of Config.BadRows.
const (
	BadRowsFail       = "fail"       // a bad row stops the load (the default)
	BadRowsQuarantine = "quarantine" // a bad row is left out and listed in the quarantine file
)

// voidAfterInputError takes a freshly assigned window out of the job when its first attempt failed
// on bad input, so the user can fix the input and run the same command again: the window's splits
// return to the pool, a changed file is re-planned (replan), and the rows load in a new window.
// It is safe because nothing of the window can be committed: its only attempt failed in its tasks
// (before any commit), the attempt began with this runner's write-once `assigned` record, and
// recovery never commits or publishes a voided window. Other errors are returned as they are.
func (d *driver) voidAfterInputError(ctx context.Context, a checkpoint.Assigned, err error) error {
	var ie *InputError
	if !errors.As(err, &ie) || ctx.Err() != nil {
		return err
	}
	v := checkpoint.Voided{Window: a.Window, Reason: "input error in attempt " + strconv.Itoa(a.Attempt) + ": " + source.Truncate(err.Error()),
		Created: d.cfg.Now().UTC()}
	if verr := d.store.WriteVoided(context.WithoutCancel(ctx), v); verr != nil {
		d.cfg.Logger.Warn("could not void the window after an input error; fixing the input will not resume this job", "window", a.Window, "err", verr)
	}
	return err
}
