package mergetree

// Heap is a binary min-heap of Items ordered by Less, the cursor queue of a k-way merge: fill Items
// and call Init, then look at Items[0]; after advancing it call Fix0, or Pop0 once it is exhausted.
type Heap[T any] struct {
	Items []T
	Less  func(a, b T) bool
}

// Init orders Items into a heap.
func (h *Heap[T]) Init() {
	for i := len(h.Items)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// Fix0 restores the order after Items[0] changed.
func (h *Heap[T]) Fix0() { h.down(0) }

// Pop0 removes Items[0].
func (h *Heap[T]) Pop0() {
	n := len(h.Items) - 1
	var zero T
	h.Items[0], h.Items[n] = h.Items[n], zero
	h.Items = h.Items[:n]
	if n > 0 {
		h.down(0)
	}
}

func (h *Heap[T]) down(i int) {
	n := len(h.Items)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h.Less(h.Items[r], h.Items[l]) {
			m = r
		}
		if !h.Less(h.Items[m], h.Items[i]) {
			return
		}
		h.Items[i], h.Items[m] = h.Items[m], h.Items[i]
		i = m
	}
}
