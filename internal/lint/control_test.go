package lint

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plant is a file added to the module through `go list -overlay`, and what the lint must say
// about it.
type plant struct {
	path, src string   // module-relative file, its contents
	want      []string // substrings of the messages the lint must report
}

const module = "github.com/lakeload/lakeload/"

// importing is the source of a file of package name that imports the project package imp.
func importing(name, imp string) string {
	return fmt.Sprintf("package %s\n\nimport _ %q\n", name, module+imp)
}

// TestLintCatchesPlantedImports is the negative control of TestImportDirection: it runs the same
// check over the module with forbidden imports and broken packages planted (through an overlay;
// the work tree is not touched) and requires each to be reported, and nothing else.
func TestLintCatchesPlantedImports(t *testing.T) {
	plants := []plant{
		{path: "source/zz_planted.go", src: importing("source", "paimon/commit"),
			want: []string{"source imports paimon/commit: its layer", "source imports paimon/commit: never"}},
		{path: "paimon/read/zz_planted.go", src: importing("read", "paimon/write"),
			want: []string{"paimon/read imports paimon/write: its layer", "paimon/read imports paimon/write: never"}},
		{path: "checkpoint/zz_planted.go", src: importing("checkpoint", "paimon/commit"),
			want: []string{"checkpoint imports paimon/commit: its layer", "checkpoint imports paimon/commit: never"}},
		{path: "fileio/zz_planted.go", src: importing("fileio", "paimon/spec"),
			want: []string{"fileio imports paimon/spec: its layer", "fileio imports paimon/spec: never"}},
		{path: "paimon/table/zz_planted_test.go", src: importing("table_test", "job"),
			want: []string{"paimon/table imports job (in a test): its layer", "paimon/table imports job (in a test): never"}},
		// Packages that do not load: two package names in one folder, an import of nothing.
		{path: "metrics/zz_planted.go", src: "package metricsx\n",
			want: []string{"metrics does not load: found packages metrics"}},
		{path: "paimon/mergetree/zz_planted.go", src: importing("mergetree", "paimon/nosuch"),
			want: []string{"paimon/nosuch does not load: no required module provides package", "paimon/mergetree imports paimon/nosuch: its layer"}},
		// The walls inside job: planning below the tasks, tasks below the driver (no cycle: job
		// imports both, so an import of job from either is a cycle, reported as one).
		{path: "job/plan/zz_planted.go", src: importing("plan", "job/task"),
			want: []string{"job/plan imports job/task: its layer", "job/plan imports job/task: never"}},
		{path: "job/seqreserve/zz_planted.go", src: importing("seqreserve", "job/plan"),
			want: []string{"job/seqreserve imports job/plan: its layer", "job/seqreserve imports job/plan: never"}},
		{path: "job/seqreserve/zz_planted_go.go", src: "package seqreserve\n\nfunc zzPlanted() { go func() {}() }\n",
			want: []string{"job/seqreserve starts a goroutine at zz_planted_go.go:3"}},
		// Only job starts goroutines: a go statement, or errgroup, below it is reported.
		{path: "paimon/read/zz_planted_go.go", src: "package read\n\nfunc zzPlanted() { go func() {}() }\n",
			want: []string{"paimon/read starts a goroutine at zz_planted_go.go:3"}},
		{path: "source/zz_planted_group.go", src: "package source\n\nimport _ \"golang.org/x/sync/errgroup\"\n",
			want: []string{"source imports golang.org/x/sync/errgroup: only job starts goroutines"}},
	}
	assertReports(t, plants, nil)
}

// TestLintCatchesPlantedCycle: an import of paimon/table from paimon/spec (the example,
// and an import cycle) is reported as against the picture and as a package that does not load.
// The cycle also breaks the tests of the packages between the two, which go list reports too.
func TestLintCatchesPlantedCycle(t *testing.T) {
	plants := []plant{{path: "paimon/spec/zz_planted.go", src: importing("spec", "paimon/table"),
		want: []string{"paimon/spec imports paimon/table: its layer", "paimon/spec imports paimon/table: never",
			"paimon/spec does not load: import cycle not allowed"}}}
	assertReports(t, plants, func(v string) bool { return strings.HasSuffix(v, "does not load: import cycle not allowed in test") })
}

// assertReports checks the module with plants overlaid: every wanted message is reported, and
// every message reported is about a planted package, is a wanted one, or is one alsoOK accepts.
func assertReports(t *testing.T, plants []plant, alsoOK func(string) bool) {
	t.Helper()
	root := moduleRoot(t)
	dir := t.TempDir()
	replace := map[string]string{}
	for i, p := range plants {
		if _, err := os.Stat(filepath.Join(root, p.path)); err == nil {
			t.Fatalf("%s exists; the plant would replace it", p.path)
		}
		file := filepath.Join(dir, fmt.Sprintf("plant%d.go", i))
		if err := os.WriteFile(file, []byte(p.src), 0o644); err != nil {
			t.Fatal(err)
		}
		replace[filepath.Join(root, p.path)] = file
	}
	overlay, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		t.Fatal(err)
	}
	overlayFile := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlayFile, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := checkModule(root, overlayFile)
	if err != nil {
		t.Fatal(err)
	}
	report := strings.Join(got, "\n")
	for _, p := range plants {
		for _, w := range p.want {
			if !strings.Contains(report, w) {
				t.Errorf("planted %s: the lint did not report %q; it said:\n%s", p.path, w, report)
			}
		}
	}
	for _, v := range got {
		ok := alsoOK != nil && alsoOK(v)
		for _, p := range plants {
			ok = ok || strings.HasPrefix(v, filepath.Dir(p.path)+" ")
			for _, w := range p.want {
				ok = ok || strings.HasPrefix(v, w)
			}
		}
		if !ok {
			t.Errorf("reported beyond the plants: %s", v)
		}
	}
}
