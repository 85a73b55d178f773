package write

import "sync"

// Parallel returns a Runner that runs up to n functions at a time, each on its own goroutine, and returns the
// first error after all started functions have returned (functions not yet started when one fails are
// skipped). Pass it to PrepareWith to flush the buckets of a writer concurrently: the flushes share only
// read-only state. n < 1 means 1.
func Parallel(n int) Runner {
	n = max(n, 1)
	return func(fns []func() error) error {
		if n == 1 || len(fns) < 2 {
			return sequential(fns)
		}
		var (
			wg    sync.WaitGroup
			mu    sync.Mutex
			first error
		)
		sem := make(chan struct{}, n)
		for _, fn := range fns {
			sem <- struct{}{}
			mu.Lock()
			failed := first != nil
			mu.Unlock()
			if failed {
				<-sem
				break
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				if err := fn(); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		return first
	}
}
