package mutate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// Outcome classifies one mutant run.
type Outcome int

// Outcomes of a mutant run.
const (
	Killed   Outcome = iota // the tests failed, the named killer among them
	Survived                // the tests passed: they do not catch the mistake
	ListErr                 // the list is wrong: no unique snippet, no build, or another killer
)

func (o Outcome) String() string { return [...]string{"killed", "SURVIVED", "ERROR"}[o] }

// Result is the outcome of one mutant.
type Result struct {
	Mutant  Mutant
	Outcome Outcome
	Failed  []string // top-level tests that failed
	Detail  string   // why ERROR, or build output
	Elapsed time.Duration
}

// Options configure a run.
type Options struct {
	Root    string        // module root: the directory of go.mod
	Short   bool          // run only each mutant's killing test (-run '^Kill$')
	Jobs    int           // mutants run at once (≥ 1)
	Timeout time.Duration // go test -timeout per mutant
	Go      string        // the go command (default "go")
	Log     io.Writer     // receives one line per mutant, in list order, as they finish
}

func (o Options) goCmd() string {
	if o.Go == "" {
		return "go"
	}
	return o.Go
}

func (o Options) runPattern(m Mutant) string {
	if o.Short {
		return "^" + regexp.QuoteMeta(m.Kill) + "$"
	}
	return m.Run
}

