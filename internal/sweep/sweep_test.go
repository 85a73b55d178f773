package sweep

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio/errorfs"
	"github.com/lakeload/lakeload/internal/loadtest"
)

// long reports whether every k runs (make sweep) rather than a sample.
func long() bool { return os.Getenv("LAKELOAD_SWEEP") == "long" }

// chosen returns the k of 1..n the sweep runs: all of them in long mode, else the first and last
// 20 and every 7th.
func chosen(n int64) []int64 {
	var out []int64
	for k := int64(1); k <= n; k++ {
		if long() || k <= 20 || k > n-20 || k%7 == 0 {
			out = append(out, k)
		}
	}
	return out
}

// tally counts how the faulty runs ended.
type tally struct {
	runs, finished, clearErr, unclearErr, notReached, failures int
	// tornRefused counts torn WriteIfAbsent faults (outside the fileio contract, which makes
	// WriteIfAbsent atomic) after which the table or store refuses with an error naming the torn file.
	tornRefused int
	// unwrapped counts errors after a torn write that do not wrap the injected error (%w) — a
	// reader met the torn file first; unwrappedEx keeps one example.
	unwrapped   int
	unwrappedEx string
	byKind      map[string]int    // faults injected per "mode op-kind"
	refusals    map[string]string // torn file pattern → one refusal message
}

func newTally() tally { return tally{byKind: map[string]int{}, refusals: map[string]string{}} }

func (t *tally) add(o tally) {
	t.runs += o.runs
	t.finished += o.finished
	t.clearErr += o.clearErr
	t.unclearErr += o.unclearErr
	t.notReached += o.notReached
	t.failures += o.failures
	t.tornRefused += o.tornRefused
	t.unwrapped += o.unwrapped
	if o.unwrappedEx != "" {
		t.unwrappedEx = o.unwrappedEx
	}
	for k, v := range o.byKind {
		t.byKind[k] += v
	}
	for k, v := range o.refusals {
		t.refusals[k] = v
	}
}

func (t tally) String() string {
	return fmt.Sprintf("runs=%d finished-despite-fault=%d clear-error=%d unclear-error=%d fault-not-reached=%d "+
		"torn-write-if-absent-refused=%d failures=%d (errors not wrapping the fault: %d)", t.runs, t.finished, t.clearErr,
		t.unclearErr, t.notReached, t.tornRefused, t.failures, t.unwrapped)
}

// clear reports whether err's message names the failed operation: its path or its kind.
func clear(err error, op errorfs.Op) bool {
	msg := err.Error()
	return strings.Contains(msg, op.Path) || strings.Contains(msg, op.Kind.String())
}

// TestSingleFaultSweep runs each fixture's load once per chosen k with the k-th I/O call failing,
// then resumes it cleanly and checks the invariants of the package doc.
func TestSingleFaultSweep(t *testing.T) {
	loads := []struct {
		fx         loadtest.Fixture
		commitRows int64
	}{
		{loadtest.Append(11, 3, 12), 12},
		{loadtest.AggSum(12, 3, 12), 12},
		{loadtest.Dedup(13, 3, 12), 12},
	}
	total := newTally()
	for _, c := range loads {
		t.Run(c.fx.Name, func(t *testing.T) {
			l := newLoad(t, c.fx, c.commitRows)
			tl := sweepLoad(t, l)
			t.Logf("SWEEP table=%s %s", c.fx.Name, tl)
			total.add(tl)
		})
	}
	mode := "sampled"
	if long() {
		mode = "long"
	}
	t.Logf("SWEEP mode=%s total %s", mode, total)
	t.Logf("faults by mode and op kind: %v", total.byKind)
	if total.unwrapped > 0 {
		t.Logf("e.g. an error not wrapping the fault: %s", total.unwrappedEx)
	}
	for what, msg := range total.refusals {
		t.Logf("torn %s (WriteIfAbsent, outside the fileio contract) → refused: %s", what, msg)
	}
}

