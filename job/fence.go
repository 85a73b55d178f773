package job

import (
	"context"
	"errors"
	"fmt"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
)

// ErrOvertaken is returned (wrapped) when this runner finds that the job moved on without it: another
// runner took the lease (--takeover, a Temporal segment takeover), or recorded, re-attempted, voided
// or finished what this runner was about to commit. The runner stops without committing, publishing
// or pinning anything; what the other runner recorded stands (docs/protocol.md, "Paused runners and
// expiry").
var ErrOvertaken = errors.New("job: this runner was overtaken by another runner of the job")

// fence is what a runner checks immediately before it looks a window's commit up and again
// immediately before it creates the window's snapshot. A runner that was paused (GC stall, SIGSTOP,
// a frozen VM) while another runner took over may wake up at any step; the table alone cannot tell
// it that its window was committed once the marker expired, but the store and the lease can.
type fence struct {
	d      *driver
	window int64 // the window (or an overwrite's final identifier) being committed
	// knownLast is the newest attempt of the window this runner knew of when it decided to commit
	// (the attempt it ran, or the state recovery decided on): a newer one was begun by someone else.
	knownLast int
}

// check returns an error wrapping ErrOvertaken when the lease is no longer this run's, the job's
// generation is done (finished or aborted), or the window was committed, published, voided or
// re-attempted since this runner decided to commit it.
func (f fence) check(ctx context.Context) error {
	d := f.d
	if err := d.checkLease(ctx); err != nil {
		return err
	}
	done, err := fileio.Exists(ctx, d.store.FS(), d.store.GenerationDonePath(d.st.Generation()))
	if err != nil {
		return err
	}
	if done {
		return d.overtaken(f.window, "the job was finished (or aborted) by another runner")
	}
	if f.knownLast == 0 {
		return nil // an overwrite's final commit: checked per window by the caller
	}
	st, err := d.store.LoadWindow(ctx, d.st, f.window)
	if err != nil {
		return err
	}
	ws, _ := st.Window(f.window)
	switch {
	case ws.Voided != nil:
		return d.overtaken(f.window, "the window was voided by another runner")
	case ws.Published != nil:
		return d.overtaken(f.window, fmt.Sprintf("the window was published (attempt %d) by another runner", ws.Published.Attempt))
	case ws.Committed != nil:
		return d.overtaken(f.window, fmt.Sprintf("the window was recorded as committed (snapshot %d, attempt %d) by another runner",
			ws.Committed.SnapshotID, ws.Committed.Attempt))
	case ws.LastAttempt() > f.knownLast:
		return d.overtaken(f.window, fmt.Sprintf("another runner began attempt %d of the window", ws.LastAttempt()))
	}
	return nil
}

// overtaken is the error of a runner that stops because the job moved on without it.
func (d *driver) overtaken(w int64, why string) error {
	return fmt.Errorf("%w: window %d: %s while this runner was stopped or slow; this runner stops without committing. "+
		"Nothing is lost: run `lakeload status --job %s` to see the job", ErrOvertaken, w, why, d.cfg.Name)
}

// checkLease fails with ErrOvertaken unless the job's current lease is this run's and not released.
func (d *driver) checkLease(ctx context.Context) error {
	if d.leaseToken == "" {
		return nil // no lease taken (a dry run)
	}
	cur, ok, err := d.store.CurrentLease(ctx)
	if err != nil {
		return err
	}
	switch {
	case !ok:
		if err := d.store.CheckPresent(ctx); err != nil {
			return err // the whole store vanished (checkpoint.ErrStoreGone, exit 7)
		}
		return fmt.Errorf("%w: the job's lease is gone (the job was forgotten?); this runner stops without committing", ErrOvertaken)
	case cur.Owner.Token != d.leaseToken:
		return fmt.Errorf("%w: the job's lease was taken by %s pid %d at %s while this runner was stopped or slow; this runner stops "+
			"without committing (nothing is lost)", ErrOvertaken, cur.Owner.Host, cur.Owner.PID, cur.Acquired.UTC().Format("2006-01-02T15:04:05Z"))
	case cur.Released:
		return fmt.Errorf("%w: the job's lease was released while this runner ran; it stops without committing", ErrOvertaken)
	}
	return nil
}

