package job

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lakeload/lakeload/internal/loadtest"
)

// TestCrashDuringRecovery crashes the job in the middle window, then crashes the resumed run again —
// before its recovery action, or at any later point of the same window, which the resume reaches
// while carrying out that action (recompute, commit, publish) — and resumes a third time. The
// aggregation table turns any double commit into wrong sums; the deduplicate table checks upserts and
// deletes across recomputed attempts. Every run keeps published ⊆ committed; the end state is exact.
func TestCrashDuringRecovery(t *testing.T) {
	first := []string{PointTaskWritten, PointResultStored, PointBeforeCommit, PointInsideCommit, pointLatest,
		PointAfterCommit, PointBeforePublish}
	second := []string{PointRecoveryAction, PointTaskWritten, PointResultStored, PointBeforeCommit, PointInsideCommit,
		pointLatest, PointAfterCommit, PointBeforePublish, PointAfterPublish}
	m := &matrix{rows: first, cell: map[[2]string]string{}}
	for _, p := range second {
		m.addCol(p)
	}
	start := time.Now()
	var cases, twice atomic.Int32
	t.Cleanup(func() {
		t.Logf("double crashes in the middle window (%d cases, %d crashed twice, %v); rows: first crash, columns: second "+
			"crash during the resume; t:=totals (sum), c:=current (dedup); ok = crashed twice, resumed, exact; "+
			"n/r = not on the resume's path this time; - = never on it:%s", cases.Load(), twice.Load(),
			time.Since(start).Round(time.Millisecond), m)
	})
	for _, fx := range []loadtest.Fixture{loadtest.AggSum(11, matrixFiles, matrixRows), loadtest.Dedup(11, matrixFiles, matrixRows)} {
		glob := fx.WriteInputs(t, loadtest.TempDir(t))
		const w = 2
		for _, p1 := range first {
			for _, p2 := range second {
				if !onResumePath(p1, p2) {
					continue
				}
				t.Run(fmt.Sprintf("%s/%s/then/%s", fx.Name, p1, p2), func(t *testing.T) {
					t.Parallel()
					e := newLoadEnv(t, fx, glob)
					// After a crash at result-stored the resume commits or recomputes (the other task may
					// not have stored its result); the second crash may then be off its path.
					optional := p1 == PointResultStored && (p2 == PointTaskWritten || p2 == PointResultStored)
					out := e.crashThenResume(t, e.config(matrixCommitRows), []crashAt{{p1, w}, {p2, w}}, []bool{false, optional})
					cases.Add(1)
					mark := "n/r"
					if out.happened == 2 {
						twice.Add(1)
						mark = "ok"
					}
					m.set(p1, p2, mergeCell(m, p1, p2, fx.Name[:1]+":"+mark))
				})
			}
		}
	}
}

// onResumePath tells whether a resume after a crash at first reaches second in the crashed window:
// every point while it recomputes the window, the commit and publish points while it commits the
// stored results, only recovery-action while it publishes a recorded commit (recovery publishes
// without the before-/after-publish hooks).
func onResumePath(first, second string) bool {
	switch first {
	case PointTaskWritten, PointResultStored:
		return true
	case PointBeforeCommit, PointInsideCommit:
		return second != PointTaskWritten && second != PointResultStored
	}
	return second == PointRecoveryAction
}

// mergeCell appends v to the matrix cell (row, col).
func mergeCell(m *matrix, row, col, v string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if cur := m.cell[[2]string{row, col}]; cur != "" {
		return cur + " " + v
	}
	return v
}
