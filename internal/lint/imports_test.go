package lint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// rule constrains the project-internal imports of the packages matched by from. Patterns are
// module-relative: "x/..." is x and everything below it, "*" is every package. Third-party and
// standard-library imports are not constrained here.
type rule struct {
	from   []string // importers this rule applies to
	allow  []string // if set: the only project packages they may import (besides themselves)
	deny   []string // project packages they must not import
	except []string // importers exempt from deny
	why    string
}

// rules is the project's layering, bottom to top:
// cmd → job → {checkpoint, source} → paimon/{catalog,table,commit,read,write} →
// paimon/{format,mergetree} → paimon/spec → (nothing; spec is pure) and fileio at the bottom.
// Every project package must match at least one rule, so new packages get classified.
var rules = []rule{
	{from: []string{"fileio/..."}, allow: []string{"fileio/..."},
		why: "fileio is the bottom layer"},
	{from: []string{"metrics/..."}, allow: []string{"metrics/..."},
		why: "metrics is a standard-library-only leaf that job and cmd use"},
	{from: []string{"paimon/spec/..."}, allow: []string{"paimon/spec/..."},
		why: "spec is the pure on-disk vocabulary: no I/O, no engine"},
	{from: []string{"paimon/format/...", "paimon/mergetree/..."},
		allow: []string{"paimon/format/...", "paimon/mergetree/...", "paimon/arrowconv", "paimon/spec/...", "fileio/..."},
		why:   "format and mergetree sit just above arrowconv, spec and fileio"},
	{from: []string{"paimon/..."}, deny: []string{"job/...", "checkpoint/...", "source/...", "cmd/..."},
		why: "paimon is a library; the loader is built on top of it"},
	{from: []string{"paimon/catalog/...", "paimon/table/...", "paimon/commit/...", "paimon/read/...", "paimon/write/..."},
		allow: []string{"paimon/...", "fileio/..."},
		why:   "the table layer uses only paimon and fileio"},
	{from: []string{"checkpoint/...", "source/..."},
		allow: []string{"checkpoint/...", "source/...", "paimon/...", "fileio/..."},
		why:   "checkpoint and source sit below job"},
	{from: []string{"internal/..."}, deny: []string{"job/...", "checkpoint/...", "source/...", "cmd/..."},
		except: harnesses, why: "internal helpers serve the library layers"},
	{from: []string{"job/..."}, deny: []string{"cmd/..."}, why: "job sits below cmd"},
	{from: []string{"cmd/..."}, why: "cmd is the top layer and may import anything"},
	{from: []string{"bench/..."}, deny: []string{"cmd/..."}, except: harnesses, why: "benchmarks sit at the top, beside cmd"},
	{from: []string{"*"}, deny: []string{"job/..."}, except: append([]string{"job/...", "cmd/..."}, harnesses...),
		why: "only job and cmd (and the test harnesses) may import job"},
	{from: []string{"*"}, deny: []string{"cmd/..."}, except: []string{"cmd/..."},
		why: "nothing may import cmd"},
}

// harnesses are test-only packages that exercise the whole stack, like cmd does; nothing imports them.
var harnesses = []string{"internal/compat", "internal/killsoak", "internal/sim", "internal/loadtest", "internal/sweep"}

// pkg is the part of `go list -json` output the checks need.
type pkg struct {
	ImportPath, Dir, ForTest string
	Module                   *struct{ Path string }
	Imports                  []string
	TestImports              []string
	XTestImports             []string
	GoFiles, CgoFiles        []string
	TestGoFiles              []string
	XTestGoFiles             []string
	IgnoredGoFiles           []string
	Error                    *struct{ Err string }
}

// match reports whether module-relative package rel matches pattern.
func match(pattern, rel string) bool {
	if pattern == "*" {
		return true
	}
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return rel == base || strings.HasPrefix(rel, base+"/")
	}
	return rel == pattern
}

func matchAny(patterns []string, rel string) bool {
	return slices.ContainsFunc(patterns, func(p string) bool { return match(p, rel) })
}

// checkImports returns one message per rule violation of importer (module-relative) importing
// the module-relative project packages imps.
func checkImports(importer string, imps []string) []string {
	var out []string
	classified := false
	for _, r := range rules {
		if !matchAny(r.from, importer) {
			continue
		}
		if !slices.Contains(r.from, "*") {
			classified = true
		}
		for _, imp := range imps {
			if imp == importer {
				continue // an external test importing its own package
			}
			if r.allow != nil && !matchAny(r.allow, imp) {
				out = append(out, fmt.Sprintf("%s imports %s: only %v allowed (%s)", importer, imp, r.allow, r.why))
			}
			if matchAny(r.deny, imp) && !matchAny(r.except, importer) {
				out = append(out, fmt.Sprintf("%s imports %s: denied (%s)", importer, imp, r.why))
			}
		}
	}
	if !classified {
		out = append(out, fmt.Sprintf("%s matches no layer in the rules table of internal/lint/imports_test.go; add it", importer))
	}
	return out
}

// moduleRoot finds the directory holding go.mod and the module path.
func moduleRoot(t *testing.T) (dir, module string) {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			for line := range strings.Lines(string(b)) {
				if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
					return dir, strings.Trim(strings.TrimSpace(m), `"`)
				}
			}
			t.Fatalf("%s/go.mod has no module line", dir)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the working directory")
		}
		dir = parent
	}
}

