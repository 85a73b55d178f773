package maintain

import (
	"context"
	"slices"
	"testing"
	"time"
)

// stepsOf returns the steps reported, in order, without repeats.
func stepsOf(ps []Progress) []string {
	var out []string
	for _, p := range ps {
		if len(out) == 0 || out[len(out)-1] != p.Step {
			out = append(out, p.Step)
		}
	}
	return out
}

// lastOf returns the last report of each step.
func lastOf(ps []Progress) map[string]Progress {
	out := map[string]Progress{}
	for _, p := range ps {
		out[p.Step] = p
	}
	return out
}

// TestExpireProgressCountsWhatWasDone: the reports run through the steps in order, each step ends
// with every item done, Deleted grows by one per file and ends at the files the result lists, and
// Examined counts the data file entries of the deltas read.
func TestExpireProgressCountsWhatWasDone(t *testing.T) {
	f := newFixture(t, nil)
	history(t, f)
	var ps []Progress
	o := keep3
	o.Progress = func(p Progress) { ps = append(ps, p) }
	res, err := Expire(context.Background(), f.tbl, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Expired) != 3 {
		t.Fatalf("expired %v, want 3 snapshots", res.Expired)
	}
	want := []string{StepConsumers, StepDataFiles, StepChangelogs, StepMetadata, StepSnapshots}
	if got := stepsOf(ps); !slices.Equal(got, want) {
		t.Fatalf("steps %v, want %v", got, want)
	}
	last := lastOf(ps)
	for step, total := range map[string]int{StepDataFiles: 3, StepChangelogs: 3, StepMetadata: 3, StepSnapshots: 3} {
		if p := last[step]; p.Done != total || p.Total != total {
			t.Errorf("step %s ended at %d of %d items, want %d of %d", step, p.Done, p.Total, total, total)
		}
	}
	end := ps[len(ps)-1]
	if end.Deleted != len(res.Files) {
		t.Errorf("last report: %d files deleted, the result lists %d", end.Deleted, len(res.Files))
	}
	// Snapshots 2..4 are the deltas read: 1 + 1 (the overwrite: 2 DELETEs, 1 ADD) + 1 entries.
	if end.Examined != 1+3+1 {
		t.Errorf("examined %d data file entries, want 5", end.Examined)
	}
	deleted := 0
	for _, p := range ps {
		if p.Deleted < deleted || p.Deleted > deleted+1 {
			t.Fatalf("deleted went from %d to %d in one report: a report per deleted file expected", deleted, p.Deleted)
		}
		deleted = p.Deleted
	}
}

// TestCleanOrphansProgressCountsWhatWasDone: listing, references and the delete step are reported;
// the delete step checks every candidate, and the last report's deleted files and bytes are the
// result's.
func TestCleanOrphansProgressCountsWhatWasDone(t *testing.T) {
	f := newFixture(t, nil)
	history(t, f)
	junk(t, f, "manifest/manifest-0000-orphan-0", "p=a/bucket-0/data-orphan-4.parquet", "snapshot/.snapshot-7.0000.tmp")
	all := files(t, f.fs)
	var ps []Progress
	res, err := CleanOrphansWith(context.Background(), f.tbl, OrphanOptions{OlderThan: time.Now().Add(time.Minute),
		Progress: func(p Progress) { ps = append(ps, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 3 {
		t.Fatalf("deleted %v, want the 3 orphans", rels(res.Files))
	}
	if got, want := stepsOf(ps), []string{StepList, StepReferences, StepDelete}; !slices.Equal(got, want) {
		t.Fatalf("steps %v, want %v", got, want)
	}
	last := lastOf(ps)
	if p := last[StepReferences]; p.Done != 6 || p.Total != 6 {
		t.Errorf("references: %d of %d read, want the 6 snapshots", p.Done, p.Total)
	}
	if p := last[StepDelete]; p.Done != p.Total || p.Total < 3 {
		t.Errorf("delete step ended at %d of %d candidates", p.Done, p.Total)
	}
	end := ps[len(ps)-1]
	if end.Deleted != 3 || end.Bytes != res.Bytes {
		t.Errorf("last report: %d files, %d bytes deleted; the result: 3 files, %d bytes", end.Deleted, end.Bytes, res.Bytes)
	}
	// Every file of the table lies in a directory listed, except schema, consumer, tag files.
	if end.Examined == 0 || end.Examined > len(all) {
		t.Errorf("examined %d files, the table has %d", end.Examined, len(all))
	}
}
