package job

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/table"
)

// consumerID is the Paimon consumer a job keeps so that snapshot expiry (which never passes the
// earliest consumer) cannot remove a window's marker snapshot before the job recorded it.
func consumerID(job string) string { return "lakeload-" + job }

// pin sets the job's consumer to next (Paimon consumer file: {"nextSnapshot": N}), the oldest
// snapshot the job still needs: the snapshot its next commit builds on (a window's snapshotSeen, or
// the last published marker), not the one after it. A commit reads its base's manifests and, after
// creating its snapshot, takes a missing base for a reused id and deletes its snapshot again
// (paimon/table Snapshots.Commit), so expiry must not remove the base while a runner commits, however
// long it is stopped (TestStoppedCommitKeepsItsBase). A consumer file
// that already holds exactly that content is left as it is: it was written (and synced) before, and
// the pin before a window's commit usually repeats the one written after the previous window's
// publish, so rewriting it would only cost two fsyncs per window.
//
// A pin is never written below the earliest snapshot: there it protects nothing and would hold
// expiry back at that id for good (callers fence first, so a runner that was overtaken while it was
// stopped never pins at all).
func pin(ctx context.Context, t *table.Table, job string, next int64) error {
	if earliest, ok, err := t.Snapshots().EarliestID(ctx); err != nil {
		return err
	} else if ok && next < earliest {
		next = earliest
	}
	next = max(next, 1) // nextSnapshot 0 would pin nothing (an empty table: protect snapshot 1 on)
	path := fileio.Join(t.Path, "consumer", "consumer-"+consumerID(job))
	want := fmt.Appendf(nil, `{"nextSnapshot":%d}`, next)
	if cur, err := t.FS.ReadFile(ctx, path); err == nil && bytes.Equal(cur, want) {
		return nil
	}
	return fileio.WriteFile(ctx, t.FS, path, want)
}

// pin pins the job's consumer at next (pin) and checks the lease again afterwards. The lease is
// checked before every pin, but a runner can stop (a GC stall) between that check and the write; if
// another runner took the job over meanwhile, finished it and dropped the pin, the late write
// re-created a finished job's pin, which holds expiry back for good (TestStoppedPinWriteLeavesNoPin).
// A runner that finds its lease gone after the write removes the pin when the job is done, moves it
// up to the earliest snapshot otherwise (the runner that took over rewrites it at its next step), and
// stops as overtaken.
func (d *driver) pin(ctx context.Context, next int64) error {
	if err := pin(ctx, d.t, d.cfg.Name, next); err != nil {
		return err
	}
	lerr := d.checkLease(ctx)
	if !errors.Is(lerr, ErrOvertaken) {
		return lerr
	}
	st, err := d.store.Load(ctx)
	if err != nil {
		return err
	}
	if _, done := st.Done(); done {
		err = unpin(ctx, d.t, d.cfg.Name)
	} else {
		err = pin(ctx, d.t, d.cfg.Name, next) // clamped to the earliest snapshot, rewritten if that moved
	}
	if err != nil && !errors.Is(err, fileio.ErrNotExist) {
		return err
	}
	return lerr
}

// unpin deletes the job's consumer.
func unpin(ctx context.Context, t *table.Table, job string) error {
	return t.Delete(ctx, fileio.Join(t.Path, "consumer", "consumer-"+consumerID(job)))
}