// sweepLoad runs the clean reference run and then the sweep of one load: an error fault at every
// chosen k, plus a torn and a landed fault where the k-th call writes.
func sweepLoad(t *testing.T, l *load) tally {
	ctx := context.Background()
	ref := l.newWorld(t)
	clean := ref.run(nil, errorfs.ModeError, true)
	if clean.err != nil {
		t.Fatalf("clean run: %v", clean.err)
	}
	if err := ref.checkFinal(ctx); err != nil {
		t.Fatalf("clean run: %v", err)
	}
	if clean.res.Windows < 2 || clean.res.Windows > 3 {
		t.Fatalf("clean run made %d windows, want 2-3", clean.res.Windows)
	}
	n := clean.ops
	t.Logf("clean run: %d I/O calls, %d windows, %d rows", n, clean.res.Windows, l.fx.Rows())
	tl := newTally()
	for _, k := range chosen(n) {
		refOp := clean.log[k-1]
		modes := []errorfs.Mode{errorfs.ModeError}
		if refOp.Kind.Tearable() {
			modes = append(modes, errorfs.ModeTorn)
		}
		if refOp.Kind.Mutates() {
			modes = append(modes, errorfs.ModeLanded)
		}
		for _, m := range modes {
			tl.runs++
			if msg := sweepOne(t, l, k, m, refOp, &tl); msg != "" {
				tl.failures++
				t.Errorf("k=%d (%s fault at %s): %s", k, m, shape(refOp), msg)
			}
		}
	}
	return tl
}

// digits are blanked in the summary's names of torn files.
var digits = regexp.MustCompile(`[0-9]+`)

// sweepOne runs the load with the k-th call failing in mode m, then a clean resume, and returns
// what went wrong ("" when nothing did).
func sweepOne(t *testing.T, l *load, k int64, m errorfs.Mode, refOp errorfs.Op, tl *tally) string {
	ctx := context.Background()
	w := l.newWorld(t)
	out := w.run(errorfs.OnIndex(k), m, false)
	if out.panicked {
		return out.err.Error()
	}
	if len(out.injected) == 0 {
		tl.notReached++
		return fmt.Sprintf("the run made %d calls, the clean run at least %d: the k-th was never reached (nondeterminism)", out.ops, k)
	}
	op := out.injected[0]
	switch {
	case out.err == nil:
		tl.finished++
	case clear(out.err, op):
		tl.clearErr++
	default:
		tl.unclearErr++
		return fmt.Sprintf("error names neither the path nor the operation: %v", out.err)
	}
	tl.byKind[m.String()+" "+op.Kind.String()]++
	if out.err != nil && !errors.Is(out.err, errorfs.ErrInjected) {
		if m != errorfs.ModeTorn {
			// The store failed the call and left nothing odd behind: the I/O error itself must reach
			// the user, not a consequence of it (such as a CSV row "with 1 field").
			return fmt.Sprintf("the error does not wrap the injected fault (it blames something else): %v", out.err)
		}
		tl.unwrapped++
		tl.unwrappedEx = fmt.Sprintf("k=%d %s %s: %v", k, m, shape(op), out.err)
	}
	if got := shape(op); got != shape(refOp) {
		t.Logf("k=%d: the fault hit %s, the clean run's k-th call was %s", k, got, shape(refOp))
	}
	// A torn WriteIfAbsent cannot happen on a backend keeping the fileio contract; lakeload must
	// then refuse clearly (naming the torn file), never load wrong rows.
	outside := m == errorfs.ModeTorn && op.Kind == errorfs.OpWriteIfAbsent
	refused := func(err error) bool {
		if !outside || !strings.Contains(err.Error(), op.Path) {
			return false
		}
		tl.tornRefused++
		name := strings.NewReplacer(l.storePath(), "store:", l.tablePath(), "table:").Replace(op.Path)
		tl.refusals[digits.ReplaceAllString(name, "N")] = err.Error()
		return true
	}
	if _, err := w.checkClaims(ctx); err != nil {
		if refused(err) {
			return ""
		}
		return "after the faulty run: " + err.Error()
	}
	if err := w.checkFiles(ctx); err != nil {
		if refused(err) {
			return ""
		}
		return "after the faulty run: " + err.Error()
	}
	res := w.run(nil, errorfs.ModeError, false)
	if res.err != nil {
		if refused(res.err) {
			return ""
		}
		return fmt.Sprintf("the clean resume failed (faulty run ended with %v): %v", out.err, res.err)
	}
	if err := w.checkFinal(ctx); err != nil {
		return fmt.Sprintf("after the resume (faulty run ended with %v): %v", out.err, err)
	}
	return ""
}
