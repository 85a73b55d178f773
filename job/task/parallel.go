package task

import (
	"context"

	"github.com/lakeload/lakeload/paimon/write"
	"golang.org/x/sync/errgroup"
)

// RunAll runs fns on goroutines of this package, at most n at a time (n < 1 means 1), and returns
// the first error once the started ones have returned, or ctx's error. Each function receives a
// context that is cancelled when one fails or ctx ends; a function not started by then is skipped.
// It is the loader's one bounded-parallel loop: the tasks of a window, the readers of a task, the
// buckets a writer flushes.
func RunAll(ctx context.Context, n int, fns []func(context.Context) error) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(n, 1))
	for _, fn := range fns {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			if gctx.Err() != nil {
				return nil // skipped: another function failed, or ctx ended, while this one waited
			}
			return fn(gctx)
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}

// Parallel returns a write.Runner that runs up to n functions at a time (RunAll) and returns the
// first error once the started ones have returned (functions not started when one fails are
// skipped). `lakeload write` passes it to Writer.PrepareWith to flush buckets concurrently, as load
// does. n < 1 means 1.
func Parallel(ctx context.Context, n int) write.Runner {
	return func(fns []func() error) error { return RunAll(ctx, n, ignoreContext(fns)) }
}

// ignoreContext adapts functions that take no context (they use their caller's) to RunAll.
func ignoreContext(fns []func() error) []func(context.Context) error {
	out := make([]func(context.Context) error, len(fns))
	for i, fn := range fns {
		out[i] = func(context.Context) error { return fn() }
	}
	return out
}
