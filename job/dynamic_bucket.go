package job

import (
	"context"
	"errors"
	"fmt"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/table"
)

// Dynamic-bucket primary-key tables (bucket = -1) route keys by the table's HASH index: a window's
// writer restores the index from the latest snapshot and its commit messages replace the HASH
// files of the buckets it added keys to.
//
//   - One task per window, even with Config.SplitTasks: tasks with writers of their own would each
//     assign new keys from the same restored index, so two tasks could put one new key (or two keys
//     of equal hash) into different buckets, and their HASH files for one bucket would replace each
//     other at commit. One writer per window assigns every key once.
//   - A stored result's HASH files were computed against the snapshot its writer restored from. If
//     another writer changed the index of the partition before the window commits, the commit fails
//     with commit.ErrConflict (package commit checks replaced files and key hashes against the latest
//     snapshot) and nothing lands; the window is then recomputed as a new attempt over the same
//     splits and sequence numbers, whose writer restores the index as it is now. Recovery of a
//     stored result goes through the same commit, so a resume never drops index entries either.

// maxIndexRecomputes bounds the recomputes of one window caused by index conflicts in one run: a
// writer that keeps changing the table's index means two writers are loading the table at once.
const maxIndexRecomputes = 3

// dynamicBucket reports whether t is a dynamic-bucket primary-key table.
func dynamicBucket(t *table.Table) bool { return t.HasPrimaryKey() && t.Options.Bucket() == -1 }

// recomputeAfterIndexConflict handles a failed commit of attempt a of window ws: an index conflict
// on a dynamic-bucket table starts attempt LastAttempt+1 and runs the window again; any other
// error is returned as is.
func (d *driver) recomputeAfterIndexConflict(ctx context.Context, ws checkpoint.WindowState, a int, err error) error {
	if !dynamicBucket(d.t) || !errors.Is(err, commit.ErrConflict) || ctx.Err() != nil {
		return err
	}
	if d.indexRecomputes == nil {
		d.indexRecomputes = map[int64]int{}
	}
	if d.indexRecomputes[ws.Window] >= maxIndexRecomputes {
		return fmt.Errorf("%w; window %d was recomputed %d times because another writer kept changing the HASH index of table %s: "+
			"only one writer may load a dynamic-bucket table at a time — stop the other writer and run the load again", err, ws.Window, d.indexRecomputes[ws.Window], d.t.Path)
	}
	d.indexRecomputes[ws.Window]++
	next := ws.LastAttempt() + 1
	d.cfg.Logger.Warn("dynamic-bucket index changed by another writer; recomputing the window", "window", ws.Window, "attempt", next, "err", err)
	if err := d.store.WriteAttemptStart(ctx, checkpoint.AttemptStart{Window: ws.Window, Attempt: next,
		Reason: fmt.Sprintf("attempt %d conflicts with the table's HASH index: %v", a, err), Created: d.cfg.Now().UTC()}); err != nil {
		return raced(err, ws.Window, fmt.Sprintf("attempt %d", next))
	}
	return d.runWindow(ctx, ws.Assigned, next)
}
