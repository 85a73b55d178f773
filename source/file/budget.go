package file

import (
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// budget is a memory.Allocator that counts the bytes it holds and refuses to hold more than limit:
// when armed, an allocation past the limit panics with *overBudget before it is made (the reader
// recovers it as an input error); unarmed (arrow-go may allocate on goroutines of its own, where a
// panic would kill the process) it is made and remembered in over.
type budget struct {
	mem   memory.Allocator
	limit int64
	live  atomic.Int64
	armed atomic.Bool
	over  atomic.Bool
}

// overBudget is the panic value of an armed budget.
type overBudget struct{ limit int64 }

func newBudget(mem memory.Allocator, limit int64) *budget { return &budget{mem: mem, limit: limit} }

func (b *budget) take(n int) {
	if n <= 0 {
		b.live.Add(int64(n))
		return
	}
	if b.live.Add(int64(n)) <= b.limit {
		return
	}
	if b.armed.Load() {
		b.live.Add(-int64(n))
		panic(&overBudget{b.limit})
	}
	b.over.Store(true)
}

// Allocate implements memory.Allocator.
func (b *budget) Allocate(size int) []byte {
	b.take(size)
	return b.mem.Allocate(size)
}

// Reallocate implements memory.Allocator.
func (b *budget) Reallocate(size int, old []byte) []byte {
	b.take(size - len(old))
	return b.mem.Reallocate(size, old)
}

// Free implements memory.Allocator.
func (b *budget) Free(old []byte) {
	b.live.Add(-int64(len(old)))
	b.mem.Free(old)
}