// listPackages runs `go list -e -deps -test -json ./...` with cgo disabled, so the result also
// proves every dependency builds as pure Go.
func listPackages(t *testing.T, root string) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-deps", "-test", "-json", "./...")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("decoding go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// importsC reports the files of p that import "C", whatever their build tags.
func importsC(t *testing.T, p pkg) []string {
	t.Helper()
	var hits []string
	fset := token.NewFileSet()
	for _, files := range [][]string{p.GoFiles, p.CgoFiles, p.TestGoFiles, p.XTestGoFiles, p.IgnoredGoFiles} {
		for _, name := range files {
			if !strings.HasSuffix(name, ".go") {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.ImportsOnly)
			if err != nil {
				t.Errorf("%s: parse %s: %v", p.ImportPath, name, err)
				continue
			}
			for _, imp := range f.Imports {
				if path, _ := strconv.Unquote(imp.Path.Value); path == "C" {
					hits = append(hits, filepath.Join(p.Dir, name))
				}
			}
		}
	}
	return hits
}

func TestImportDirection(t *testing.T) {
	root, module := moduleRoot(t)
	rel := func(path string) (string, bool) {
		if path == module {
			return ".", true
		}
		r, ok := strings.CutPrefix(path, module+"/")
		return r, ok
	}
	checked := 0
	for _, p := range listPackages(t, root) {
		// With CGO_ENABLED=0 a package that has only cgo files loads with this error; other load
		// errors (e.g. a package under construction) are go build's business, not this lint's.
		if p.Error != nil {
			if strings.Contains(p.Error.Err, "build constraints exclude all Go files") && p.ImportPath != module {
				t.Errorf("%s does not build without cgo: %s", p.ImportPath, p.Error.Err)
			} else {
				t.Logf("ignoring load error of %s: %s", p.ImportPath, p.Error.Err)
			}
		}
		// Only the plain project packages; test variants "p [p.test]", "p_test" and "p.test" are
		// covered through the TestImports and XTestImports of p.
		if p.Module == nil || p.Module.Path != module || p.ForTest != "" || strings.HasSuffix(p.ImportPath, ".test") {
			continue
		}
		importer, _ := rel(p.ImportPath)
		if len(p.GoFiles)+len(p.CgoFiles)+len(p.TestGoFiles)+len(p.XTestGoFiles) == 0 {
			continue // e.g. the tools-only root package
		}
		checked++
		var imps []string
		for _, imp := range slices.Concat(p.Imports, p.TestImports, p.XTestImports) {
			if r, ok := rel(imp); ok && !slices.Contains(imps, r) {
				imps = append(imps, r)
			}
		}
		for _, v := range checkImports(importer, imps) {
			t.Error(v)
		}
		for _, f := range importsC(t, p) {
			t.Errorf("%s imports \"C\": lakeload is pure Go (no cgo)", f)
		}
	}
	if checked == 0 {
		t.Fatal("go list returned no project packages")
	}
	t.Logf("checked %d project packages", checked)
}

// TestRulesCatchViolations proves the table rejects each forbidden direction and accepts the
// intended ones.
func TestRulesCatchViolations(t *testing.T) {
	bad := [][2]string{
		{"fileio", "paimon/spec"},
		{"fileio/local", "internal/canon"},
		{"paimon/spec", "fileio"},
		{"paimon/spec/manifest", "paimon/table"},
		{"paimon/format/parquet", "paimon/table"},
		{"paimon/mergetree", "paimon/commit"},
		{"paimon/table", "job"},
		{"paimon/write", "checkpoint"},
		{"paimon/anything", "source/file"},
		{"paimon/catalog", "cmd/lakeload"},
		{"source", "job"},
		{"checkpoint", "job/sub"},
		{"internal/canon", "job"},
		{"job", "cmd/lakeload"},
		{"paimon/table", "internal/canon"},
	}
	for _, c := range bad {
		if v := checkImports(c[0], []string{c[1]}); len(v) == 0 {
			t.Errorf("%s → %s passed the rules, want a violation", c[0], c[1])
		}
	}
	good := [][2]string{
		{"fileio/local", "fileio"},
		{"paimon/spec/binrow", "paimon/spec"},
		{"paimon/format/parquet", "paimon/spec"},
		{"paimon/mergetree", "fileio"},
		{"paimon/commit", "paimon/table"},
		{"paimon/write", "paimon/format/parquet"},
		{"source", "paimon/spec"},
		{"checkpoint", "source"},
		{"job", "checkpoint"},
		{"job/runner", "job"},
		{"cmd/lakeload", "job"},
		{"cmd/lakeload", "paimon/write"},
		{"cmd/lakeload", "cmd/lakeload"}, // an external test of its own package
	}
	for _, c := range good {
		if v := checkImports(c[0], []string{c[1]}); len(v) != 0 {
			t.Errorf("%s → %s rejected: %v", c[0], c[1], v)
		}
	}
	if v := checkImports("misc", nil); len(v) == 0 {
		t.Error("an unclassified package passed")
	}
}

// TestImportsCDetected proves the cgo check sees `import "C"` even in a file excluded by tags.
func TestImportsCDetected(t *testing.T) {
	dir := t.TempDir()
	src := "//go:build cgo\n\npackage x\n\n// #include <stdlib.h>\nimport \"C\"\n"
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	hits := importsC(t, pkg{ImportPath: "x", Dir: dir, IgnoredGoFiles: []string{"x.go"}})
	if len(hits) != 1 {
		t.Fatalf("importsC = %v, want the one cgo file", hits)
	}
}
