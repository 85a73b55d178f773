package task

import (
	"context"

	"github.com/lakeload/lakeload/paimon/write"
)

// Parallel returns a write.Runner that runs up to n functions at a time on goroutines of this
// package and returns the first error once the started ones have returned (functions not started
// when one fails are skipped). `lakeload write` passes it to Writer.PrepareWith to flush buckets
// concurrently, as load does. n < 1 means 1.
func Parallel(ctx context.Context, n int) write.Runner {
	return func(fns []func() error) error { return runParallel(ctx, n, fns) }
}
