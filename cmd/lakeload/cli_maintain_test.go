package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/job/task"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/maintain"
	"github.com/lakeload/lakeload/paimon/table"
)

// ageFiles sets the modification time of every file under dir to two hours ago.
func ageFiles(t *testing.T, dir string) {
	t.Helper()
	old := time.Now().Add(-2 * time.Hour)
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// storedFiles returns the data files named by the stored task results of window w in the job store.
func storedFiles(t *testing.T, tb *table.Table, store string, w int64) []string {
	t.Helper()
	st, err := checkpoint.NewStore(local.New(), store).Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ws, ok := st.Window(w)
	if !ok || len(ws.Attempts) == 0 {
		t.Fatalf("window %d is not in the store", w)
	}
	var out []string
	paths := tb.NewPaths()
	for _, a := range ws.Attempts {
		msgs, err := task.Messages(a.Results...)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			for _, f := range m.NewFiles {
				p, err := paths.DataFile(m.Partition, m.Bucket, f.FileName, f.ExternalPath)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, p)
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("window %d stored no files", w)
	}
	return out
}

func missing(paths []string) []string {
	var out []string
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			out = append(out, p)
		}
	}
	return out
}

// TestCleanOrphansKeepsWindowBeingRecovered: a load is killed after storing the results of window 2
// and before committing them. clean-orphans then deletes planted orphan files but none of window 2's
// files, and the resumed load commits exactly the stored attempt. Negative control: cleaning a copy of
// the warehouse without the load jobs' protected files deletes window 2's files, which this test detects.
func TestCleanOrphansKeepsWindowBeingRecovered(t *testing.T) {
	wh, in := loadtest.TempDir(t), loadtest.TempDir(t)
	fx := loadtest.AggSum(51, 6, 60)
	glob := fx.WriteInputs(t, in)
	tb := fx.Create(t, wh)
	name := loadtest.Database + "." + fx.Name
	if _, errs, code := runChild(t, []string{"LAKELOAD_CRASH_AT=before-commit:2"}, loadArgs(wh, fx, glob, "j")...); code != -1 {
		t.Fatalf("crashing load: exit %d, stderr %s", code, errs)
	}
	store := job.StorePath(catalog.New(local.New(), wh), fx.Ident(), "j")
	window2 := storedFiles(t, tb, store, 2)
	orphans := []string{filepath.Join(tb.Path, "bucket-0", "data-orphan-0.parquet"), filepath.Join(tb.Path, "manifest", "manifest-orphan-0")}
	for _, p := range orphans {
		if err := os.WriteFile(p, []byte("orphan"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ageFiles(t, tb.Path)

	// Negative control on a copy: without the protected files, window 2's files are orphans.
	wh2 := loadtest.TempDir(t)
	if err := os.CopyFS(wh2, os.DirFS(wh)); err != nil {
		t.Fatal(err)
	}
	ageFiles(t, wh2)
	tb2 := fx.Open(t, wh2, local.New())
	if _, err := maintain.CleanOrphans(context.Background(), tb2, time.Now().Add(-time.Hour), false, nil); err != nil {
		t.Fatal(err)
	}
	copied := make([]string, len(window2))
	for i, p := range window2 {
		copied[i] = strings.Replace(p, wh, wh2, 1)
	}
	if len(missing(copied)) == 0 {
		t.Fatal("negative control: cleaning without the jobs' files kept window 2's files; the check below proves nothing")
	}

	out := ok(t, cmdArgs([]string{"clean-orphans"}, tbl(wh, name, "--older-than", "1h"))...)
	for _, p := range orphans {
		if !strings.Contains(out, p) {
			t.Errorf("clean-orphans output does not list %s:\n%s", p, out)
		}
	}
	if m := missing(orphans); len(m) != len(orphans) {
		t.Errorf("orphans still there: %v", orphans)
	}
	if m := missing(window2); len(m) != 0 {
		t.Fatalf("clean-orphans deleted files of window 2, which is being recovered: %v", m)
	}
	ok(t, loadArgs(wh, fx, glob, "j")...)
	st, err := checkpoint.NewStore(local.New(), store).Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ws, _ := st.Window(2)
	if ws.Published == nil || ws.Published.Attempt != 1 || len(ws.Attempts) != 1 {
		t.Fatalf("window 2: published %+v after %d attempts; want the stored attempt 1 committed", ws.Published, len(ws.Attempts))
	}
	if d := loadtest.Diff(fx.Expected(t), loadtest.Lines(t, tb)); d != "" {
		t.Fatalf("table after resume:%s", d)
	}
	// Once the job is finished, nothing is orphaned and nothing is protected.
	if out := ok(t, cmdArgs([]string{"clean-orphans"}, tbl(wh, name, "--older-than", "0s", "--dry-run"))...); !strings.Contains(out, "would delete 0 orphan files") {
		t.Errorf("clean-orphans after the job:\n%s", out)
	}
}

// TestExpireCommand: expire honours its flags, dry-run changes nothing, the retained snapshot and the
// table read completely afterwards, and bad flags are usage errors.
func TestExpireCommand(t *testing.T) {
	wh, in := loadtest.TempDir(t), loadtest.TempDir(t)
	fx := loadtest.AggSum(52, 6, 60)
	glob := fx.WriteInputs(t, in)
	tb := fx.Create(t, wh)
	name := loadtest.Database + "." + fx.Name
	ok(t, loadArgs(wh, fx, glob, "j")...)
	ctx := context.Background()
	ids, _ := tb.Snapshots().IDs(ctx)
	if len(ids) < 2 {
		t.Fatalf("snapshots %v: want at least 2 windows", ids)
	}
	latest := ids[len(ids)-1]
	out := ok(t, cmdArgs([]string{"expire"}, tbl(wh, name, "--retain-min", "1", "--older-than", "0s", "--dry-run"))...)
	if !strings.Contains(out, "would expire snapshots 1..") || !strings.Contains(out, "snapshot-1\n") {
		t.Fatalf("dry run printed:\n%s", out)
	}
	if now, _ := tb.Snapshots().IDs(ctx); len(now) != len(ids) {
		t.Fatal("dry run expired snapshots")
	}
	out = ok(t, cmdArgs([]string{"expire"}, tbl(wh, name, "--retain-min", "1", "--older-than", "0s"))...)
	if !strings.Contains(out, "expired snapshots 1..") {
		t.Fatalf("expire printed:\n%s", out)
	}
	if now, _ := tb.Snapshots().IDs(ctx); len(now) != 1 || now[0] != latest {
		t.Fatalf("snapshots after expire: %v, want [%d]", now, latest)
	}
	if d := loadtest.Diff(fx.Expected(t), loadtest.Lines(t, tb)); d != "" {
		t.Fatalf("table after expire:%s", d)
	}
	if out := ok(t, cmdArgs([]string{"expire"}, tbl(wh, name))...); !strings.Contains(out, "nothing to expire") {
		t.Errorf("second expire printed:\n%s", out)
	}
	fails(t, exitUsage, []string{"--retain-min"}, cmdArgs([]string{"expire"}, tbl(wh, name, "--retain-min", "0"))...)
	fails(t, exitUsage, []string{"--retain-max", "--retain-min"}, cmdArgs([]string{"expire"}, tbl(wh, name, "--retain-min", "5", "--retain-max", "2"))...)
	fails(t, exitUsage, []string{"older-than"}, cmdArgs([]string{"clean-orphans"}, tbl(wh, name))...)
}
