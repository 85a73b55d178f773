package job

import (
	"context"
	"errors"
	"fmt"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/job/plan"
)

// replan checks the files of the candidate splits of the next window. A file that changed or vanished
// while any of its splits is assigned is an input error naming it. A file none of whose splits is
// assigned is re-planned by a plan revision: its splits are dropped and, unless it vanished, its new
// splits take their place in the input order. replan reports whether it wrote a revision; the caller
// then picks the window again from the reloaded State.
func (d *driver) replan(ctx context.Context, candidates []int) (bool, error) {
	if d.cfg.InputFS == nil {
		return false, nil // a custom Source: splits are not files and are never re-planned
	}
	rev, err := plan.Revise(ctx, d.cfg.InputFS, d.st, d.plan, candidates, d.splitRows(), d.cfg.CSV, d.cfg.Logger, d.cfg.Now())
	if err != nil || rev.Reason == "" {
		return false, err
	}
	if err := d.store.WriteRevision(ctx, rev); err != nil {
		if errors.Is(err, fileio.ErrExist) {
			return false, fmt.Errorf("plan revision %d was written by another runner of job %s: only one runner may run a job", rev.Revision, d.cfg.Name)
		}
		return false, err
	}
	st, err := d.store.Load(ctx)
	if err != nil {
		return false, err
	}
	if d.plan, err = plan.Stored(st); err != nil {
		return false, err
	}
	d.st = st
	return true, nil
}
