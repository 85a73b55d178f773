package killsoak

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The pause soak's own checks, checked, so that a pause soak that passes means what it says.

func TestSnapHistoryFindsReusedIDsAndRollback(t *testing.T) {
	h := newSnapHistory()
	s := func(id int64, user string, w int64, ms int64) snapRec {
		return snapRec{ID: id, User: user, Identifier: w, Kind: "APPEND", TimeMillis: ms}
	}
	if p := h.add("first", []snapRec{s(1, "u", 1, 10), s(2, "u", 2, 20), s(3, "w", 9, 30)}); len(p) != 0 {
		t.Fatalf("a first listing: %v", p)
	}
	if p := h.add("expire", []snapRec{s(3, "w", 9, 30)}); len(p) != 0 { // expiry removes old snapshots: fine
		t.Fatalf("expiry reported: %v", p)
	}
	p := h.add("wake-up", []snapRec{s(3, "w", 9, 30), s(4, "u", 3, 40)})
	if len(p) != 0 {
		t.Fatalf("a new snapshot reported: %v", p)
	}
	// A woken runner re-creates snapshot 2 (expired) with its own commit and writes LATEST = 2.
	p = h.add("zombie", []snapRec{s(2, "u", 3, 50)})
	if len(p) != 2 || !strings.Contains(p[0], "snapshot 2 is now") || !strings.Contains(p[1], "moved back") {
		t.Errorf("reused id and rollback: %v", p)
	}
	// The same id with another time (a rewrite of the same commit) is a reuse too.
	if p := h.add("rewrite", []snapRec{s(4, "u", 3, 41)}); len(p) != 1 || !strings.Contains(p[0], "snapshot 4 is now") {
		t.Errorf("rewritten snapshot: %v", p)
	}
}

func TestSnapHistoryWindowProblems(t *testing.T) {
	h := newSnapHistory()
	list := []snapRec{
		{ID: 1, User: "job", Identifier: 1, Kind: "APPEND"},
		{ID: 2, User: "other", Identifier: 1, Kind: "APPEND"},
		{ID: 3, User: "job", Identifier: 2, Kind: "APPEND"},
		{ID: 4, User: "compact", Identifier: 7, Kind: "COMPACT"},
		{ID: 5, User: "job", Identifier: 2, Kind: "APPEND"}, // window 2 twice
		{ID: 6, User: "job", Identifier: 5, Kind: "APPEND"}, // beyond the job's windows
	}
	h.add("all", list)
	p := h.windowProblems("job", 3)
	want := []string{"identifier 5, outside", "window 2 has 2", "window 3 has 0"}
	if len(p) != len(want) {
		t.Fatalf("problems %q, want %d", p, len(want))
	}
	for i, w := range want {
		if !strings.Contains(p[i], w) {
			t.Errorf("problem %d: %q, want it to say %q", i, p[i], w)
		}
	}
	if p := h.windowProblems("other", 1); len(p) != 0 {
		t.Errorf("a clean user: %v", p)
	}
	if u := h.usersOf(); u["job"] != 4 || u["other"] != 1 || u["compact"] != 0 {
		t.Errorf("users %v", u)
	}
}

func TestPinProblem(t *testing.T) {
	dir := t.TempDir()
	if p := pinProblem(dir, "j", true, 5); p != "" {
		t.Errorf("no pin, finished job: %q", p)
	}
	if err := os.MkdirAll(filepath.Join(dir, "consumer"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeCSV(t, filepath.Join(dir, "consumer", "consumer-lakeload-j"), `{"nextSnapshot":7}`)
	for _, c := range []struct {
		finished bool
		earliest int64
		want     string
	}{
		{false, 5, ""}, {false, 7, ""}, {false, 8, "below the earliest snapshot 8"}, {true, 5, "finished but its consumer pin"},
	} {
		if p := pinProblem(dir, "j", c.finished, c.earliest); (c.want == "") != (p == "") || !strings.Contains(p, c.want) {
			t.Errorf("pin 7, finished %v, earliest %d: %q, want %q", c.finished, c.earliest, p, c.want)
		}
	}
	writeCSV(t, filepath.Join(dir, "consumer", "consumer-lakeload-j"), `{}`)
	if p := pinProblem(dir, "j", false, 1); p == "" {
		t.Error("a consumer file without nextSnapshot passed")
	}
}

// TestForeignRowsAreOrderFree checks the other writer's rows keep the model independent of where
// they land among the job's commits: appended and deduplicated rows have keys the input never has
// and a deduplicate write names a key at most once; sums (any order) are inserts only.
func TestForeignRowsAreOrderFree(t *testing.T) {
	for _, ts := range soakTables(mode{keys: 100}) {
		p := &pauseTable{ts: ts, pm: pauseMode{keys: 100}, rng: rand.New(rand.NewPCG(1, 2))}
		for range 20 {
			seen := map[int64]bool{}
			for _, r := range p.foreignRows(50) {
				switch ts.merge {
				case mergeAppend:
					if id := r.vals[0].(int64); id < foreignBase {
						t.Fatalf("%s: foreign id %d inside the input's range", ts.name, id)
					}
				case mergeDedup:
					id := r.vals[1].(int64)
					if id < foreignBase || seen[id] {
						t.Fatalf("%s: foreign key %d (below the base, or twice in one write)", ts.name, id)
					}
					seen[id] = true
				case mergeSum:
					if r.op != "" {
						t.Fatalf("%s: foreign row kind %q", ts.name, r.op)
					}
				}
			}
		}
	}
}
