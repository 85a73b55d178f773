package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/internal/loadtest"
)

// CLI tests of issue 14, findings 1–3: maintenance commands and `job forget` never delete a file
// outside the table (or the job's checkpoint store), whatever its metadata or --checkpoint say.
// Victims live outside the warehouse and must survive.

// plantVictims writes files below dir and returns their contents by path.
func plantVictims(t *testing.T, dir string, names ...string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	old := time.Now().Add(-48 * time.Hour)
	for _, n := range names {
		p := filepath.Join(dir, n)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		b := []byte("victim " + n)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
		out[p] = b
	}
	return out
}

func victimsSurvive(t *testing.T, victims map[string][]byte) {
	t.Helper()
	for p, want := range victims {
		if got, err := os.ReadFile(p); err != nil || !bytes.Equal(got, want) {
			t.Errorf("victim %s outside the warehouse was deleted or changed (%v)", p, err)
		}
	}
}

// editSnapshotFile sets fields of the snapshot JSON at path.
func editSnapshotFile(t *testing.T, path string, fields map[string]string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]any{}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range fields {
		m[k] = v
	}
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestExpireCommandRefusesNamesOutsideTable (finding 1): snapshot 1 names a manifest list and a
// statistics file outside the table ("../" names and an absolute path). `expire` exits 1 (a corrupt
// table) naming the snapshot and the name at fault, and deletes no victim.
func TestExpireCommandRefusesNamesOutsideTable(t *testing.T) {
	for _, c := range []struct{ field, victim string }{
		{"baseManifestList", "list"}, {"statistics", "stats"}, {"deltaManifestList", "abs"},
	} {
		root, in := loadtest.TempDir(t), loadtest.TempDir(t)
		wh, victimDir := filepath.Join(root, "wh"), filepath.Join(root, "victim")
		fx := loadtest.Append(141, 6, 60)
		glob := fx.WriteInputs(t, in)
		tb := fx.Create(t, wh)
		name := loadtest.Database + "." + fx.Name
		ok(t, loadArgs(wh, fx, glob, "j")...)
		if ids, _ := tb.Snapshots().IDs(context.Background()); len(ids) < 2 {
			t.Fatalf("snapshots %v: want at least 2 windows", ids)
		}
		victims := plantVictims(t, victimDir, c.victim)
		ref, err := filepath.Rel(filepath.Join(tb.Path, "manifest"), filepath.Join(victimDir, c.victim))
		if err != nil {
			t.Fatal(err)
		}
		if c.victim == "abs" {
			ref = filepath.Join(victimDir, c.victim)
		}
		editSnapshotFile(t, tb.Snapshots().Path(1), map[string]string{c.field: filepath.ToSlash(ref)})
		fails(t, exitFailure, []string{"snapshot 1", c.field, ref, "corrupt"},
			cmdArgs([]string{"expire"}, tbl(wh, name, "--retain-min", "1", "--older-than", "0s"))...)
		victimsSurvive(t, victims)
	}
}

// TestCleanOrphansCommandSkipsSymlinks (finding 2): a bucket directory and statistics/ that are
// symbolic links to directories outside the warehouse are not followed; the command succeeds, says it
// skipped them, and their targets' old files survive.
func TestCleanOrphansCommandSkipsSymlinks(t *testing.T) {
	root, in := loadtest.TempDir(t), loadtest.TempDir(t)
	wh, victimDir := filepath.Join(root, "wh"), filepath.Join(root, "victim")
	fx := loadtest.Append(142, 2, 20)
	glob := fx.WriteInputs(t, in)
	tb := fx.Create(t, wh)
	name := loadtest.Database + "." + fx.Name
	ok(t, loadArgs(wh, fx, glob, "j")...)
	victims := plantVictims(t, victimDir, "bucket/data-old.parquet", "stats/stat-old")
	for link, target := range map[string]string{"bucket-7": "bucket", "statistics": "stats"} {
		if err := os.Symlink(filepath.Join(victimDir, target), filepath.Join(tb.Path, link)); err != nil {
			t.Fatal(err)
		}
	}
	out := ok(t, cmdArgs([]string{"clean-orphans"}, tbl(wh, name, "--older-than", "1h"))...)
	victimsSurvive(t, victims)
	if !strings.Contains(out, "bucket-7") || !strings.Contains(out, "statistics") || !strings.Contains(out, "symbolic link") {
		t.Errorf("clean-orphans does not report the links it skipped:\n%s", out)
	}
}

// TestJobForgetRefusesForeignDirectory (finding 3): `job forget --checkpoint DIR` of a job that never
// existed there deletes nothing of DIR: DIR has no job.json (any directory), or its job.json names
// another job. Exit 2 (the command line names the wrong store), the message names DIR; a directory
// that does not exist at all is "no job" (exit 4, as `status` says).
func TestJobForgetRefusesForeignDirectory(t *testing.T) {
	root, in := loadtest.TempDir(t), loadtest.TempDir(t)
	wh := filepath.Join(root, "wh")
	fx := loadtest.Append(143, 2, 20)
	glob := fx.WriteInputs(t, in)
	fx.Create(t, wh)
	name := loadtest.Database + "." + fx.Name

	foreign := filepath.Join(root, "home")
	victims := plantVictims(t, foreign, "notes.txt", "windows/1/assigned", "lease/lease-00000000000000000001", "job.json.bak")
	fails(t, exitUsage, []string{foreign, "job.json", "nothing was deleted"},
		cmdArgs([]string{"job", "forget"}, tbl(wh, name, "--job", "j", "--checkpoint", foreign))...)
	victimsSurvive(t, victims)

	store := filepath.Join(root, "ck", "a")
	ok(t, loadArgs(wh, fx, glob, "a", "--checkpoint", store)...)
	before := treeFiles(t, store)
	fails(t, exitUsage, []string{store, "job a", "not b", "nothing was deleted"},
		cmdArgs([]string{"job", "forget"}, tbl(wh, name, "--job", "b", "--checkpoint", store))...)
	if after := treeFiles(t, store); len(after) != len(before) {
		t.Errorf("refused forget changed the store: %v → %v", before, after)
	}

	fails(t, exitTable, []string{"no job c", filepath.Join(root, "nowhere")},
		cmdArgs([]string{"job", "forget"}, tbl(wh, name, "--job", "c", "--checkpoint", filepath.Join(root, "nowhere")))...)

	// The job's own store goes, except a file the store's layout does not name, which is reported.
	stray := plantVictims(t, store, "windows/1/my-notes.txt")
	out := ok(t, cmdArgs([]string{"job", "forget"}, tbl(wh, name, "--job", "a", "--checkpoint", store))...)
	victimsSurvive(t, stray)
	if left := treeFiles(t, store); len(left) != 1 || !strings.Contains(out, "my-notes.txt") {
		t.Errorf("forget left %v and printed %q; want only the stray file left, and named", left, out)
	}
}

// treeFiles lists the regular files below dir.
func treeFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			out = append(out, p)
		}
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}
