package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/internal/loadtest"
)

// TestLoadOverwriteKill9 replaces two of three partitions with `load --overwrite partitions`, killing
// the process (SIGKILL) inside the final OVERWRITE commit and again before its first publish: the
// table shows the old data until the OVERWRITE snapshot lands, the windows are "staged" in status
// meanwhile, and the resumed run finishes with the untouched partition kept and the others holding
// exactly the new rows.
func TestLoadOverwriteKill9(t *testing.T) {
	wh, oldIn, newIn := loadtest.TempDir(t), loadtest.TempDir(t), loadtest.TempDir(t)
	fx := loadtest.Dedup(23, 6, 60)
	tb := fx.Create(t, wh)
	oldFx, newFx := fx, fx
	oldFx.Files = fx.Files[:3]
	newFx.Files = nil
	for _, fl := range fx.Files[3:] {
		var rows []loadtest.Row
		for _, r := range fl.Rows {
			if r.Values[0] != "2024-01-03" {
				rows = append(rows, r)
			}
		}
		newFx.Files = append(newFx.Files, loadtest.File{Name: fl.Name, Rows: rows})
	}
	ok(t, loadArgs(wh, oldFx, oldFx.WriteInputs(t, oldIn), "base")...)
	old := loadtest.Lines(t, tb)
	want := newFx.ExpectedOf(t, newFx.Files)
	for _, l := range old {
		if strings.Contains(l, `"2024-01-03"`) {
			want = append(want, l)
		}
	}
	sort.Strings(want)
	args := loadArgs(wh, newFx, newFx.WriteInputs(t, newIn), "replace", "--overwrite", "partitions", "--commit-rows", "30")
	for _, crash := range []string{"inside-commit", "before-publish:1"} {
		if _, errs, code := runChild(t, []string{"LAKELOAD_CRASH_AT=" + crash}, args...); code != -1 {
			t.Fatalf("load killed at %s: exit %d, stderr %s", crash, code, errs)
		}
		var st jobStatus
		if err := json.Unmarshal([]byte(ok(t, cmdArgs([]string{"status"}, tbl(wh, "db."+fx.Name, "--job", "replace", "--output", "json"))...)), &st); err != nil {
			t.Fatal(err)
		}
		got := loadtest.Lines(t, tb)
		if crash == "inside-commit" {
			if d := loadtest.Diff(old, got); d != "" {
				t.Fatalf("after a kill inside the overwrite commit the table is not the old one:%s", d)
			}
			if st.Overwrite != "partitions" || len(st.Windows) < 2 || st.Windows[0].State != "staged" {
				t.Fatalf("status of the staged job: %+v", st)
			}
		} else if d := loadtest.Diff(want, got); d != "" {
			t.Fatalf("after a kill behind the overwrite commit the table is not the new one:%s", d)
		}
	}
	out := ok(t, args...)
	if !strings.Contains(out, "overwrite (partitions) committed as snapshot") {
		t.Fatalf("load printed %q", out)
	}
	if d := loadtest.Diff(want, loadtest.Lines(t, tb)); d != "" {
		t.Fatalf("table after the overwrite:%s", d)
	}
	if r := lakeload(t, cmdArgs([]string{"load"}, tbl(wh, "db."+fx.Name, "--from", "x", "--job", "y", "--overwrite", "all"))...); r.code != exitUsage ||
		!strings.Contains(r.stderr, "--overwrite") {
		t.Fatalf("bad --overwrite: exit %d, %s", r.code, r.stderr)
	}
}

// TestLoadIncrementalKill9 runs the same `load --incremental` line as a daily cron would: the first
// run loads three files; without --incremental a rerun says how to load new files; after three files
// are added and one loaded file is touched, a run is killed (SIGKILL) inside its first commit; the
// resumed run loads each new file once, reports the touched file without reloading it, and status
// lists it.
func TestLoadIncrementalKill9(t *testing.T) {
	wh, in := loadtest.TempDir(t), loadtest.TempDir(t)
	fx := loadtest.Dedup(29, 6, 60)
	tb := fx.Create(t, wh)
	first := fx
	first.Files = fx.Files[:3]
	glob := first.WriteInputs(t, in)
	args := loadArgs(wh, fx, glob, "daily", "--incremental")
	ok(t, args...)
	if out := ok(t, loadArgs(wh, fx, glob, "daily")...); !strings.Contains(out, "--incremental") {
		t.Fatalf("finished job without --incremental printed %q", out)
	}
	for _, fl := range fx.Files[3:] {
		fx.WriteFile(t, filepath.Join(in, fl.Name), fl)
	}
	later := time.Now().Add(time.Hour)
	touched := filepath.Join(in, fx.Files[0].Name)
	if err := os.Chtimes(touched, later, later); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runChild(t, []string{"LAKELOAD_CRASH_AT=inside-commit"}, args...); code != -1 {
		t.Fatalf("load killed inside the commit: exit %d, stderr %s", code, errs)
	}
	out := ok(t, args...)
	if !strings.Contains(out, "incremental generation 2 finished") || !strings.Contains(out, fx.Files[0].Name) {
		t.Fatalf("incremental load printed %q", out)
	}
	if d := loadtest.Diff(fx.Expected(t), loadtest.Lines(t, tb)); d != "" {
		t.Fatalf("table after two generations:%s", d)
	}
	var st jobStatus
	if err := json.Unmarshal([]byte(ok(t, cmdArgs([]string{"status"}, tbl(wh, "db."+fx.Name, "--job", "daily", "--output", "json"))...)), &st); err != nil {
		t.Fatal(err)
	}
	if st.Generation != 2 || !st.Done || len(st.Changed) != 1 || filepath.Base(st.Changed[0].Path) != fx.Files[0].Name {
		t.Fatalf("status after generation 2: generation %d done %v changed %+v", st.Generation, st.Done, st.Changed)
	}
	if out := ok(t, args...); !strings.Contains(out, "no new input files") {
		t.Fatalf("incremental run without new files printed %q", out)
	}
}
