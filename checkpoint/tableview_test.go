package checkpoint

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

var _ SnapshotLookup = (*table.Snapshots)(nil)

func TestGatherReadsTheTable(t *testing.T) {
	fs := memFS()
	snaps := table.NewSnapshots(fs, "/wh/db.db/t")
	job := testJob()
	commit := func(id int64, user string, ident int64, kind spec.CommitKind, props map[string]string) {
		t.Helper()
		must(t, snaps.Commit(bg, &spec.Snapshot{Version: 3, ID: id, BaseManifestList: "b", DeltaManifestList: "d",
			CommitUser: user, CommitIdentifier: ident, CommitKind: kind, TimeMillis: id, Properties: props}))
	}
	commit(1, "someone-else", 1, spec.CommitKindAppend, nil)
	commit(2, job.CommitUser, 1, spec.CommitKindAppend, CommitProperties(job, 1, 1, "c1"))
	commit(3, job.CommitUser, 2, spec.CommitKindCompact, nil) // compaction never counts as a window's commit
	commit(4, job.CommitUser+"-compact", 2, spec.CommitKindAppend, nil)

	st, _ := sim(t, 0,
		win{covers: []string{cvExact}, seen: 0},
		win{covers: []string{cvExact, cvExact}, seen: 2},
		win{covers: []string{cvPartial}, seen: 3})
	var checked [][]table.CommitMessage
	files := func(_ context.Context, msgs []table.CommitMessage) ([]string, error) {
		checked = append(checked, msgs)
		if msgs[0].NewFiles[0].FileName == "data-w2-a2-t0.parquet" {
			return []string{"gone"}, nil
		}
		return nil, nil
	}
	tv, err := Gather(bg, st, snaps, files)
	must(t, err)
	if len(tv.Markers) != 1 || len(tv.Markers[1]) != 1 || tv.Markers[1][0].SnapshotID != 2 || tv.Markers[1][0].Properties[PropAttempt] != "1" {
		t.Fatalf("markers: %+v", tv.Markers)
	}
	if tv.EarliestSnapshot != 1 {
		t.Fatalf("earliest %d", tv.EarliestSnapshot)
	}
	// Only window 2's exact attempts needed a file check (window 1 is marked, window 3 partial).
	want := map[AttemptKey][]string{{2, 1}: nil, {2, 2}: {"gone"}}
	if !reflect.DeepEqual(tv.MissingFiles, want) || len(checked) != 2 {
		t.Fatalf("file checks: %+v (%d calls)", tv.MissingFiles, len(checked))
	}
	p, err := Decide(st, tv)
	must(t, err)
	if got := summary(p); got != "wcp(1,1) commit(2,1) recompute(3,2)" {
		t.Fatalf("plan %s", got)
	}

	// After expiry of snapshots 1-2 the lookup of window 1 (seen 0) is incomplete; window 1 is
	// not recorded committed, so its outcome is unknown: stop, never commit again.
	must(t, fs.Delete(bg, snaps.Path(1)))
	must(t, fs.Delete(bg, snaps.Path(2)))
	tv, err = Gather(bg, st, snaps, files)
	must(t, err)
	p, err = Decide(st, tv)
	must(t, err)
	if got := summary(p); got != "stop(1)" || tv.EarliestSnapshot != 3 {
		t.Fatalf("after expiry: plan %s, earliest %d", got, tv.EarliestSnapshot)
	}
}

type brokenLookup struct{ *table.Snapshots }

func (brokenLookup) FindCommits(context.Context, table.CommitQuery, int64) ([]*spec.Snapshot, error) {
	return nil, errUnreachable
}

func TestGatherFailsWhenTheTableIsUnreadable(t *testing.T) {
	st, _ := sim(t, 0, win{covers: []string{cvExact}})
	_, err := Gather(bg, st, brokenLookup{}, nil)
	if !errors.Is(err, errUnreachable) {
		t.Fatalf("Gather = %v", err)
	}
}
