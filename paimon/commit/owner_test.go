package commit_test

import (
	"context"
	"errors"
	"testing"

	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// lossyOwner is a table.SnapshotOwner like the REST catalog server: it creates each snapshot file
// itself (snapshot-N and LATEST of the table's directory) and knows the latest. The first lose
// commit requests it carries out have their answer lost (the caller sees a transport error).
type lossyOwner struct {
	files    *table.Snapshots // the table's snapshot files, written by the owner alone
	lose     int
	requests []int64 // snapshot ids of the commit requests received
}

func (o *lossyOwner) String() string { return "lossy owner" }

func (o *lossyOwner) LatestSnapshot(ctx context.Context) (*spec.Snapshot, error) {
	return o.files.Latest(ctx)
}

func (o *lossyOwner) CommitSnapshot(ctx context.Context, s *spec.Snapshot) error {
	o.requests = append(o.requests, s.ID)
	if err := o.files.Commit(ctx, s); err != nil {
		return err // the id is taken: ErrSnapshotExists, as {"success":false}
	}
	if o.lose > 0 {
		o.lose--
		return errors.New("REST catalog: POST …/commit: connection reset by peer (answer lost)")
	}
	return nil
}

// A commit through a snapshot owner whose answer is lost after it created the snapshot is resolved
// by looking the commit up (user, identifier) after the base: exactly one commit request, the
// result says already committed, the rows are in the table once. With or without a lookup asked for
// up front (LookupAfter -1 is a one-shot `write`; a load's window asks for one).
func TestLostOwnerAnswerIsLookedUpNotResent(t *testing.T) {
	ctx := context.Background()
	for _, lookup := range []int64{-1, 0} {
		tbl := memTable(t, appendCols, nil, nil, nil)
		o := &lossyOwner{files: table.NewSnapshots(tbl.FS, tbl.Path)}
		tbl.Owner = o
		res, err := commit.Commit(ctx, tbl, writeRows(t, tbl, appendRows(0, 3, "w")), commit.Options{User: "w", Identifier: 1})
		if err != nil || res.SnapshotID != 1 {
			t.Fatalf("lookup %d: first commit: %+v, %v", lookup, res, err)
		}
		o.lose = 1
		msgs := writeRows(t, tbl, appendRows(100, 4, "lost"))
		res, err = commit.Commit(ctx, tbl, msgs, commit.Options{User: "w", Identifier: 2, LookupAfter: lookup})
		if err != nil {
			t.Fatalf("lookup %d: commit whose answer was lost: %v", lookup, err)
		}
		if !res.AlreadyCommitted || res.SnapshotID != 2 {
			t.Errorf("lookup %d: %+v, want AlreadyCommitted in snapshot 2", lookup, res)
		}
		if len(o.requests) != 2 || o.requests[1] != 2 {
			t.Errorf("lookup %d: commit requests for snapshots %v, want [1 2] (the lost one looked up, never resent)", lookup, o.requests)
		}
		if ids, err := o.files.IDs(ctx); err != nil || len(ids) != 2 {
			t.Errorf("lookup %d: snapshots %v (%v), want 1 and 2", lookup, ids, err)
		}
		checkRows(t, tbl, 0, append(appendRows(0, 3, "w"), appendRows(100, 4, "lost")...))
	}
}
