package lint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
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

// applies reports whether a row for from (but not except) constrains importer.
func applies(from, except []string, importer string) bool {
	return matchAny(from, importer) && !matchAny(except, importer)
}

// checkImports returns one message per violation of importer (module-relative) importing the
// module-relative project packages prod (from its non-test files) and test (from its tests
// only). An exception that excuses a violation is marked in needed.
func checkImports(importer string, prod, test []string, needed map[exception]bool) []string {
	var out []string
	var rows []layer
	for _, l := range layers {
		if applies(l.from, l.except, importer) {
			rows = append(rows, l)
		}
	}
	switch len(rows) {
	case 0:
		return []string{fmt.Sprintf("%s matches no layer in internal/lint/rules_test.go; add it to the picture", importer)}
	case 1:
	default:
		return []string{fmt.Sprintf("%s matches %d layers in internal/lint/rules_test.go; a package stands in one", importer, len(rows))}
	}
	l := rows[0]
	check := func(imp string, inTest bool) {
		var v []string
		allow, where := l.allow, ""
		if inTest {
			where = " (in a test)"
			if l.testAllow != nil {
				allow = l.testAllow
			}
		}
		if allow != nil && !matchAny(allow, imp) {
			v = append(v, fmt.Sprintf("%s imports %s%s: its layer allows only %v (%s)", importer, imp, where, allow, l.why))
		}
		for _, n := range nevers {
			if applies(n.from, n.except, importer) && !(n.prodOnly && inTest) &&
				matchAny(n.deny, imp) && !matchAny(n.denyBut, imp) {
				v = append(v, fmt.Sprintf("%s imports %s%s: never %v → %v (%s)", importer, imp, where, n.from, n.deny, n.why))
			}
		}
		if len(v) == 0 {
			return
		}
		if i := slices.IndexFunc(exceptions, func(e exception) bool { return e.importer == importer && e.imported == imp }); i >= 0 {
			needed[exceptions[i]] = true
			return
		}
		out = append(out, v...)
	}
	for _, imp := range prod {
		if imp != importer {
			check(imp, false)
		}
	}
	for _, imp := range test {
		if imp != importer && !slices.Contains(prod, imp) { // an external test imports its own package
			check(imp, true)
		}
	}
	return out
}

// modulePath reads the module path from dir/go.mod.
func modulePath(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return "", err
	}
	for line := range strings.Lines(string(b)) {
		if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(m), `"`), nil
		}
	}
	return "", fmt.Errorf("%s/go.mod has no module line", dir)
}

// moduleRoot finds the directory holding go.mod above the working directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the working directory")
		}
		dir = parent
	}
}

