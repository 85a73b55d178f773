package table

import (
	"context"
	"errors"
	"testing"

	"github.com/lakeload/lakeload/fileio/mem"
	"github.com/lakeload/lakeload/paimon/spec"
)

// fakeOwner is a SnapshotOwner holding its latest snapshot in memory and recording commit requests.
type fakeOwner struct {
	latest *spec.Snapshot
	sent   []int64
	err    error
}

func (o *fakeOwner) LatestSnapshot(context.Context) (*spec.Snapshot, error) { return o.latest, nil }
func (o *fakeOwner) String() string                                         { return "fake owner" }
func (o *fakeOwner) CommitSnapshot(_ context.Context, s *spec.Snapshot) error {
	o.sent = append(o.sent, s.ID)
	if o.err != nil {
		return o.err
	}
	o.latest = s
	return nil
}

// An owned table's snapshots go to its owner, never into snapshot files, and the latest snapshot is the
// owner's. A snapshot not built on the owner's latest is refused before any request (a paused writer
// whose id was taken, or taken and expired, must re-plan).
func TestOwnedSnapshotsCommitThroughOwner(t *testing.T) {
	ctx := context.Background()
	fs := mem.New()
	o := &fakeOwner{}
	tb := &Table{FS: fs, Path: "/t", Owner: o}
	m := tb.Snapshots()
	if err := m.Commit(ctx, &spec.Snapshot{ID: 1, CommitUser: "u", CommitKind: spec.CommitKindAppend}); err != nil {
		t.Fatal(err)
	}
	if ids, _ := NewSnapshots(fs, "/t").IDs(ctx); len(ids) != 0 {
		t.Fatalf("snapshot files %v written beside the owner", ids)
	}
	if id, ok, err := m.LatestID(ctx); err != nil || !ok || id != 1 {
		t.Fatalf("LatestID = %d, %v, %v; want the owner's 1", id, ok, err)
	}
	err := m.Commit(ctx, &spec.Snapshot{ID: 3, CommitUser: "u", CommitKind: spec.CommitKindAppend})
	if !errors.Is(err, ErrSnapshotExists) {
		t.Fatalf("snapshot 3 on latest 1: %v, want ErrSnapshotExists", err)
	}
	err = m.Commit(ctx, &spec.Snapshot{ID: 1, CommitUser: "u", CommitKind: spec.CommitKindAppend})
	if !errors.Is(err, ErrSnapshotExists) {
		t.Fatalf("snapshot 1 again: %v, want ErrSnapshotExists", err)
	}
	if err := m.Commit(ctx, &spec.Snapshot{ID: 2, CommitUser: "u", CommitKind: spec.CommitKindAppend}); err != nil {
		t.Fatalf("snapshot 2 on latest 1: %v", err)
	}
	if len(o.sent) != 2 || o.sent[0] != 1 || o.sent[1] != 2 {
		t.Fatalf("requests sent %v, want snapshots 1 and 2 only", o.sent)
	}
}
