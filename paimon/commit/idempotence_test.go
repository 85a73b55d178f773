package commit_test

import (
	"context"
	"errors"
	"path"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// lostAckFS fails WriteIfAbsent of snapshot files AFTER the file was created, as a store whose
// response got lost would: the write landed but the caller saw an error. It fails `failures` times.
type lostAckFS struct {
	fileio.FileIO
	failures atomic.Int32
	seen     atomic.Int32 // snapshot WriteIfAbsent calls
}

var errLostAck = errors.New("injected: connection reset after upload")

func (f *lostAckFS) WriteIfAbsent(ctx context.Context, p string, data []byte) error {
	err := f.FileIO.WriteIfAbsent(ctx, p, data)
	if strings.HasPrefix(path.Base(p), "snapshot-") {
		f.seen.Add(1)
		if err == nil && f.failures.Add(-1) >= 0 {
			return errLostAck
		}
	}
	return err
}

// failingFS fails WriteIfAbsent of snapshot files BEFORE creating anything (outcome: not landed).
type failingFS struct {
	fileio.FileIO
	failures atomic.Int32
}

func (f *failingFS) WriteIfAbsent(ctx context.Context, p string, data []byte) error {
	if strings.HasPrefix(path.Base(p), "snapshot-") && f.failures.Add(-1) >= 0 {
		return errors.New("injected: timeout before upload")
	}
	return f.FileIO.WriteIfAbsent(ctx, p, data)
}

func withFS(tbl *table.Table, fs fileio.FileIO) *table.Table {
	c := *tbl
	c.FS = fs
	return &c
}

func TestRerunOfLandedCommit(t *testing.T) {
	ctx := context.Background()
	tbl := createTable(t, t.TempDir(), appendCols, nil, nil, nil)
	msgs := writeRows(t, tbl, appendRows(0, 5, "job"))
	o := commit.Options{User: "job-user", Identifier: 42}
	first, err := commit.Commit(ctx, tbl, msgs, o)
	if err != nil || first.SnapshotID != 1 || first.AlreadyCommitted {
		t.Fatalf("first commit: %+v, %v", first, err)
	}
	other := mustCommit(t, tbl, writeRows(t, tbl, appendRows(100, 2, "other")), "other-user")

	cases := []struct {
		name        string
		lookupAfter int64
		kind        spec.CommitKind
	}{
		{"scan from the start", 0, ""},
		{"scan after the snapshot before it", first.SnapshotID - 1, ""},
		{"explicit kind", 0, spec.CommitKindAppend},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := o
			o.LookupAfter, o.Kind = c.lookupAfter, c.kind
			res, err := commit.Commit(ctx, tbl, msgs, o)
			if err != nil {
				t.Fatal(err)
			}
			if !res.AlreadyCommitted || res.SnapshotID != first.SnapshotID {
				t.Errorf("re-run: %+v, want AlreadyCommitted in snapshot %d", res, first.SnapshotID)
			}
		})
	}
	if n := len(snapshotsOf(t, tbl)); n != int(other) {
		t.Fatalf("re-runs created snapshots: %d snapshots, want %d", n, other)
	}
	// Same user, another identifier: a different commit, so it lands.
	o.Identifier = 43
	res, err := commit.Commit(ctx, tbl, writeRows(t, tbl, appendRows(200, 1, "job")), o)
	if err != nil || res.AlreadyCommitted || res.SnapshotID != other+1 {
		t.Fatalf("commit with identifier 43: %+v, %v", res, err)
	}
	// Empty input commits nothing.
	if res, err := commit.Commit(ctx, tbl, nil, o); err != nil || res.SnapshotID != 0 {
		t.Errorf("empty commit: %+v, %v", res, err)
	}
	if _, err := commit.Commit(ctx, tbl, msgs, commit.Options{}); err == nil {
		t.Error("commit without user succeeded")
	}
}

// TestLostAcknowledgement: the snapshot write lands but reports an error; the retry must find the
// commit instead of committing it again.
func TestLostAcknowledgement(t *testing.T) {
	ctx := context.Background()
	base := createTable(t, t.TempDir(), appendCols, nil, nil, nil)
	mustCommit(t, base, writeRows(t, base, appendRows(0, 3, "before")), "before")

	for _, lookup := range []int64{-1, 0} {
		fs := &lostAckFS{FileIO: base.FS}
		fs.failures.Store(1)
		tbl := withFS(base, fs)
		latest, _ := tbl.Snapshots().Latest(ctx)
		msgs := writeRows(t, tbl, appendRows(latest.ID*1000, 4, "flaky"))
		res, err := commit.Commit(ctx, tbl, msgs, commit.Options{User: "flaky", Identifier: latest.ID, LookupAfter: lookup})
		if err != nil {
			t.Fatalf("lookup %d: %v", lookup, err)
		}
		if !res.AlreadyCommitted || res.SnapshotID != latest.ID+1 {
			t.Errorf("lookup %d: %+v, want AlreadyCommitted in snapshot %d", lookup, res, latest.ID+1)
		}
		if fs.seen.Load() != 1 {
			t.Errorf("lookup %d: %d snapshot writes, want 1 (no second attempt)", lookup, fs.seen.Load())
		}
	}
	snaps := snapshotsOf(t, base)
	if len(snaps) != 3 {
		t.Fatalf("%d snapshots, want 3", len(snaps))
	}
	checkCounts(t, base, snaps)
	want := appendRows(0, 3, "before")
	want = append(want, appendRows(1000, 4, "flaky")...)
	want = append(want, appendRows(2000, 4, "flaky")...)
	checkRows(t, base, 0, want)
	// The table stays committable although LATEST was not written by the lost commit.
	mustCommit(t, base, writeRows(t, base, appendRows(9000, 1, "after")), "after")
	if n := len(snapshotsOf(t, base)); n != 4 {
		t.Errorf("%d snapshots after a further commit, want 4", n)
	}
}

