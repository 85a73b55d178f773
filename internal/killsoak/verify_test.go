package killsoak

import (
	"fmt"
	"sort"
)

// diff compares a table read by an oracle with the expected rows, as multisets of canonical lines.
type diff struct {
	lost    int      // expected lines missing from the table
	dup     int      // extra copies of expected lines
	wrong   int      // lines that are not expected at all
	samples []string // a few offending lines
}

func (d diff) ok() bool { return d.lost == 0 && d.dup == 0 && d.wrong == 0 }

func (d diff) String() string {
	return fmt.Sprintf("lost=%d dup=%d wrong=%d", d.lost, d.dup, d.wrong)
}

// compareLines matches got against want line by line, counting multiplicities.
func compareLines(want, got []string) diff {
	left := make(map[string]int, len(want))
	for _, l := range want {
		left[l]++
	}
	var d diff
	sample := func(kind, l string) {
		if len(d.samples) < 6 {
			d.samples = append(d.samples, kind+" "+l)
		}
	}
	for _, l := range got {
		n, known := left[l]
		switch {
		case n > 0:
			left[l] = n - 1
		case known:
			d.dup++
			sample("dup", l)
		default:
			d.wrong++
			sample("wrong", l)
		}
	}
	var lost []string
	for l, n := range left {
		d.lost += n
		if n > 0 {
			lost = append(lost, l)
		}
	}
	sort.Strings(lost)
	for _, l := range lost {
		sample("lost", l)
	}
	return d
}

// snapshotReport summarises a table's snapshots as the oracle lists them.
type snapshotReport struct {
	total    int            // all snapshots
	appends  int            // APPEND snapshots
	users    map[string]int // APPEND snapshots per commit user
	windows  int            // distinct (user, identifier) pairs of APPEND snapshots
	minPer   int            // fewest APPEND snapshots of one (user, identifier)
	maxPer   int            // most
	problems []string       // a double commit, a gap in the identifiers, a malformed entry
}

// checkSnapshots checks that every (commit user, identifier) has exactly one APPEND snapshot and
// that each user's identifiers are 1..W without gaps (windows are numbered from 1, none empty here).
func checkSnapshots(snaps []map[string]any) snapshotReport {
	r := snapshotReport{total: len(snaps), users: map[string]int{}}
	type key struct {
		user string
		id   int64
	}
	per := map[key]int{}
	for _, s := range snaps {
		if s["commitKind"] != "APPEND" {
			continue
		}
		user, ok1 := s["commitUser"].(string)
		id, ok2 := s["commitIdentifier"].(int64)
		if !ok1 || !ok2 {
			r.problems = append(r.problems, fmt.Sprintf("snapshot %v: commitUser %v / commitIdentifier %v malformed", s["id"], s["commitUser"], s["commitIdentifier"]))
			continue
		}
		r.appends++
		r.users[user]++
		per[key{user, id}]++
	}
	r.windows = len(per)
	maxID := map[string]int64{}
	for k, n := range per {
		if r.minPer == 0 || n < r.minPer {
			r.minPer = n
		}
		r.maxPer = max(r.maxPer, n)
		if n != 1 {
			r.problems = append(r.problems, fmt.Sprintf("user %s window %d has %d APPEND snapshots", k.user, k.id, n))
		}
		maxID[k.user] = max(maxID[k.user], k.id)
	}
	for user, m := range maxID {
		for id := int64(1); id <= m; id++ {
			if per[key{user, id}] == 0 {
				r.problems = append(r.problems, fmt.Sprintf("user %s has no snapshot for window %d (of 1..%d)", user, id, m))
			}
		}
	}
	sort.Strings(r.problems)
	return r
}
