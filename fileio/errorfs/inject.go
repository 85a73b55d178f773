package errorfs

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path"
	"sync"
)

// ErrInjected is wrapped by every error errorfs injects.
var ErrInjected = errors.New("errorfs: injected fault")

// Mode says how an injected fault behaves.
type Mode int

const (
	// ModeError fails the operation without performing it.
	ModeError Mode = iota
	// ModeTorn lets the first half of the bytes land under the final name, then fails
	// (Writer.Close and WriteIfAbsent; ModeError elsewhere).
	ModeTorn
	// ModeLanded performs a mutation (Writer.Close, WriteIfAbsent, Delete, DeleteAll) whole, then
	// reports it failed — a reply lost after the store applied the request; ModeError elsewhere.
	ModeLanded
)

// String names the mode.
func (m Mode) String() string {
	switch m {
	case ModeTorn:
		return "torn"
	case ModeLanded:
		return "landed"
	}
	return "error"
}

// Injector decides which operations fail.
type Injector interface {
	// Inject reports whether op fails.
	Inject(op Op) bool
}

// InjectorFunc adapts a function to Injector.
type InjectorFunc func(op Op) bool

// Inject calls f.
func (f InjectorFunc) Inject(op Op) bool { return f(op) }

// Never injects nothing (a counting-only wrapper).
var Never Injector = InjectorFunc(func(Op) bool { return false })

// OnIndex fails the k-th operation (1-based).
func OnIndex(k int64) Injector { return InjectorFunc(func(op Op) bool { return op.Index == k }) }

// OpKinds fails operations of the given kinds.
func OpKinds(kinds ...OpKind) Injector {
	set := map[OpKind]bool{}
	for _, k := range kinds {
		set[k] = true
	}
	return InjectorFunc(func(op Op) bool { return set[op.Kind] })
}

// PathMatch fails operations whose path matches the glob (path.Match syntax, matched against the
// whole path and against its last element). A malformed glob panics at construction.
func PathMatch(glob string) Injector {
	if _, err := path.Match(glob, ""); err != nil {
		panic(fmt.Sprintf("errorfs: bad glob %q: %v", glob, err))
	}
	return InjectorFunc(func(op Op) bool {
		if ok, _ := path.Match(glob, op.Path); ok {
			return true
		}
		ok, _ := path.Match(glob, path.Base(op.Path))
		return ok
	})
}

// Randomly fails each operation with probability p, deterministically for a given seed and call order.
func Randomly(seed uint64, p float64) Injector {
	var mu sync.Mutex
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	return InjectorFunc(func(Op) bool {
		mu.Lock()
		defer mu.Unlock()
		return r.Float64() < p
	})
}

// And fails an operation when every injector does (all are consulted, in order).
func And(in ...Injector) Injector {
	return InjectorFunc(func(op Op) bool {
		all := true
		for _, i := range in {
			if !i.Inject(op) {
				all = false
			}
		}
		return all
	})
}

// Or fails an operation when any injector does (all are consulted, in order).
func Or(in ...Injector) Injector {
	return InjectorFunc(func(op Op) bool {
		any := false
		for _, i := range in {
			if i.Inject(op) {
				any = true
			}
		}
		return any
	})
}

// Not inverts an injector.
func Not(in Injector) Injector { return InjectorFunc(func(op Op) bool { return !in.Inject(op) }) }

// Once lets in fail at most one operation.
func Once(in Injector) Injector {
	var mu sync.Mutex
	fired := false
	return InjectorFunc(func(op Op) bool {
		mu.Lock()
		defer mu.Unlock()
		if fired || !in.Inject(op) {
			return false
		}
		fired = true
		return true
	})
}

// InjectedError is the error of one injected fault.
type InjectedError struct {
	Op   Op
	Mode Mode
}

// Error names the operation, its index, its path and the mode.
func (e *InjectedError) Error() string {
	return fmt.Sprintf("errorfs: injected %s fault at %s %s (op #%d)", e.Mode, e.Op.Kind, e.Op.Path, e.Op.Index)
}

// Unwrap returns ErrInjected.
func (e *InjectedError) Unwrap() error { return ErrInjected }
