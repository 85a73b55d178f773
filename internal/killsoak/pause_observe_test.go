package killsoak

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// What the pause soak observes after every step, from outside lakeload's job: the table's snapshots
// (`lakeload snapshots --output jsonl`), the jobs' consumer pins (the table's consumer files) and the
// jobs' status (`lakeload status --output json`).

// snapRec is what identifies a snapshot: a snapshot id must never change what it names.
type snapRec struct {
	ID         int64  `json:"id"`
	User       string `json:"commitUser"`
	Identifier int64  `json:"commitIdentifier"`
	Kind       string `json:"commitKind"`
	TimeMillis int64  `json:"timeMillis"`
}

func (s snapRec) String() string {
	return fmt.Sprintf("%s %s/%d at %d", s.Kind, s.User, s.Identifier, s.TimeMillis)
}

// parseSnapshots reads `lakeload snapshots --output jsonl`.
func parseSnapshots(out string) ([]snapRec, error) {
	var list []snapRec
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var s snapRec
		if err := dec.Decode(&s); err != nil {
			return nil, fmt.Errorf("snapshots --output jsonl: %w", err)
		}
		list = append(list, s)
	}
	return list, nil
}

// snapHistory is every snapshot the harness ever saw, by id. Nothing but the harness's own `expire`
// calls removes snapshots, and the harness observes right before each of them, so every snapshot
// any runner created is in it.
type snapHistory struct {
	byID  map[int64]snapRec
	maxID int64 // the highest id ever listed: the latest snapshot never moves back below it
	steps int   // observations
}

func newSnapHistory() *snapHistory { return &snapHistory{byID: map[int64]snapRec{}} }

// add records one listing (taken after step) and returns what it contradicts: an id that now names
// another snapshot (a snapshot id reused) or a latest snapshot below one listed before (the table
// rolled back).
func (h *snapHistory) add(step string, list []snapRec) []string {
	h.steps++
	var problems []string
	var latest int64
	for _, s := range list {
		latest = max(latest, s.ID)
		if old, ok := h.byID[s.ID]; ok && old != s {
			problems = append(problems, fmt.Sprintf("after %s: snapshot %d is now %v, it was %v (snapshot id reused)", step, s.ID, s, old))
			continue
		}
		h.byID[s.ID] = s
	}
	if len(list) > 0 && latest < h.maxID {
		problems = append(problems, fmt.Sprintf("after %s: the latest snapshot is %d, %d was listed before (the table moved back)", step, latest, h.maxID))
	}
	h.maxID = max(h.maxID, latest)
	return problems
}

// appends returns, per identifier, how many APPEND snapshots user committed over the history.
func (h *snapHistory) appends(user string) map[int64]int {
	per := map[int64]int{}
	for _, s := range h.byID {
		if s.User == user && s.Kind == "APPEND" {
			per[s.Identifier]++
		}
	}
	return per
}

// windowProblems checks that user committed windows 1..windows as exactly one APPEND snapshot each.
func (h *snapHistory) windowProblems(user string, windows int64) []string {
	per := h.appends(user)
	var problems []string
	for w := int64(1); w <= windows; w++ {
		if n := per[w]; n != 1 {
			problems = append(problems, fmt.Sprintf("user %s window %d has %d APPEND snapshots, want 1", user, w, n))
		}
	}
	for w, n := range per {
		if w < 1 || w > windows {
			problems = append(problems, fmt.Sprintf("user %s has %d APPEND snapshots with identifier %d, outside its windows 1..%d", user, n, w, windows))
		}
	}
	slices.Sort(problems)
	return problems
}

// usersOf returns the commit users with APPEND snapshots, and how many each has.
func (h *snapHistory) usersOf() map[string]int {
	users := map[string]int{}
	for _, s := range h.byID {
		if s.Kind == "APPEND" {
			users[s.User]++
		}
	}
	return users
}

// earliest is the lowest id of a listing (0 when empty).
func earliest(list []snapRec) int64 {
	var e int64
	for _, s := range list {
		if e == 0 || s.ID < e {
			e = s.ID
		}
	}
	return e
}

// consumerPin reads job's consumer file in the table at path: its nextSnapshot, ok=false when absent.
func consumerPin(path, job string) (next int64, ok bool, err error) {
	b, err := os.ReadFile(filepath.Join(path, "consumer", "consumer-lakeload-"+job))
	if os.IsNotExist(err) {
		return 0, false, nil
	} else if err != nil {
		return 0, false, err
	}
	var c struct {
		NextSnapshot *int64 `json:"nextSnapshot"`
	}
	if err := json.NewDecoder(bytes.NewReader(b)).Decode(&c); err != nil || c.NextSnapshot == nil {
		return 0, true, fmt.Errorf("consumer file of job %s: %q is not {\"nextSnapshot\": N} (%v)", job, b, err)
	}
	return *c.NextSnapshot, true, nil
}

// pinProblem checks job's pin against the table's earliest snapshot: a finished job has none, and a
// running job's is never below the earliest snapshot (there it protects nothing and holds expiry
// back for good).
func pinProblem(path, job string, finished bool, earliest int64) string {
	next, ok, err := consumerPin(path, job)
	switch {
	case err != nil:
		return err.Error()
	case ok && finished:
		return fmt.Sprintf("job %s is finished but its consumer pin (nextSnapshot %d) exists", job, next)
	case ok && earliest > 0 && next < earliest:
		return fmt.Sprintf("job %s pins nextSnapshot %d, below the earliest snapshot %d (a stale pin)", job, next, earliest)
	}
	return ""
}

// jobStatus is what the pause soak reads of `lakeload status --output json`.
type jobStatus struct {
	Done          bool   `json:"done"`
	CommitUser    string `json:"commitUser"`
	SplitsTotal   int    `json:"splitsTotal"`
	SplitsDone    int    `json:"splitsDone"`
	RowsPublished int64  `json:"rowsPublished"`
	Windows       []struct {
		Window int64  `json:"window"`
		State  string `json:"state"`
	} `json:"windows"`
	Lease *struct {
		PID      int  `json:"pid"`
		Released bool `json:"released"`
	} `json:"lease"`
}

// holder is the pid of the lease's current holder (0 when there is no lease or it is released).
func (s jobStatus) holder() int {
	if s.Lease == nil || s.Lease.Released {
		return 0
	}
	return s.Lease.PID
}
