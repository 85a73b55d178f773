package read

import (
	"context"
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakeload/lakeload/paimon/table"
)

// parallelRecords is RecordsWith with o.Workers functions run by o.Parallel. Each function
// claims the next split in plan order, at most Workers+1 splits ahead of the output, and decodes
// it with a Reader of its own. A function that claims the split whose turn it is, while no other
// function is emitting, streams it to fn; any other split's batches are held. Whichever function
// finishes a split then emits the held splits whose turn has come. One function at a time may
// emit (emitting), so fn is never called concurrently and sees plan order, whatever the runner
// does: run the functions together, one after another, or some of them not at all (then the
// result is an error).
func parallelRecords(ctx context.Context, t *table.Table, plan *Plan, o RecordsOptions, schema *arrow.Schema, fn func(arrow.RecordBatch) error) error {
	n, window := len(plan.Splits), o.Workers+1
	held := make([][]arrow.RecordBatch, n)
	done := make([]bool, n)
	var (
		mu       sync.Mutex
		cond     = sync.NewCond(&mu)
		claimed  int  // splits claimed
		emitted  int  // splits fn has had in full
		emitting bool // a function has the right to call fn
		failed   error
	)
	// drain emits the done splits from emitted on; mu is held, and so is the right to emit.
	drain := func() error {
		for emitted < n && done[emitted] && failed == nil {
			recs := held[emitted]
			held[emitted] = nil
			mu.Unlock()
			var err error
			for _, rec := range recs {
				if err == nil {
					err = fn(rec)
				}
				rec.Release()
			}
			mu.Lock()
			if err != nil {
				return err
			}
			emitted++
			cond.Broadcast()
		}
		return nil
	}
	worker := func() error {
		r, err := NewReader(t, plan.Schema)
		var ms *colMergeSpec
		if err == nil {
			err = r.Select(o.Columns)
			ms = r.columnarMergeSpec(schema) // the reader's, the same for every split it reads
		}
		// No deferred Unlock: mu is released around decoding and fn, and a panic there must stay the
		// panic it is, not become an unlock of an unlocked mutex.
		mu.Lock()
		for err == nil {
			for failed == nil && claimed < n && claimed >= emitted+window {
				cond.Wait()
			}
			if failed != nil || claimed >= n {
				break
			}
			k := claimed
			claimed++
			stream := k == emitted && !emitting
			emitting = emitting || stream
			mu.Unlock()
			emit := fn
			var recs []arrow.RecordBatch
			if !stream {
				emit = func(rec arrow.RecordBatch) error {
					rec.Retain()
					recs = append(recs, rec)
					return nil
				}
			}
			err = r.splitRecords(ctx, plan.Splits[k], ms, schema, o.BatchSize, emit)
			mu.Lock()
			held[k], done[k] = recs, true
			if err == nil && stream {
				emitted = k + 1
			}
			if err == nil && (stream || !emitting) {
				emitting = true
				err = drain()
				emitting = false
			}
			cond.Broadcast()
		}
		if failed == nil {
			failed = err
		}
		cond.Broadcast()
		mu.Unlock()
		return nil
	}
	fns := make([]func() error, o.Workers)
	for i := range fns {
		fns[i] = worker
	}
	err := o.Parallel(fns)
	mu.Lock()
	defer mu.Unlock()
	for _, recs := range held {
		for _, rec := range recs {
			rec.Release()
		}
	}
	switch {
	case failed != nil:
		return failed
	case err != nil:
		return err
	case emitted != n:
		return fmt.Errorf("read: the runner ran no function for splits %d..%d of %d", emitted+1, n, n)
	}
	return nil
}
