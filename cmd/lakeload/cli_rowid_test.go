package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
)

// TestLoadRowIDMode: `load --id-column id` killed (SIGKILL) before publishing its second window is
// resumed by the same command; a resume with another id column, or none, is refused and changes
// nothing; the finished table equals the model and every input id is published exactly once, by
// the attempt each window committed.
func TestLoadRowIDMode(t *testing.T) {
	wh, in := loadtest.TempDir(t), loadtest.TempDir(t)
	fx := loadtest.Append(31, 6, 60)
	glob := fx.WriteInputs(t, in)
	tb := fx.Create(t, wh)
	args := loadArgs(wh, fx, glob, "ids", "--id-column", "id")

	_, stderr, code := runChild(t, []string{"LAKELOAD_CRASH_AT=before-publish:2"}, args...)
	if code != -1 {
		t.Fatalf("crashing child: exit %d, want killed\n%s", code, stderr)
	}
	for _, other := range [][]string{loadArgs(wh, fx, glob, "ids", "--id-column", "amount"), loadArgs(wh, fx, glob, "ids")} {
		fails(t, exitUsage, []string{"option id-column", "use the original settings"}, other...)
	}
	if out := ok(t, args...); !strings.HasPrefix(out, "job ids finished: ") {
		t.Fatalf("resume printed %q", out)
	}
	if d := loadtest.Diff(fx.Expected(t), loadtest.Lines(t, tb)); d != "" {
		t.Fatalf("table after resume:%s", d)
	}
	store := checkpoint.NewStore(local.New(), filepath.Join(wh, ".lakeload", "jobs", loadtest.Database, fx.Name, "ids"))
	st, err := store.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var published, want []string
	for _, ws := range st.Windows() {
		if ws.Published == nil || ws.Committed == nil || ws.Published.Attempt != ws.Committed.Attempt {
			t.Fatalf("window %d: published %+v committed %+v", ws.Window, ws.Published, ws.Committed)
		}
		published = append(published, ws.Published.IDs...)
	}
	for _, f := range fx.Files {
		for _, r := range f.Rows {
			want = append(want, fmt.Sprint(r.Values[0]))
		}
	}
	slices.Sort(published)
	slices.Sort(want)
	if !slices.Equal(published, want) {
		t.Fatalf("published %d ids, the input has %d (or they differ)", len(published), len(want))
	}
}

// TestLoadRowIDDuplicate: a duplicate id is an input error (exit 3) naming file, row and id, found
// when its window is assigned, before anything of that window is written.
func TestLoadRowIDDuplicate(t *testing.T) {
	wh, in := loadtest.TempDir(t), loadtest.TempDir(t)
	fx := loadtest.Append(37, 4, 30)
	fx.Files[2].Rows[4].Values[0] = fx.Files[1].Rows[9].Values[0] // id 39
	glob := fx.WriteInputs(t, in)
	tb := fx.Create(t, wh)
	args := append(cmdArgs([]string{"load"}, tbl(wh, loadtest.Database+"."+fx.Name, "--from", glob, "--job", "dup")), "--id-column", "id")
	fails(t, exitInput, []string{`duplicate row id "39"`, "in-02.parquet data row 5", "in-01.csv data row 10"}, args...)
	if lines := loadtest.Lines(t, tb); len(lines) != 0 {
		t.Fatalf("the table has %d rows after a refused window", len(lines))
	}
}
