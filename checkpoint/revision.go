package checkpoint

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/lakeload/lakeload/fileio"
)

// PlanRevision re-plans input files that were replaced (or vanished) before any of their splits was
// assigned (plan-rev/<n>, write-once, n = 1, 2, … without gaps). Split indexes stay stable: the
// added splits get the indexes Base, Base+1, …; dropped indexes are never assigned.
//
// Input order: an added split takes the place of the dropped split At[k] in the input order (the
// first split of the replaced file), so a replaced file is still loaded where it was planned; added
// splits sharing a place keep their order in Added. At[k] = -1 appends at the end of the order.
type PlanRevision struct {
	Revision int       `json:"revision"`        // n ≥ 1, as in the record's name
	Base     int       `json:"base"`            // splits in the plan before this revision
	Dropped  []int     `json:"dropped"`         // indexes never to be assigned, strictly ascending
	Added    []Opaque  `json:"added,omitempty"` // new splits, indexes Base+k
	At       []int     `json:"at,omitempty"`    // per added split: the dropped index whose place it takes, or -1
	Reason   string    `json:"reason,omitempty"`
	Created  time.Time `json:"created"`
}

func (r *PlanRevision) validate() error {
	if r.Revision < 1 || r.Base < 0 {
		return fmt.Errorf("revision %d base %d out of range", r.Revision, r.Base)
	}
	if err := ascending(r.Dropped); err != nil {
		return err
	}
	if len(r.Dropped) > 0 && r.Dropped[len(r.Dropped)-1] >= r.Base {
		return fmt.Errorf("dropped split %d is not in the plan of %d splits", r.Dropped[len(r.Dropped)-1], r.Base)
	}
	if len(r.At) != len(r.Added) {
		return fmt.Errorf("%d places for %d added splits", len(r.At), len(r.Added))
	}
	for _, a := range r.At {
		if a < -1 || a >= r.Base {
			return fmt.Errorf("place %d outside the plan of %d splits", a, r.Base)
		}
	}
	return nil
}

// RevisionPath returns the path of plan revision n.
func (s *Store) RevisionPath(n int) string {
	return fileio.Join(s.root, revisionDir, strconv.Itoa(n))
}

// WriteRevision creates plan-rev/<n>. ErrExist means another driver revised the plan first.
func (s *Store) WriteRevision(ctx context.Context, r PlanRevision) error {
	return s.write(ctx, s.RevisionPath(r.Revision), kindRevision, r, r.validate)
}

func (s *Store) readRevisions(ctx context.Context, rs *Records) error {
	dir := fileio.Join(s.root, revisionDir)
	return s.readNumbered(ctx, dir, false, 1, 1<<30, "a plan revision", func(n int64, e fileio.FileInfo) error {
		return readInto(ctx, s, e, kindRevision, &rs.Revisions, func(r PlanRevision) bool { return r.Revision == int(n) })
	})
}

// applyRevisions checks the revisions against the plan and sets st's plan (the original splits plus
// every added one), dropped set and input order. checkSplitOwners refuses a dropped split in a live window.
func applyRevisions(st *State, revs []PlanRevision) error {
	revs = slices.Clone(revs)
	slices.SortFunc(revs, func(a, b PlanRevision) int { return a.Revision - b.Revision })
	merged := PlanRecord{Splits: slices.Clone(st.plan.Splits)}
	order := make([]int, len(merged.Splits))
	for i := range order {
		order[i] = i
	}
	dropped := make([]bool, len(merged.Splits))
	for i, r := range revs {
		where := fmt.Sprintf("plan revision %d", r.Revision)
		if r.Revision != i+1 {
			return corruptf(revisionDir, "plan revisions must be numbered 1..n without gaps: found %d at position %d", r.Revision, i+1)
		}
		if err := r.validate(); err != nil {
			return corruptf(where, "%v", err)
		}
		if r.Base != len(merged.Splits) {
			return corruptf(where, "base %d, but the plan has %d splits before it", r.Base, len(merged.Splits))
		}
		for _, x := range r.Dropped {
			if dropped[x] {
				return corruptf(where, "split %d dropped twice", x)
			}
			dropped[x] = true
		}
		before := map[int][]int{}
		var tail []int
		for k, a := range r.At {
			switch {
			case a == -1:
				tail = append(tail, r.Base+k)
			case !dropped[a]:
				return corruptf(where, "added split %d takes the place of split %d, which is not dropped", r.Base+k, a)
			default:
				before[a] = append(before[a], r.Base+k)
			}
		}
		next := make([]int, 0, len(order)+len(r.Added))
		for _, x := range order {
			next = append(next, before[x]...)
			next = append(next, x)
		}
		order = append(next, tail...)
		merged.Splits = append(merged.Splits, r.Added...)
		dropped = append(dropped, make([]bool, len(r.Added))...)
	}
	st.plan, st.dropped, st.order, st.revisions = &merged, dropped, order, revs
	return nil
}

// Revisions returns the plan revisions, ascending.
func (s State) Revisions() []PlanRevision { return slices.Clone(s.revisions) }

// Dropped returns the split indexes that plan revisions dropped, ascending.
func (s State) Dropped() []int {
	var out []int
	for i, d := range s.dropped {
		if d {
			out = append(out, i)
		}
	}
	return out
}

// InInputOrder returns a copy of the split indexes idx sorted by input order (see PlanRevision).
// Without revisions input order is index order.
func (s State) InInputOrder(idx []int) []int {
	out := slices.Clone(idx)
	if len(s.revisions) == 0 {
		slices.Sort(out)
		return out
	}
	rank := make(map[int]int, len(s.order))
	for r, x := range s.order {
		rank[x] = r
	}
	slices.SortFunc(out, func(a, b int) int { return rank[a] - rank[b] })
	return out
}