// Run checks the unmutated tree, then runs every mutant. It returns every result (in list order)
// and an error only when the harness itself cannot work (the baseline fails, a file is unreadable).
func Run(ctx context.Context, ms []Mutant, o Options) ([]Result, error) {
	if o.Jobs < 1 {
		o.Jobs = 1
	}
	tmp, err := os.MkdirTemp("", "lakeload-mutate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if err := baseline(ctx, ms, o); err != nil {
		return nil, err
	}
	results := make([]Result, len(ms))
	done := make([]chan struct{}, len(ms))
	for i := range done {
		done[i] = make(chan struct{})
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range o.Jobs {
		wg.Go(func() {
			for i := range next {
				results[i] = runOne(ctx, ms[i], filepath.Join(tmp, fmt.Sprint(i)), o)
				close(done[i])
			}
		})
	}
	go func() {
		defer close(next)
		for i := range ms {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	for i := range ms {
		select {
		case <-done[i]:
		case <-ctx.Done():
			wg.Wait()
			return results[:i], ctx.Err()
		}
		if o.Log != nil {
			fmt.Fprintln(o.Log, results[i].Line())
		}
	}
	wg.Wait()
	return results, nil
}

// Line renders a result as one report line.
func (r Result) Line() string {
	s := fmt.Sprintf("%-8s %-44s %5.1fs", r.Outcome, r.Mutant.ID, r.Elapsed.Seconds())
	switch r.Outcome {
	case Killed:
		s += "  by " + strings.Join(r.Failed, ", ")
	case Survived:
		s += "  " + r.Mutant.Why + " (" + r.Mutant.Src + ")"
	case ListErr:
		s += "  " + r.Mutant.Src + ": " + r.Detail
	}
	return s
}

// baseline runs each distinct test selection once on the unmutated tree: it must pass.
func baseline(ctx context.Context, ms []Mutant, o Options) error {
	seen := map[string]bool{}
	for _, m := range ms {
		key := strings.Join(m.Pkgs, " ") + "\x00" + o.runPattern(m)
		if seen[key] {
			continue
		}
		seen[key] = true
		tr, err := goTest(ctx, o, m.Pkgs, o.runPattern(m), "")
		if err != nil {
			return err
		}
		if tr.buildFailed || len(tr.failed) > 0 || tr.pkgFailed {
			return fmt.Errorf("mutate: the unmutated tree fails `go test -run %s %s` (failed: %v)\n%s",
				o.runPattern(m), strings.Join(m.Pkgs, " "), tr.failed, tr.output)
		}
		if tr.ran == 0 {
			return fmt.Errorf("mutate: `go test -run %s %s` runs no test (mutant %s, %s)", o.runPattern(m), strings.Join(m.Pkgs, " "), m.ID, m.Src)
		}
	}
	return nil
}

func runOne(ctx context.Context, m Mutant, dir string, o Options) Result {
	start := time.Now()
	r := Result{Mutant: m}
	defer func() { r.Elapsed = time.Since(start) }()
	fail := func(format string, args ...any) Result {
		r.Outcome, r.Detail, r.Elapsed = ListErr, fmt.Sprintf(format, args...), time.Since(start)
		return r
	}
	path := filepath.Join(o.Root, filepath.FromSlash(m.File))
	src, err := os.ReadFile(path)
	if err != nil {
		return fail("%v", err)
	}
	mutated, err := m.Apply(string(src))
	if err != nil {
		return fail("%v", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail("%v", err)
	}
	mfile := filepath.Join(dir, filepath.Base(path))
	overlay := filepath.Join(dir, "overlay.json")
	ov, _ := json.Marshal(map[string]map[string]string{"Replace": {path: mfile}})
	if err := os.WriteFile(mfile, []byte(mutated), 0o644); err != nil {
		return fail("%v", err)
	}
	if err := os.WriteFile(overlay, ov, 0o644); err != nil {
		return fail("%v", err)
	}
	tr, err := goTest(ctx, o, m.Pkgs, o.runPattern(m), overlay)
	if err != nil {
		return fail("%v", err)
	}
	r.Failed = tr.failed
	switch {
	case tr.buildFailed:
		return fail("the mutant does not build:\n%s", indent(tr.buildOutput))
	case len(tr.failed) == 0 && tr.pkgFailed:
		return fail("go test failed without a failing test:\n%s", indent(tr.output))
	case len(tr.failed) == 0:
		r.Outcome = Survived
	case !slices.Contains(tr.failed, m.Kill):
		return fail("killed by %s, not by %s as the list says: update kill", strings.Join(tr.failed, ", "), m.Kill)
	default:
		r.Outcome = Killed
	}
	r.Elapsed = time.Since(start)
	return r
}

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	if len(s) > 4000 {
		s = s[:4000] + "\n…"
	}
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// testRun is what one `go test -json` reported.
type testRun struct {
	failed      []string // top-level tests that failed, in order
	ran         int      // top-level tests that ran
	pkgFailed   bool
	buildFailed bool
	buildOutput string
	output      string // the tests' output (for a failing baseline)
}

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action, Package, Test, Output, FailedBuild string
}

func goTest(ctx context.Context, o Options, pkgs []string, run, overlay string) (testRun, error) {
	// -vet=off: a vet finding is not a kill; -s -w: no symbol table or DWARF, a quarter less link time.
	args := []string{"test", "-json", "-count=1", "-vet=off", "-ldflags=-s -w", "-timeout", o.Timeout.String(), "-run", run}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	args = append(args, pkgs...)
	// The test binary's own -timeout panics first; this one catches a wedged build or toolchain.
	ctx, cancel := context.WithTimeout(ctx, o.Timeout+2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, o.goCmd(), args...)
	cmd.Dir = o.Root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return testRun{}, err
	}
	if err := cmd.Start(); err != nil {
		return testRun{}, err
	}
	var tr testRun
	var outBuf, buildBuf strings.Builder
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			outBuf.WriteString(sc.Text() + "\n")
			continue
		}
		top := e.Test != "" && !strings.Contains(e.Test, "/")
		switch {
		case e.Action == "build-output":
			buildBuf.WriteString(e.Output)
		case e.Action == "build-fail":
			tr.buildFailed = true
		case e.Action == "output" && outBuf.Len() < 1<<16:
			outBuf.WriteString(e.Output)
		case e.Action == "fail" && e.Test == "":
			tr.pkgFailed = true
			if e.FailedBuild != "" {
				tr.buildFailed = true
			}
		case e.Action == "fail" && top:
			tr.failed = append(tr.failed, e.Test)
			tr.ran++
		case (e.Action == "pass" || e.Action == "skip") && top:
			tr.ran++
		}
	}
	werr := cmd.Wait()
	if ctx.Err() != nil {
		return tr, fmt.Errorf("go test %s: %w", strings.Join(pkgs, " "), ctx.Err())
	}
	var exit *exec.ExitError
	if werr != nil && !errors.As(werr, &exit) {
		return tr, fmt.Errorf("go test: %w", werr)
	}
	if werr != nil && !tr.pkgFailed && !tr.buildFailed && len(tr.failed) == 0 {
		// go itself failed before testing (a bad pattern or flag, a setup error): not a kill.
		tr.buildFailed = true
	}
	tr.buildOutput = buildBuf.String() + stderr.String()
	tr.output = outBuf.String() + stderr.String()
	return tr, nil
}
