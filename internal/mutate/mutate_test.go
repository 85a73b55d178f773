package mutate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const sampleList = `# a comment
default pkg ./calc
default run ^Test

mutant calc/off-by-one
file   calc/calc.go
why    Max returns the smaller value on ties... and elsewhere
kill   TestMax
<<<
	if a > b {
===
	if a < b {
>>>

mutant calc/two-edits
file   calc/calc.go
why    two edits, one deleting
kill   TestMax
run    ^TestMax$
<<<
	if a > b {
		return a
	}
===
>>>
<<<
	return b
===
	return a
>>>
`

func TestParse(t *testing.T) {
	ms, err := Parse("sample.txt", strings.NewReader(sampleList))
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 {
		t.Fatalf("%d mutants", len(ms))
	}
	m := ms[0]
	if m.ID != "calc/off-by-one" || m.File != "calc/calc.go" || m.Kill != "TestMax" || m.Run != "^Test" ||
		strings.Join(m.Pkgs, " ") != "./calc" || m.Src != "sample.txt:5" {
		t.Fatalf("first mutant %+v", m)
	}
	if len(m.Edits) != 1 || m.Edits[0].Original != "\tif a > b {" || m.Edits[0].Replacement != "\tif a < b {" {
		t.Fatalf("edits %+v", m.Edits)
	}
	m = ms[1]
	if m.Run != "^TestMax$" || len(m.Edits) != 2 || m.Edits[0].Replacement != "" || m.Edits[1].Original != "\treturn b" {
		t.Fatalf("second mutant %+v", m)
	}
}

func TestParseRefusesBadLists(t *testing.T) {
	for name, c := range map[string]struct{ list, want string }{
		"no kill":        {"default pkg ./x\ndefault run .\nmutant a\nfile f.go\nwhy w\n<<<\nx\n===\ny\n>>>\n", "names no killing test"},
		"no why":         {"default pkg ./x\ndefault run .\nmutant a\nfile f.go\nkill TestA\n<<<\nx\n===\ny\n>>>\n", "why"},
		"no edit":        {"default pkg ./x\ndefault run .\nmutant a\nfile f.go\nwhy w\nkill TestA\n", "no <<< === >>> edit"},
		"no pkg":         {"mutant a\nfile f.go\nwhy w\nkill TestA\nrun .\n<<<\nx\n===\ny\n>>>\n", "no pkg or run"},
		"unclosed":       {"default pkg ./x\ndefault run .\nmutant a\nfile f.go\nwhy w\nkill TestA\n<<<\nx\n===\ny\n", "not closed"},
		"unknown key":    {"mutant a\nfiel f.go\n", "unknown key"},
		"subtest killer": {"mutant a\nkill TestA/sub\n", "one top-level test"},
		"bad id":         {"mutant A B\n", "mutant id"},
		"key first":      {"file f.go\n", "before the first mutant"},
		"empty original": {"default pkg ./x\ndefault run .\nmutant a\nfile f.go\nwhy w\nkill TestA\n<<<\n\n===\ny\n>>>\n", "empty original"},
	} {
		if _, err := Parse("l.txt", strings.NewReader(c.list)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", name, err, c.want)
		}
	}
}

func TestApplyNeedsExactlyOneMatch(t *testing.T) {
	m := Mutant{File: "f.go", Edits: []Edit{{Original: "x := 1", Replacement: "x := 2"}}}
	if got, err := m.Apply("a\nx := 1\nb"); err != nil || got != "a\nx := 2\nb" {
		t.Fatalf("Apply = %q, %v", got, err)
	}
	for _, src := range []string{"a\nb", "x := 1\nx := 1"} {
		if _, err := m.Apply(src); err == nil || !strings.Contains(err.Error(), "not exactly once") {
			t.Errorf("Apply(%q): %v", src, err)
		}
	}
}

func TestLoadDirRefusesDuplicateIDs(t *testing.T) {
	dir := t.TempDir()
	one := "default pkg ./x\ndefault run .\nmutant a\nfile f.go\nwhy w\nkill TestA\n<<<\nx\n===\ny\n>>>\n"
	for _, n := range []string{"1.txt", "2.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(one), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := LoadDir(dir); err == nil || !strings.Contains(err.Error(), "already used") {
		t.Fatalf("LoadDir: %v", err)
	}
}

