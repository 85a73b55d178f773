package plan

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/source"
)

// TestPlanFilesExpandsEachPattern: every --from pattern is expanded on its own (a directory: every
// file under it; a ** glob: any depth; hidden names skipped by both) and the lists are concatenated
// in pattern order, a file matched again — by a relative glob, a directory or a ** glob, each
// spelling its path differently — planned once, where first matched.
func TestPlanFilesExpandsEachPattern(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a.csv", "d/b.csv", "d/e/c.csv", "d/e/f.jsonl", "_SUCCESS", "d/_tmp/x.csv", "d/.b.csv.crc"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte("id\n1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	from := []string{filepath.Join(dir, "d", "**", "*.csv"), ".", "*.csv", "d/e/"}
	files, err := PlanFiles(context.Background(), local.New(), from, "", source.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		rel, err := filepath.Rel(dir, filepath.FromSlash(f.Path))
		if err != nil || !filepath.IsAbs(filepath.FromSlash(f.Path)) {
			t.Fatalf("planned path %q: want an absolute path under %s", f.Path, dir)
		}
		got = append(got, filepath.ToSlash(rel))
	}
	if want := "d/b.csv d/e/c.csv a.csv d/e/f.jsonl"; strings.Join(got, " ") != want {
		t.Fatalf("planned %q, want %s", got, want)
	}
	if _, err := PlanFiles(context.Background(), local.New(), []string{"*.csv", "none/**"}, "", source.Limits{}); err == nil || !strings.Contains(err.Error(), "none/**") {
		t.Fatalf("a pattern matching nothing: %v, want an error naming it", err)
	}
}