// lookupWindow returns the lookup floor of window w (table.Snapshots.FloorSince) and the job's
// commits after it, checked complete. After a rollback below the window's snapshotSeen the floor is
// the one before the earliest snapshot, read just before the scan; an expiry of other writers' old
// snapshots during the scan then makes the range look incomplete although nothing after the
// rollback was lost, so the floor is computed and the scan made again (at most lookupTries times)
// before the window stops as unverifiable.
func (d *driver) lookupWindow(ctx context.Context, w int64, a checkpoint.Assigned) (int64, []*spec.Snapshot, error) {
	for try := 1; ; try++ {
		floor, err := d.t.Snapshots().FloorSince(ctx, a.SnapshotSeen, a.SeenList)
		if err != nil {
			return 0, nil, err
		}
		commits, err := d.userCommits(ctx, w, floor)
		if err == nil || floor >= a.SnapshotSeen || try == lookupTries || !errors.Is(err, checkpoint.ErrStop) {
			return floor, commits, err
		}
	}
}

// lookupTries bounds lookupWindow's scans after a rollback below snapshotSeen.
const lookupTries = 3

// userCommits returns the snapshots of the job's commit user after floor, checked complete
// (lookupComplete).
func (d *driver) userCommits(ctx context.Context, w int64, floor int64) ([]*spec.Snapshot, error) {
	all, err := d.t.Snapshots().CommitsOfUser(ctx, d.job.CommitUser, floor)
	if err != nil {
		return nil, err
	}
	return all, d.lookupComplete(ctx, w, floor)
}

// lookupComplete checks that a lookup after floor, made just before, saw every snapshot after
// floor: read after the scan, an earliest snapshot above floor+1 means snapshots the scan needed
// expired (before or during it), so the absence of a marker proves nothing (I3, scenario 22).
// Without this check a runner whose window's marker expired would commit the window again.
func (d *driver) lookupComplete(ctx context.Context, w int64, floor int64) error {
	earliest, ok, err := d.t.Snapshots().EarliestID(ctx)
	if err != nil {
		return err
	}
	if ok && earliest > floor+1 {
		return fmt.Errorf("%w: window %d: snapshots after %d (the lookup floor: the snapshot seen when the window was assigned, or the one before the earliest after a rollback below it) have expired (the earliest is %d), "+
			"so whether the window was committed cannot be verified; nothing was committed. Check the table by hand: if the window's "+
			"rows are in it, run `lakeload job forget` and load the rest as a new job", checkpoint.ErrStop, w, floor, earliest)
	}
	return nil
}

// windowMarkers returns the window's marker snapshots among the user's commits, and fails when a
// later window of the job is already committed: a runner behind the job (I2) stops.
func (d *driver) windowMarkers(w int64, commits []*spec.Snapshot) ([]*spec.Snapshot, error) {
	var out []*spec.Snapshot
	for _, s := range commits {
		switch {
		case s.CommitIdentifier == w && s.CommitKind == spec.CommitKindAppend:
			out = append(out, s)
		case s.CommitIdentifier > w && s.CommitKind == spec.CommitKindAppend && d.cfg.Overwrite == "":
			return nil, d.overtaken(w, fmt.Sprintf("snapshot %d committed later window %d", s.ID, s.CommitIdentifier))
		}
	}
	return out, nil
}

// checkFinal is the fence of an overwrite job's final commit (identifier id), decided on state st:
// the lease and the done record as for a window, and no window of st recorded (committed,
// published), voided or re-attempted by someone else since st was loaded, and no window added.
func (d *driver) checkFinal(ctx context.Context, st checkpoint.State, id int64) error {
	if err := (fence{d: d, window: id}).check(ctx); err != nil {
		return err
	}
	now, err := d.store.Load(ctx)
	if err != nil {
		return err
	}
	if n, m := len(now.Windows()), len(st.Windows()); n != m {
		return d.overtaken(id, fmt.Sprintf("another runner assigned windows %d..%d", m+1, n))
	}
	for _, ws := range st.Windows() {
		cur, _ := now.Window(ws.Window)
		switch {
		case (cur.Committed != nil) != (ws.Committed != nil) || (cur.Published != nil) != (ws.Published != nil):
			return d.overtaken(id, fmt.Sprintf("window %d was recorded as committed by another runner", ws.Window))
		case (cur.Voided != nil) != (ws.Voided != nil):
			return d.overtaken(id, fmt.Sprintf("window %d was voided by another runner", ws.Window))
		case cur.LastAttempt() != ws.LastAttempt():
			return d.overtaken(id, fmt.Sprintf("another runner began attempt %d of window %d", cur.LastAttempt(), ws.Window))
		}
	}
	return nil
}
