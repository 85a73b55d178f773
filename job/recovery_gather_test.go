package job

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/mem"
	"github.com/lakeload/lakeload/job/plan"
	"github.com/lakeload/lakeload/job/task"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/source"
)

// gatherState is a store of three windows of two splits each: window 1 with one exact attempt
// (seen 0), window 2 with two exact attempts (seen 2), window 3 with one partial attempt (seen 3).
// Task t<k> of window w attempt a writes the data file data-w<w>-a<a>-t<k>.parquet.
func gatherState(t *testing.T) (checkpoint.State, checkpoint.JobRecord) {
	t.Helper()
	job := checkpoint.JobRecord{JobID: "job-1", CommitUser: "lakeload-job-1", TablePath: "/wh/db.db/t", InputFingerprint: "fp",
		Created: time.Unix(0, 0).UTC()}
	var splits []source.Split
	for i := range 6 {
		splits = append(splits, source.Split{Path: fmt.Sprintf("/in/f%d.parquet", i), Format: source.FormatParquet, Size: 9, RowCount: 10})
	}
	stored, err := plan.EncodeSplits(splits)
	must(t, err)
	rs := checkpoint.Records{Job: &job, Plan: &checkpoint.PlanRecord{Splits: stored}}
	result := func(w int64, a int, id string, split int) {
		msgs, err := task.EncodeMessages([]table.CommitMessage{{Partition: []byte{0, 0, 0, 0}, TotalBuckets: 1,
			NewFiles: []manifest.DataFileMeta{{FileName: fmt.Sprintf("data-w%d-a%d-%s.parquet", w, a, id), FileSize: 1, RowCount: 10}}}})
		must(t, err)
		r := checkpoint.TaskResult{Window: w, Attempt: a, TaskID: id, Messages: msgs, Splits: []int{split}, Rows: 10}
		r.Digest = mustGet(checkpoint.ResultDigest(r))
		rs.Results = append(rs.Results, r)
	}
	for i, seen := range []int64{0, 2, 3} {
		w := int64(i + 1)
		rs.Assigned = append(rs.Assigned, checkpoint.Assigned{Window: w, Splits: []int{2 * i, 2*i + 1}, SequenceBase: 1 + 20*w, SnapshotSeen: seen, Attempt: 1})
	}
	result(1, 1, "t0", 0)
	result(1, 1, "t1", 1)
	rs.Starts = append(rs.Starts, checkpoint.AttemptStart{Window: 2, Attempt: 2})
	for a := 1; a <= 2; a++ {
		result(2, a, "t0", 2)
		result(2, a, "t1", 3)
	}
	result(3, 1, "t0", 4) // partial: split 5 has no result
	st, err := checkpoint.BuildState(rs)
	must(t, err)
	return st, job
}

// TestGatherReadsTheTable: the markers are the job's APPEND snapshots of each window after the
// snapshot seen at its assignment (another user's, a COMPACT and a suffixed user's do not count); only
// the exact attempts of unmarked windows get a file check; after an expiry the earliest snapshot
// shows the lookup of window 1 is incomplete, and Decide stops.
func TestGatherReadsTheTable(t *testing.T) {
	fs := mem.New()
	snaps := table.NewSnapshots(fs, "/wh/db.db/t")
	st, job := gatherState(t)
	commit := func(id int64, user string, ident int64, kind spec.CommitKind, props map[string]string) {
		t.Helper()
		must(t, snaps.Commit(bg, &spec.Snapshot{Version: 3, ID: id, BaseManifestList: "b", DeltaManifestList: "d",
			CommitUser: user, CommitIdentifier: ident, CommitKind: kind, TimeMillis: id, Properties: props}))
	}
	commit(1, "someone-else", 1, spec.CommitKindAppend, nil)
	commit(2, job.CommitUser, 1, spec.CommitKindAppend, checkpoint.CommitProperties(job, 1, 1, "c1"))
	commit(3, job.CommitUser, 2, spec.CommitKindCompact, nil) // compaction never counts as a window's commit
	commit(4, job.CommitUser+"-compact", 2, spec.CommitKindAppend, nil)

	var checked [][]table.CommitMessage
	files := func(_ context.Context, msgs []table.CommitMessage) ([]string, error) {
		checked = append(checked, msgs)
		if msgs[0].NewFiles[0].FileName == "data-w2-a2-t0.parquet" {
			return []string{"gone"}, nil
		}
		return nil, nil
	}
	tv, err := gatherTableView(bg, st, snaps, files)
	must(t, err)
	if len(tv.Markers) != 1 || len(tv.Markers[1]) != 1 || tv.Markers[1][0].SnapshotID != 2 || tv.Markers[1][0].Properties[checkpoint.PropAttempt] != "1" {
		t.Fatalf("markers: %+v", tv.Markers)
	}
	if tv.EarliestSnapshot != 1 {
		t.Fatalf("earliest %d", tv.EarliestSnapshot)
	}
	// Only window 2's exact attempts needed a file check (window 1 is marked, window 3 partial).
	want := map[checkpoint.AttemptKey][]string{{Window: 2, Attempt: 1}: nil, {Window: 2, Attempt: 2}: {"gone"}}
	if !reflect.DeepEqual(tv.MissingFiles, want) || len(checked) != 2 || len(checked[0]) != 2 {
		t.Fatalf("file checks: %+v (%d calls)", tv.MissingFiles, len(checked))
	}
	if got := decided(t, st, tv); got != "write-committed-then-publish(w1 a1 s2) commit(w2 a1) recompute(w3 a2)" {
		t.Fatalf("plan %s", got)
	}

	// After expiry of snapshots 1-2 the lookup of window 1 (seen 0) is incomplete; window 1 is
	// not recorded committed, so its outcome is unknown: stop, never commit again.
	must(t, fs.Delete(bg, snaps.Path(1)))
	must(t, fs.Delete(bg, snaps.Path(2)))
	tv, err = gatherTableView(bg, st, snaps, files)
	must(t, err)
	if got := decided(t, st, tv); !strings.HasPrefix(got, "stop(w1") || tv.EarliestSnapshot != 3 {
		t.Fatalf("after expiry: plan %s, earliest %d", got, tv.EarliestSnapshot)
	}
}

// decided renders Decide's actions.
func decided(t *testing.T, st checkpoint.State, tv checkpoint.TableView) string {
	t.Helper()
	p, err := checkpoint.Decide(st, tv)
	must(t, err)
	var out []string
	for _, a := range p.Actions {
		out = append(out, a.String())
	}
	return strings.Join(out, " ")
}

var errUnreachable = errors.New("connection refused")

type brokenLookup struct{ *table.Snapshots }

func (brokenLookup) FindCommits(context.Context, table.CommitQuery, int64) ([]*spec.Snapshot, error) {
	return nil, errUnreachable
}

func TestGatherFailsWhenTheTableIsUnreadable(t *testing.T) {
	st, _ := gatherState(t)
	if _, err := gatherTableView(bg, st, brokenLookup{table.NewSnapshots(mem.New(), "/wh/db.db/t")}, nil); !errors.Is(err, errUnreachable) {
		t.Fatalf("gather = %v", err)
	}
}