// TestRunClassifiesMutants runs the harness on a tiny module: one mutant its test kills, one it
// does not, one that does not build, one whose snippet is not unique, one killed by another test
// than the list says; and checks that the tree is never modified.
func TestRunClassifiesMutants(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on a temporary module")
	}
	root := t.TempDir()
	src := "package calc\n\n// Max returns the larger of a and b.\nfunc Max(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}\n\n// Two is 2.\nfunc Two() int { return 2 }\n\n// Pad is unused twice: x x\n"
	files := map[string]string{
		"go.mod":            "module example.com/m\n\ngo 1.22\n",
		"calc/calc.go":      src,
		"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestMax(t *testing.T) {\n\tif Max(1, 2) != 2 || Max(3, 1) != 3 {\n\t\tt.Fatal(\"Max\")\n\t}\n}\n\nfunc TestTwo(t *testing.T) {\n\tif Two() != 2 {\n\t\tt.Fatal(\"Two\")\n\t}\n}\n",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mk := func(id, kill, orig, repl string) Mutant {
		return Mutant{ID: id, File: "calc/calc.go", Why: "test", Kill: kill, Pkgs: []string{"./calc"}, Run: "^Test",
			Edits: []Edit{{Original: orig, Replacement: repl}}, Src: id}
	}
	ms := []Mutant{
		mk("killed", "TestMax", "\tif a > b {", "\tif a < b {"),
		mk("survived", "TestMax", "// Max returns", "// Max gives"),
		mk("nobuild", "TestMax", "\treturn b\n}", "\treturn c\n}"),
		mk("notunique", "TestMax", "x", "y"),
		mk("otherkiller", "TestMax", "return 2 }", "return 3 }"),
	}
	rs, err := Run(context.Background(), ms, Options{Root: root, Jobs: 2, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Outcome{"killed": Killed, "survived": Survived, "nobuild": ListErr, "notunique": ListErr, "otherkiller": ListErr}
	for _, r := range rs {
		if r.Outcome != want[r.Mutant.ID] {
			t.Errorf("%s: %v (%s), want %v", r.Mutant.ID, r.Outcome, r.Detail, want[r.Mutant.ID])
		}
	}
	if d := rs[2].Detail; !strings.Contains(d, "does not build") || !strings.Contains(d, "undefined: c") {
		t.Errorf("build error detail: %s", d)
	}
	if d := rs[4].Detail; !strings.Contains(d, "killed by TestTwo, not by TestMax") {
		t.Errorf("other killer detail: %s", d)
	}
	if len(rs[0].Failed) != 1 || rs[0].Failed[0] != "TestMax" {
		t.Errorf("killed by %v", rs[0].Failed)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "calc/calc.go")); string(b) != src {
		t.Fatal("the tree was modified")
	}
	// Short runs only the killer: TestTwo no longer runs, so the other-killer mutant survives.
	rs, err = Run(context.Background(), ms[4:], Options{Root: root, Short: true, Jobs: 1, Timeout: time.Minute})
	if err != nil || rs[0].Outcome != Survived {
		t.Fatalf("short: %+v, %v", rs, err)
	}
	// A baseline that fails is a harness error, not a run of kills.
	if err := os.WriteFile(filepath.Join(root, "calc/calc.go"), []byte(strings.Replace(src, "return 2 }", "return 0 }", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), ms[:1], Options{Root: root, Jobs: 1, Timeout: time.Minute}); err == nil || !strings.Contains(err.Error(), "unmutated tree fails") {
		t.Fatalf("failing baseline: %v", err)
	}
}

// TestCheckedInListsMatchTheTree: every mutant of the checked-in lists applies to today's code
// (each original snippet occurs exactly once), so a refactoring that breaks a mutant fails in the
// ordinary test run, not only under make mutate.
func TestCheckedInListsMatchTheTree(t *testing.T) {
	root := filepath.Join("..", "..")
	ms, err := LoadDir("mutants")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(m.File)))
		if err != nil {
			t.Errorf("%s: %v", m.Src, err)
			continue
		}
		if _, err := m.Apply(string(src)); err != nil {
			t.Errorf("%s: mutant %s: %v", m.Src, m.ID, err)
		}
	}
	t.Logf("%d mutants apply", len(ms))
}
