package task

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakeload/lakeload/source"
)

// fakeSplits is a source of splits of int64 batches (split i, batch j holds the value i*1000+j),
// counting what is open and what is decoded but not yet consumed.
type fakeSplits struct {
	mem      *memory.CheckedAllocator
	batches  []int // batches per split
	failAt   [2]int
	failErr  error
	open     atomic.Int32
	closed   atomic.Int32
	produced atomic.Int32
}

type fakeReader struct {
	f    *fakeSplits
	i, j int
}

func (f *fakeSplits) openSplit(_ context.Context, sp source.Split) (source.Reader, error) {
	var i int
	fmt.Sscanf(sp.Path, "s%d", &i)
	f.open.Add(1)
	return &fakeReader{f: f, i: i}, nil
}

func (r *fakeReader) Next(ctx context.Context) (*source.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.f.failErr != nil && r.i == r.f.failAt[0] && r.j == r.f.failAt[1] {
		return nil, r.f.failErr
	}
	if r.j == r.f.batches[r.i] {
		return nil, io.EOF
	}
	b := array.NewInt64Builder(r.f.mem)
	b.Append(int64(r.i*1000 + r.j))
	col := b.NewArray()
	b.Release()
	sc := arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.PrimitiveTypes.Int64}}, nil)
	rec := array.NewRecordBatch(sc, []arrow.Array{col}, 1)
	col.Release()
	r.j++
	r.f.produced.Add(1)
	return &source.Batch{Record: rec, Split: source.Split{Path: fmt.Sprintf("s%d", r.i)}}, nil
}

func (r *fakeReader) Close() error { r.f.closed.Add(1); return nil }

func splitsOf(n int) []source.Split {
	out := make([]source.Split, n)
	for i := range out {
		out[i] = source.Split{Path: fmt.Sprintf("s%d", i)}
	}
	return out
}

// TestReadInOrderIsTheSerialOrder: fn sees every batch, split after split, batch after batch; the
// readers run at most n at a time, at most depth batches ahead each (n*(depth+1) decoded and not
// consumed, also when later splits finish before earlier ones); every reader is closed and every
// record released.
func TestReadInOrderIsTheSerialOrder(t *testing.T) {
	const n, depth = 3, 2
	f := &fakeSplits{mem: memory.NewCheckedAllocator(memory.NewGoAllocator()), batches: []int{5, 0, 7, 1, 9, 3, 4, 6}}
	var got, want []int64
	for i, nb := range f.batches {
		for j := range nb {
			want = append(want, int64(i*1000+j))
		}
	}
	var consumed int32
	err := ReadInOrder(context.Background(), n, depth, splitsOf(len(f.batches)), f.openSplit, func(b *source.Batch) error {
		consumed++
		if ahead := f.produced.Load() - consumed; ahead > n*(depth+1) {
			t.Errorf("%d batches decoded ahead of fn, bound %d", ahead, n*(depth+1))
		}
		if open := f.open.Load() - f.closed.Load(); open > n {
			t.Errorf("%d readers open, bound %d", open, n)
		}
		got = append(got, b.Record.Column(0).(*array.Int64).Value(0))
		b.Record.Release()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("batches %v, want %v", got, want)
	}
	if f.closed.Load() != int32(len(f.batches)) {
		t.Errorf("closed %d of %d readers", f.closed.Load(), len(f.batches))
	}
	f.mem.AssertSize(t, 0)
}

// TestReadInOrderErrors: a reader's error is the serial loop's (every batch before it reaches fn,
// nothing after it), wrapped as InputError; an error of fn is returned as is and stops reading. In both
// cases every opened reader is closed and the batches read ahead are released before the return.
func TestReadInOrderErrors(t *testing.T) {
	bad := errors.New("row 3 is bad")
	t.Run("reader", func(t *testing.T) {
		f := &fakeSplits{mem: memory.NewCheckedAllocator(memory.NewGoAllocator()), batches: []int{4, 4, 4, 4, 4}, failAt: [2]int{2, 1}, failErr: bad}
		var got []int64
		err := ReadInOrder(context.Background(), 2, 2, splitsOf(5), f.openSplit, func(b *source.Batch) error {
			got = append(got, b.Record.Column(0).(*array.Int64).Value(0))
			b.Record.Release()
			return nil
		})
		var ie *source.InputError
		if !errors.As(err, &ie) || !errors.Is(err, bad) {
			t.Fatalf("error %v, want InputError wrapping %v", err, bad)
		}
		if fmt.Sprint(got) != "[0 1 2 3 1000 1001 1002 1003 2000]" {
			t.Errorf("fn got %v", got)
		}
		if f.open.Load() != f.closed.Load() {
			t.Errorf("opened %d readers, closed %d", f.open.Load(), f.closed.Load())
		}
		f.mem.AssertSize(t, 0)
	})
	t.Run("fn", func(t *testing.T) {
		f := &fakeSplits{mem: memory.NewCheckedAllocator(memory.NewGoAllocator()), batches: []int{6, 6, 6, 6}}
		calls := 0
		err := ReadInOrder(context.Background(), 2, 3, splitsOf(4), f.openSplit, func(b *source.Batch) error {
			b.Record.Release()
			if calls++; calls == 8 {
				return bad
			}
			return nil
		})
		if err != bad {
			t.Fatalf("error %v, want %v", err, bad)
		}
		if calls != 8 || f.open.Load() != f.closed.Load() {
			t.Errorf("fn called %d times (want 8), opened %d readers, closed %d", calls, f.open.Load(), f.closed.Load())
		}
		f.mem.AssertSize(t, 0)
	})
	t.Run("canceled", func(t *testing.T) {
		f := &fakeSplits{mem: memory.NewCheckedAllocator(memory.NewGoAllocator()), batches: []int{6, 6, 6}}
		ctx, cancel := context.WithCancel(context.Background())
		err := ReadInOrder(ctx, 1, 1, splitsOf(3), f.openSplit, func(b *source.Batch) error {
			b.Record.Release()
			cancel()
			return nil
		})
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "canceled") {
			t.Fatalf("error %v, want context.Canceled", err)
		}
		if f.open.Load() != f.closed.Load() {
			t.Errorf("opened %d readers, closed %d", f.open.Load(), f.closed.Load())
		}
		f.mem.AssertSize(t, 0)
	})
}

// TestReadInOrderBoundsFinishedSplits: splits that finish while fn is still at an earlier one keep
// their slot until fn has consumed them, so quick later splits cannot pile up read-ahead batches.
func TestReadInOrderBoundsFinishedSplits(t *testing.T) {
	const n, depth, splits = 2, 1, 40
	for range 20 {
		f := &fakeSplits{mem: memory.NewCheckedAllocator(memory.NewGoAllocator()), batches: make([]int, splits)}
		for i := range f.batches {
			f.batches[i] = 1
		}
		f.batches[0] = 3
		var consumed int32
		err := ReadInOrder(context.Background(), n, depth, splitsOf(splits), f.openSplit, func(b *source.Batch) error {
			b.Record.Release()
			if consumed == 0 {
				for f.produced.Load() < 2 { // split 1 has decoded its batch and finishes
					runtime.Gosched()
				}
				for range 100 {
					runtime.Gosched()
				}
			}
			consumed++
			if opened := f.open.Load(); opened > int32(n)+consumed {
				t.Fatalf("%d splits opened after %d batches consumed, bound %d", opened, consumed, int32(n)+consumed)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		f.mem.AssertSize(t, 0)
	}
}
