package task

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/lakeload/lakeload/source"
)

// ReadInOrder hands every batch of splits to fn on the calling goroutine, split after split and batch
// after batch, exactly as a loop over the splits would, while up to n splits (the one fn is at and
// the next ones) are opened and decoded on goroutines of this package, each at most depth batches
// ahead of fn: at most n*(depth+1) batches are decoded and not yet handed to fn. `lakeload write` uses it so that decoding the input overlaps the
// writer instead of leaving the other cores idle; sequence numbers, and so the table written, are
// those of the serial loop. fn owns each batch (it must release the record).
//
// An error of open or of a reader is returned as *source.InputError once fn has had every batch before it
// (the serial loop's error); an error of fn is returned as is. Either way the readers are stopped,
// closed and waited for, and the batches read ahead are released, before ReadInOrder returns.
// n < 1 means 1, depth < 1 means 1.
func ReadInOrder(ctx context.Context, n, depth int, splits []source.Split,
	open func(context.Context, source.Split) (source.Reader, error), fn func(*source.Batch) error) error {
	ctx, cancel := context.WithCancel(ctx)
	type item struct {
		b   *source.Batch
		err error
	}
	queues := make([]chan item, len(splits))
	for i := range queues {
		queues[i] = make(chan item, max(depth, 1))
	}
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
		for _, q := range queues { // what was read ahead and not consumed
			for it := range q {
				if it.b != nil {
					it.b.Record.Release()
				}
			}
		}
	}()
	read := func(i int) {
		defer close(queues[i])
		send := func(it item) bool {
			select {
			case queues[i] <- it:
				return true
			case <-ctx.Done():
				if it.b != nil {
					it.b.Record.Release()
				}
				return false
			}
		}
		r, err := open(ctx, splits[i])
		if err != nil {
			send(item{err: err})
			return
		}
		defer r.Close()
		for {
			b, err := r.Next(ctx)
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				send(item{err: err})
				return
			}
			if !send(item{b: b}) {
				return
			}
		}
	}
	slots := make(chan struct{}, max(n, 1))
	wg.Add(1)
	go func() { // starts the readers in split order: at most n splits started and not yet consumed
		defer wg.Done()
		for i := range splits {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				for _, q := range queues[i:] {
					close(q)
				}
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				read(i)
			}()
		}
	}()
	for i := range splits {
		for {
			var it item
			var ok bool
			select {
			case it, ok = <-queues[i]:
			case <-ctx.Done():
				return &source.InputError{Err: ctx.Err()}
			}
			if !ok {
				<-slots // split i is consumed: the next split's reader may start
				break
			}
			if it.err != nil {
				return &source.InputError{Err: it.err}
			}
			if err := fn(it.b); err != nil {
				return err
			}
		}
	}
	return nil
}
