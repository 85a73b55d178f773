package read

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakeload/lakeload/paimon/table"
)

// goRunner runs every function on a goroutine of its own, as job's runner does.
func goRunner(fns []func() error) error {
	errs := make(chan error, len(fns))
	for _, f := range fns {
		go func() { errs <- f() }()
	}
	var first error
	for range fns {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// parallelPlan makes a primary-key table of the given buckets from three commits of keys keys
// (overlapping, so splits merge) and plans it; it fails unless the plan has at least minSplits splits.
func parallelPlan(t *testing.T, buckets string, keys, minSplits int) (*table.Table, *Plan) {
	t.Helper()
	tbl := rtTable(t, mergeCols, []string{"p"}, mergePK, map[string]string{"bucket": buckets})
	for c := 0; c < 3; c++ {
		var ch []rtChange
		for k := c; k < keys; k += 2 {
			ch = append(ch, rtIns(mergeRow(k, int64(c*1000+k), nil)...))
		}
		rtCommit(t, tbl, ch...)
	}
	plan, err := Scan(context.Background(), tbl, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Splits) < minSplits {
		t.Fatalf("want at least %d splits, got %d", minSplits, len(plan.Splits))
	}
	return tbl, plan
}

// rowStrings renders each row of rec as its values joined by "|".
func rowStrings(rec arrow.RecordBatch) []string {
	var out []string
	for i := 0; i < int(rec.NumRows()); i++ {
		var cells []string
		for _, c := range rec.Columns() {
			cells = append(cells, c.ValueStr(i))
		}
		out = append(out, strings.Join(cells, "|"))
	}
	return out
}

// TestRecordsParallelConcurrentRunner: with the functions really running together (and fn slow on
// some batches, so that splits finish out of turn and are held), fn is never called concurrently,
// sees the serial output row for row, and gets each error once; a runner that runs no function is
// an error, not an empty result.
func TestRecordsParallelConcurrentRunner(t *testing.T) {
	ctx := context.Background()
	tbl, plan := parallelPlan(t, "5", 400, 6)
	rows := rowStrings
	var serial []string
	if err := RecordsWith(ctx, tbl, plan, RecordsOptions{BatchSize: 16}, func(rec arrow.RecordBatch) error {
		serial = append(serial, rows(rec)...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{2, 3, 8} {
		for round := 0; round < 20; round++ {
			var out []string
			var inside atomic.Int32
			calls := 0
			err := RecordsWith(ctx, tbl, plan, RecordsOptions{BatchSize: 16, Parallel: goRunner, Workers: w}, func(rec arrow.RecordBatch) error {
				if inside.Add(1) != 1 {
					t.Error("fn called concurrently")
				}
				defer inside.Add(-1)
				if calls++; (calls+round)%7 == 0 {
					time.Sleep(200 * time.Microsecond)
				}
				out = append(out, rows(rec)...)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(out, "\n") != strings.Join(serial, "\n") {
				t.Fatalf("workers %d round %d: output differs from serial (%d vs %d rows)", w, round, len(out), len(serial))
			}
		}
	}
	stop := errors.New("stop")
	for _, at := range []int{1, 3, 9} {
		var calls atomic.Int32
		err := RecordsWith(ctx, tbl, plan, RecordsOptions{BatchSize: 16, Parallel: goRunner, Workers: 3}, func(arrow.RecordBatch) error {
			if calls.Add(1) == int32(at) {
				return stop
			}
			return nil
		})
		if !errors.Is(err, stop) || calls.Load() != int32(at) {
			t.Errorf("error at call %d: err = %v after %d calls", at, err, calls.Load())
		}
	}
	none := func([]func() error) error { return nil }
	if err := RecordsWith(ctx, tbl, plan, RecordsOptions{BatchSize: 16, Parallel: none, Workers: 2}, func(arrow.RecordBatch) error { return nil }); err == nil {
		t.Error("a runner that ran nothing read the table without error")
	}
}