// listPackages runs `go list -e -deps -test -json ./...` in root with cgo disabled, so the result
// also proves every dependency builds as pure Go. overlay, if set, is a `go build -overlay` file.
func listPackages(root, overlay string) ([]pkg, error) {
	args := []string{"list", "-e", "-deps", "-test", "-json"}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	cmd := exec.Command("go", append(args, "./...")...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return pkgs, nil
		} else if err != nil {
			return nil, fmt.Errorf("decoding go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
}

// checkModule lists the module at root (with overlay, if set) and returns every violation.
func checkModule(root, overlay string) ([]string, error) {
	module, err := modulePath(root)
	if err != nil {
		return nil, err
	}
	pkgs, err := listPackages(root, overlay)
	if err != nil {
		return nil, err
	}
	var replace struct{ Replace map[string]string }
	if overlay != "" {
		b, err := os.ReadFile(overlay)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &replace); err != nil {
			return nil, fmt.Errorf("overlay %s: %v", overlay, err)
		}
	}
	return checkPackages(module, pkgs, replace.Replace), nil
}

// checkPackages returns, sorted and each once, the violations of the go list output pkgs of
// module: packages that do not load, imports against the picture, exceptions no longer needed,
// and cgo. It fails (returns a message) when pkgs holds no project package. overlay maps a file
// to the one go list read in its place, as `go list -overlay` does.
func checkPackages(module string, pkgs []pkg, overlay map[string]string) []string {
	rel := func(path string) (string, bool) {
		if path == module {
			return ".", true
		}
		return strings.CutPrefix(path, module+"/")
	}
	var out []string
	needed := map[exception]bool{}
	checked := 0
	for _, p := range pkgs {
		if p.Error != nil {
			name, _, _ := strings.Cut(p.ImportPath, " ") // "p [p.test]" is p
			if r, ok := rel(name); ok {
				name = r
			}
			switch {
			case name == "." && strings.Contains(p.Error.Err, "build constraints exclude all Go files"):
				// the tools-only root package (//go:build tools)
			case strings.Contains(p.Error.Err, "build constraints exclude all Go files"):
				out = append(out, fmt.Sprintf("%s does not build without cgo: %s", name, p.Error.Err))
			default:
				out = append(out, fmt.Sprintf("%s does not load: %s", name, p.Error.Err))
			}
		}
		// Only the plain project packages; test variants "p [p.test]", "p_test" and "p.test" are
		// covered through the TestImports and XTestImports of p.
		if p.Module == nil || p.Module.Path != module || p.ForTest != "" || strings.HasSuffix(p.ImportPath, ".test") {
			continue
		}
		if len(p.GoFiles)+len(p.CgoFiles)+len(p.TestGoFiles)+len(p.XTestGoFiles) == 0 {
			continue // e.g. the tools-only root package
		}
		checked++
		importer, _ := rel(p.ImportPath)
		var prod, test []string
		for _, imp := range p.Imports {
			if r, ok := rel(imp); ok {
				prod = append(prod, r)
			}
		}
		for _, imp := range slices.Concat(p.TestImports, p.XTestImports) {
			if r, ok := rel(imp); ok && !slices.Contains(test, r) {
				test = append(test, r)
			}
		}
		out = append(out, checkImports(importer, prod, test, needed)...)
		out = append(out, importsC(p, overlay)...)
		if applies(goroutineFree, goroutineFreeExcept, importer) {
			out = append(out, startsGoroutines(importer, p, overlay)...)
		}
	}
	if checked == 0 {
		return []string{"go list returned no project packages"}
	}
	for _, e := range exceptions {
		if !needed[e] {
			out = append(out, fmt.Sprintf("exception %s → %s (%s) is no longer needed: delete it from internal/lint/rules_test.go",
				e.importer, e.imported, e.why))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// importsC reports each file of p that imports "C", whatever its build tags, or cannot be parsed;
// a file that overlay replaces is read from its replacement.
func importsC(p pkg, overlay map[string]string) []string {
	var out []string
	fset := token.NewFileSet()
	for _, files := range [][]string{p.GoFiles, p.CgoFiles, p.TestGoFiles, p.XTestGoFiles, p.IgnoredGoFiles} {
		for _, name := range files {
			if !strings.HasSuffix(name, ".go") {
				continue
			}
			path := filepath.Join(p.Dir, name)
			if r, ok := overlay[path]; ok {
				path = r
			}
			f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
			if err != nil {
				out = append(out, fmt.Sprintf("%s: parse %s: %v", p.ImportPath, name, err))
				continue
			}
			for _, imp := range f.Imports {
				if path, _ := strconv.Unquote(imp.Path.Value); path == "C" {
					out = append(out, fmt.Sprintf("%s imports \"C\": lakeload is pure Go (no cgo)", filepath.Join(p.Dir, name)))
				}
			}
		}
	}
	return out
}

// startsGoroutines reports each go statement in the production files of p, and an import of
// errgroup (goroutines started for the caller); importer is p's module-relative path.
func startsGoroutines(importer string, p pkg, overlay map[string]string) []string {
	var out []string
	if slices.Contains(p.Imports, "golang.org/x/sync/errgroup") {
		out = append(out, fmt.Sprintf("%s imports golang.org/x/sync/errgroup: only job starts goroutines", importer))
	}
	fset := token.NewFileSet()
	for _, name := range p.GoFiles {
		path := filepath.Join(p.Dir, name)
		if r, ok := overlay[path]; ok {
			path = r
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			out = append(out, fmt.Sprintf("%s: parse %s: %v", importer, name, err))
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if g, ok := n.(*ast.GoStmt); ok {
				out = append(out, fmt.Sprintf("%s starts a goroutine at %s:%d: only job starts goroutines", importer, name, fset.Position(g.Pos()).Line))
			}
			return true
		})
	}
	return out
}

// TestImportDirection holds the whole module to the picture of rules_test.go.
func TestImportDirection(t *testing.T) {
	violations, err := checkModule(moduleRoot(t), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range violations {
		t.Error(v)
	}
}

// TestRulesCatchViolations proves the tables reject each forbidden direction and accept the
// intended ones.
func TestRulesCatchViolations(t *testing.T) {
	bad := []struct {
		from, to string
		inTest   bool
	}{
		{"fileio", "paimon/spec", false},
		{"fileio/local", "internal/canon", false},
		{"paimon/spec", "fileio", false},
		{"paimon/spec/manifest", "paimon/table", true},
		{"paimon/arrowconv", "paimon/format/parquet", false},
		{"paimon/format/parquet", "paimon/table", false},
		{"paimon/mergetree", "paimon/commit", false},
		{"paimon/table", "paimon/commit", false},
		{"paimon/commit", "paimon/read", false},
		{"paimon/commit", "paimon/write", false},
		{"paimon/commit", "paimon/compact", false},
		{"paimon/read", "paimon/write", false},
		{"paimon/read", "paimon/compact", false},
		{"paimon/write", "paimon/read", false},
		{"paimon/maintain", "paimon/read", false},
		{"paimon/catalog", "paimon/commit", false},
		{"paimon/table", "job", true},
		{"paimon/write", "checkpoint", true},
		{"paimon/read", "source/file", false},
		{"paimon/catalog", "cmd/lakeload", false},
		{"paimon/commit", "internal/tamper", false},
		{"source", "job", false},
		{"source", "paimon/format/parquet", false},
		{"source/file", "paimon/commit", true},
		{"source", "paimon/spec/binrow", false},
		{"source", "checkpoint", false},
		{"checkpoint", "job/sub", false},
		{"checkpoint", "paimon/commit", false},
		{"checkpoint", "source/file", true},
		{"internal/canon", "job", true},
		{"internal/tamper", "source", false},
		{"job", "cmd/lakeload", false},
		{"bench", "cmd/lakeload", true},
		{"paimon/table", "internal/canon", false},
		{"job/task", "job", false},
		{"job/task", "job/plan", false},
		{"job/task", "job/temporal", true},
		{"job/task", "paimon/commit", false},
		{"job/task", "paimon/read", false},
		{"job/plan", "job", false},
		{"job/plan", "job/task", false},
		{"job/plan", "paimon/write", false},
		{"job/plan", "paimon/commit", true},
		{"job/seqreserve", "job", false},
		{"job/seqreserve", "job/task", false},
		{"job/seqreserve", "job/plan", true},
		{"job/seqreserve", "paimon/commit", false},
		{"job/seqreserve", "checkpoint", false},
	}
	for _, c := range bad {
		prod, test := []string{c.to}, []string(nil)
		if c.inTest {
			prod, test = nil, prod
		}
		if v := checkImports(c.from, prod, test, map[exception]bool{}); len(v) == 0 {
			t.Errorf("%s → %s (in a test: %v) passed the rules, want a violation", c.from, c.to, c.inTest)
		}
	}
	good := []struct {
		from, to string
		inTest   bool
	}{
		{"fileio/local", "fileio", false},
		{"paimon/spec/binrow", "paimon/spec", false},
		{"paimon/arrowconv", "paimon/spec", false},
		{"paimon/format/parquet", "paimon/arrowconv", false},
		{"paimon/mergetree", "fileio", false},
		{"paimon/commit", "paimon/table", false},
		{"paimon/commit", "paimon/write", true}, // a test writes a table and commits it
		{"paimon/read", "paimon/write", true},
		{"paimon/maintain", "internal/tamper", true},
		{"paimon/compact", "paimon/read", false},
		{"paimon/compact", "paimon/write", false},
		{"paimon/compact", "paimon/commit", false},
		{"paimon/write", "paimon/format/parquet", false},
		{"source", "paimon/spec", false},
		{"source", "paimon/arrowconv", false},
		{"source/file", "source/hostile", true},
		{"checkpoint", "paimon/spec/manifest", false},
		{"job", "checkpoint", false},
		{"job/runner", "job", false},
		{"job", "job/task", false},
		{"job", "job/plan", false},
		{"job/temporal", "job/task", false},
		{"job/task", "paimon/write", false},
		{"job/task", "metrics", false},
		{"job/plan", "paimon/format/parquet", false},
		{"job/plan", "source/file", false},
		{"job/plan", "checkpoint", false},
		{"job", "job/seqreserve", false},
		{"job/seqreserve", "paimon/table", false},
		{"job/seqreserve", "fileio", false},
		{"job/seqreserve", "paimon/catalog", true},
		{"internal/sim", "job", true},
		{"cmd/lakeload", "job", false},
		{"cmd/lakeload", "paimon/write", false},
		{"cmd/lakeload", "cmd/lakeload", true}, // an external test of its own package
	}
	for _, c := range good {
		prod, test := []string{c.to}, []string(nil)
		if c.inTest {
			prod, test = nil, prod
		}
		if v := checkImports(c.from, prod, test, map[exception]bool{}); len(v) != 0 {
			t.Errorf("%s → %s (in a test: %v) rejected: %v", c.from, c.to, c.inTest, v)
		}
	}
	if v := checkImports("misc", nil, nil, map[exception]bool{}); len(v) == 0 {
		t.Error("an unclassified package passed")
	}
}

// TestExceptionsAreExact: an exception excuses its one edge, marks itself needed, and excuses
// nothing else of its importer. The list is empty now; the test plants the two exceptions issue 17
// finding 2 removed (checkpoint → paimon/table, checkpoint → source).
func TestExceptionsAreExact(t *testing.T) {
	saved := exceptions
	defer func() { exceptions = saved }()
	exceptions = []exception{{"checkpoint", "paimon/table", "planted"}, {"checkpoint", "source", "planted"}}
	needed := map[exception]bool{}
	if v := checkImports("checkpoint", []string{"paimon/table", "source"}, nil, needed); len(v) != 0 {
		t.Errorf("the excused checkpoint imports rejected: %v", v)
	}
	if !needed[exceptions[0]] || !needed[exceptions[1]] {
		t.Errorf("checkpoint's exceptions not marked needed: %v", needed)
	}
	exceptions = nil
	if v := checkImports("checkpoint", []string{"paimon/table", "source"}, nil, map[exception]bool{}); len(v) != 4 {
		t.Errorf("without the exceptions, checkpoint → paimon/table and → source give %d violations, want 4 (layer and never, each): %v", len(v), v)
	}
	exceptions = []exception{{"checkpoint", "paimon/table", "planted"}, {"checkpoint", "source", "planted"}}
	v := strings.Join(checkImports("checkpoint", []string{"paimon/commit", "source/file"}, nil, needed), "\n")
	if !strings.Contains(v, "checkpoint imports paimon/commit:") || !strings.Contains(v, "checkpoint imports source/file:") {
		t.Errorf("new checkpoint imports not both reported:\n%s", v)
	}
	// read's tests may import commit anyway, so they do not keep read's exception alive.
	needed = map[exception]bool{}
	if v := checkImports("paimon/read", nil, []string{"paimon/commit"}, needed); len(v) != 0 || len(needed) != 0 {
		t.Errorf("a test import of commit: violations %v, exceptions used %v", v, needed)
	}
}

// TestCheckPackagesReports: a package that does not load, one that needs cgo, and an exception
// no longer needed are each reported; the tools-only root package is not.
func TestCheckPackagesReports(t *testing.T) {
	saved := exceptions
	defer func() { exceptions = saved }()
	exceptions = []exception{{"checkpoint", "paimon/table", "planted"}}
	const m = "example.com/m"
	mod := &struct{ Path string }{m}
	pkgs := []pkg{
		{ImportPath: m, Module: mod, Error: &struct{ Err string }{"build constraints exclude all Go files in /m"}},
		{ImportPath: m + "/fileio", Module: mod, GoFiles: []string{"a.go"}, Dir: t.TempDir()},
		{ImportPath: m + "/source [" + m + "/source.test]", Module: mod, ForTest: m + "/source",
			Error: &struct{ Err string }{"source/a.go:3:1: expected declaration"}},
		{ImportPath: m + "/metrics", Module: mod, Error: &struct{ Err string }{"build constraints exclude all Go files in /m/metrics"}},
	}
	if err := os.WriteFile(filepath.Join(pkgs[1].Dir, "a.go"), []byte("package fileio\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(checkPackages(m, pkgs, nil), "\n")
	for _, want := range []string{
		"source does not load: source/a.go:3:1: expected declaration",
		"metrics does not build without cgo",
		"exception checkpoint → paimon/table (planted) is no longer needed",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, ". does not") {
		t.Errorf("the tools-only root package was reported:\n%s", got)
	}
	if v := checkPackages(m, pkgs[:1], nil); !slices.Equal(v, []string{"go list returned no project packages"}) {
		t.Errorf("no project packages: %v", v)
	}
}

// TestImportsCDetected proves the cgo check sees `import "C"` even in a file excluded by tags.
func TestImportsCDetected(t *testing.T) {
	dir := t.TempDir()
	src := "//go:build cgo\n\npackage x\n\n// #include <stdlib.h>\nimport \"C\"\n"
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	hits := importsC(pkg{ImportPath: "x", Dir: dir, IgnoredGoFiles: []string{"x.go"}}, nil)
	if len(hits) != 1 || !strings.Contains(hits[0], `imports "C"`) {
		t.Fatalf("importsC = %v, want the one cgo file", hits)
	}
}