// TestFailedSnapshotWriteIsRetried: a write that certainly did not land is retried and lands once.
func TestFailedSnapshotWriteIsRetried(t *testing.T) {
	ctx := context.Background()
	base := createTable(t, t.TempDir(), appendCols, nil, nil, nil)
	fs := &failingFS{FileIO: base.FS}
	fs.failures.Store(2)
	tbl := withFS(base, fs)
	res, err := commit.Commit(ctx, tbl, writeRows(t, tbl, appendRows(0, 3, "x")), commit.Options{User: "x", Identifier: 1, LookupAfter: -1})
	if err != nil || res.AlreadyCommitted || res.SnapshotID != 1 {
		t.Fatalf("commit: %+v, %v", res, err)
	}
	checkRows(t, base, 0, appendRows(0, 3, "x"))

	// When every attempt fails the caller is told the outcome is unknown.
	fs.failures.Store(1000)
	_, err = commit.Commit(ctx, tbl, writeRows(t, tbl, appendRows(10, 1, "y")), commit.Options{User: "y", Identifier: 1, MaxRetries: 1})
	if !errors.Is(err, commit.ErrUnknownOutcome) {
		t.Errorf("all attempts failed: %v, want ErrUnknownOutcome", err)
	}
	// A cancelled context during retries reports an unknown outcome too.
	cctx, cancel := context.WithCancel(ctx)
	fs2 := &cancelOnSnapshotFS{FileIO: base.FS, cancel: cancel}
	_, err = commit.Commit(cctx, withFS(base, fs2), writeRows(t, tbl, appendRows(20, 1, "z")), commit.Options{User: "z", Identifier: 1})
	if !errors.Is(err, commit.ErrUnknownOutcome) {
		t.Errorf("cancelled during snapshot write: %v, want ErrUnknownOutcome", err)
	}
	if n := len(snapshotsOf(t, base)); n != 1 {
		t.Errorf("%d snapshots, want 1", n)
	}
}

type cancelOnSnapshotFS struct {
	fileio.FileIO
	cancel func()
}

func (f *cancelOnSnapshotFS) WriteIfAbsent(ctx context.Context, p string, data []byte) error {
	if strings.HasPrefix(path.Base(p), "snapshot-") {
		f.cancel()
		return errors.New("injected: cancelled")
	}
	return f.FileIO.WriteIfAbsent(ctx, p, data)
}

// TestBeforeSnapshotHook uses the fault-injection hook: an error aborts the attempt before the
// snapshot exists (a crash), and a re-run with LookupAfter commits exactly once.
func TestBeforeSnapshotHook(t *testing.T) {
	ctx := context.Background()
	tbl := createTable(t, t.TempDir(), appendCols, nil, nil, nil)
	msgs := writeRows(t, tbl, appendRows(0, 2, "crash"))
	crash := errors.New("injected crash")
	var hookIDs []int64
	o := commit.Options{User: "crash", Identifier: 9, BeforeSnapshot: func(id int64) error {
		hookIDs = append(hookIDs, id)
		return crash
	}}
	if _, err := commit.Commit(ctx, tbl, msgs, o); !errors.Is(err, crash) {
		t.Fatalf("hook error not returned: %v", err)
	}
	if len(hookIDs) != 1 || hookIDs[0] != 1 {
		t.Errorf("hook saw ids %v, want [1]", hookIDs)
	}
	if s, _ := tbl.Snapshots().Latest(ctx); s != nil {
		t.Fatalf("snapshot %d exists after the crash", s.ID)
	}
	o.BeforeSnapshot = nil
	for range 2 { // the re-run lands, a second re-run finds it
		if _, err := commit.Commit(ctx, tbl, msgs, o); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(snapshotsOf(t, tbl)); n != 1 {
		t.Errorf("%d snapshots, want 1", n)
	}
	checkRows(t, tbl, 0, appendRows(0, 2, "crash"))
}

// TestLosingTheRaceReplans: another writer takes snapshot N between planning and publishing; the
// commit re-plans on top of it and lands as N+1.
func TestLosingTheRaceReplans(t *testing.T) {
	ctx := context.Background()
	tbl := createTable(t, t.TempDir(), appendCols, nil, nil, nil)
	mine := writeRows(t, tbl, appendRows(0, 3, "mine"))
	theirs := writeRows(t, tbl, appendRows(100, 2, "theirs"))
	calls := 0
	res, err := commit.Commit(ctx, tbl, mine, commit.Options{User: "mine", Identifier: 1, BeforeSnapshot: func(id int64) error {
		calls++
		if calls == 1 {
			mustCommit(t, tbl, theirs, "theirs")
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res.SnapshotID != 2 || res.Retries != 1 || res.AlreadyCommitted {
		t.Errorf("result %+v, want snapshot 2 after 1 retry", res)
	}
	snaps := snapshotsOf(t, tbl)
	checkCounts(t, tbl, snaps)
	checkRows(t, tbl, 0, append(appendRows(0, 3, "mine"), appendRows(100, 2, "theirs")...))
	checkRows(t, tbl, 1, appendRows(100, 2, "theirs"))
}
