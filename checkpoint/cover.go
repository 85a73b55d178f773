package checkpoint

import "slices"

// CoverStatus classifies how an attempt's results cover its window's splits.
type CoverStatus int

// Cover statuses. Only CoverExact may be committed.
const (
	CoverNone      CoverStatus = iota // no result stored
	CoverPartial                      // some split not covered (tasks still running, or died)
	CoverExact                        // every split exactly once, nothing else
	CoverDuplicate                    // some split (or row id) covered twice: never committable
	CoverForeign                      // a split outside the window: never committable
)

var coverNames = [...]string{"none", "partial", "exact", "duplicate", "foreign"}

// String names the status.
func (c CoverStatus) String() string {
	if int(c) < len(coverNames) {
		return coverNames[c]
	}
	return "unknown"
}

// Cover is the result of the exact-cover check of one attempt.
type Cover struct {
	Status    CoverStatus
	Missing   []int // window splits no result covers
	Duplicate []int // splits covered by two results
	Foreign   []int // covered splits outside the window
	DupIDs    []string
}

// CheckCover checks that results cover the window's splits exactly once: no split missing, none
// twice, none outside the window, and (row-id mode) no id written twice. Duplicate and foreign
// coverage win over missing: such an attempt can never become committable.
func CheckCover(window []int, results []TaskResult) Cover {
	var c Cover
	if len(results) == 0 {
		c.Missing = slices.Clone(window)
		if len(window) == 0 {
			c.Status = CoverExact // an empty window is covered by nothing
		}
		return c
	}
	seen := map[int]int{}
	for _, r := range results {
		for _, x := range r.Splits {
			seen[x]++
		}
	}
	in := map[int]bool{}
	for _, x := range window {
		in[x] = true
		switch n := seen[x]; {
		case n == 0:
			c.Missing = append(c.Missing, x)
		case n > 1:
			c.Duplicate = append(c.Duplicate, x)
		}
	}
	for x := range seen {
		if !in[x] {
			c.Foreign = append(c.Foreign, x)
		}
	}
	slices.Sort(c.Foreign)
	ids := map[string]bool{}
	for _, r := range results {
		for _, id := range r.IDs {
			if ids[id] {
				c.DupIDs = append(c.DupIDs, id)
			}
			ids[id] = true
		}
	}
	switch {
	case len(c.Foreign) > 0:
		c.Status = CoverForeign
	case len(c.Duplicate) > 0 || len(c.DupIDs) > 0:
		c.Status = CoverDuplicate
	case len(c.Missing) > 0:
		c.Status = CoverPartial
	default:
		c.Status = CoverExact
	}
	return c
}
