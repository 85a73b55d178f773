package killsoak

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/job"
)

// The harness's own parts are checked here, so that a soak that passes means what it says.

func TestExpectedDedupAppliesRowsInOrder(t *testing.T) {
	ts := usersTable()
	fields, err := ts.fields()
	if err != nil {
		t.Fatal(err)
	}
	e := newExpected(ts, fields)
	row := func(op string, id int64, name any) genRow {
		return genRow{op: op, vals: []any{"2024-01-01", id, name, int32(1), 0.5}}
	}
	err = e.apply([]genRow{
		row("+I", 1, "a"), row("+I", 2, "b"), row("+I", 3, "c"), row("+I", 4, "d"),
		row("-U", 1, "a"), row("+U", 1, "a2"), // update: the +U wins
		row("-D", 2, "b"),                     // delete
		row("-D", 3, "c"), row("+I", 3, "c2"), // delete, then re-insert
		row("+U", 5, nil), // blind upsert of a new key
		row("-U", 4, "d"), // a retraction as the last row removes the key
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.canonicalLines()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"dt":"2024-01-01","id":1,"name":"a2","score":1,"v":0.5}`,
		`{"dt":"2024-01-01","id":3,"name":"c2","score":1,"v":0.5}`,
		`{"dt":"2024-01-01","id":5,"name":null,"score":1,"v":0.5}`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("dedup model:\n got %q\nwant %q", got, want)
	}
}

func TestExpectedSumIgnoresNulls(t *testing.T) {
	ts := totalsTable(10)
	fields, err := ts.fields()
	if err != nil {
		t.Fatal(err)
	}
	e := newExpected(ts, fields)
	err = e.apply([]genRow{
		{vals: []any{int64(1), int64(1), int64(5), 0.25}},
		{vals: []any{int64(2), int64(1), int64(-3), nil}},
		{vals: []any{int64(1), int64(1), int64(-7), nil}},
		{vals: []any{int64(1), int64(1), int64(1), 1.5}},
		{vals: []any{int64(2), int64(1), int64(3), nil}},
	})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := e.canonicalLines()
	want := []string{
		`{"amount":1.75,"cnt":3,"k":1,"total":-1}`,
		`{"amount":null,"cnt":2,"k":2,"total":0}`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sum model:\n got %q\nwant %q", got, want)
	}
	if err := e.apply([]genRow{{op: "-D", vals: []any{int64(1), int64(1), int64(1), 1.0}}}); err == nil {
		t.Error("sum model accepted a delete it does not model")
	}
}

func TestExpectedAppendKeepsEveryRow(t *testing.T) {
	ts := eventsTable()
	fields, _ := ts.fields()
	e := newExpected(ts, fields)
	r := genRow{vals: []any{int64(7), int32(0), "x", nil}}
	if err := e.apply([]genRow{r, r}); err != nil {
		t.Fatal(err)
	}
	got, _ := e.canonicalLines()
	if len(got) != 2 || got[0] != got[1] || got[0] != `{"amount":null,"file":0,"id":7,"payload":"x"}` {
		t.Errorf("append model: %q", got)
	}
}

func TestCompareLinesCountsLostDupAndWrong(t *testing.T) {
	want := []string{"a", "b", "b", "c"}
	for _, c := range []struct {
		got              []string
		lost, dup, wrong int
	}{
		{[]string{"a", "b", "b", "c"}, 0, 0, 0},
		{[]string{"a", "b", "c"}, 1, 0, 0},                     // one copy of b lost
		{[]string{"a", "a", "b", "b", "c"}, 0, 1, 0},           // a window applied twice
		{[]string{"a", "b", "b", "z"}, 1, 0, 1},                // c replaced by a wrong row
		{nil, 4, 0, 0},                                         // nothing loaded
		{[]string{"a", "b", "b", "c", "c", "c", "x"}, 0, 2, 1}, // several at once
	} {
		d := compareLines(want, c.got)
		if d.lost != c.lost || d.dup != c.dup || d.wrong != c.wrong {
			t.Errorf("compare %q: %v, want lost=%d dup=%d wrong=%d", c.got, d, c.lost, c.dup, c.wrong)
		}
		if d.ok() != (c.lost+c.dup+c.wrong == 0) {
			t.Errorf("compare %q: ok() = %v", c.got, d.ok())
		}
	}
}

func TestCheckSnapshotsFindsDoubleCommitsAndGaps(t *testing.T) {
	snap := func(id int64, user string, w int64, kind string) map[string]any {
		return map[string]any{"id": id, "commitUser": user, "commitIdentifier": w, "commitKind": kind}
	}
	good := []map[string]any{snap(1, "u", 1, "APPEND"), snap(2, "u", 2, "APPEND"), snap(3, "c", 9, "COMPACT"), snap(4, "u", 3, "APPEND")}
	r := checkSnapshots(good)
	if len(r.problems) != 0 || r.windows != 3 || r.appends != 3 || r.total != 4 || r.minPer != 1 || r.maxPer != 1 {
		t.Errorf("good history: %+v", r)
	}
	double := append(good, snap(5, "u", 2, "APPEND"))
	if r := checkSnapshots(double); r.maxPer != 2 || len(r.problems) != 1 || !strings.Contains(r.problems[0], "window 2 has 2") {
		t.Errorf("double commit not reported: %+v", r)
	}
	gap := []map[string]any{snap(1, "u", 1, "APPEND"), snap(2, "u", 3, "APPEND")}
	if r := checkSnapshots(gap); len(r.problems) != 1 || !strings.Contains(r.problems[0], "no snapshot for window 2") {
		t.Errorf("gap not reported: %+v", r)
	}
	bad := []map[string]any{{"id": int64(1), "commitKind": "APPEND", "commitUser": "u", "commitIdentifier": "1"}}
	if r := checkSnapshots(bad); len(r.problems) != 1 {
		t.Errorf("malformed snapshot not reported: %+v", r)
	}
}

func TestSchedulerCyclesAndDefersUnreachablePoints(t *testing.T) {
	var s scheduler
	fresh := true // the job does not exist yet: planned is reachable, recovery-action is not
	reach := func(p string) bool {
		switch p {
		case job.PointPlanned:
			return fresh
		case job.PointRecoveryAction:
			return !fresh
		}
		return true
	}
	if p := s.next(reach); p != job.PointPlanned {
		t.Fatalf("first point %q, want planned", p)
	}
	fresh = false
	var got []string
	for range len(points) - 1 {
		got = append(got, s.next(reach))
	}
	if !reflect.DeepEqual(got, points[1:]) {
		t.Errorf("first cycle %q, want %q", got, points[1:])
	}
	// Second cycle on a job that exists: planned is deferred, the others come in order.
	if p := s.next(reach); p != job.PointAssigned {
		t.Errorf("second cycle starts with %q, want assigned", p)
	}
	// A new job (next table): the deferred planned comes first.
	fresh = true
	if p := s.next(reach); p != job.PointPlanned {
		t.Errorf("deferred planned not taken on a fresh job: %q", p)
	}
	if p := s.next(func(string) bool { return false }); p != "" {
		t.Errorf("nothing reachable gave %q", p)
	}
}

func TestKillsAreSpreadOverTheJob(t *testing.T) {
	var got []int64
	for i := range 12 {
		got = append(got, slotWindow(i, 12, 32))
	}
	if got[0] != 1 || got[11] != 32 || !slices.IsSorted(got) {
		t.Errorf("slot windows %v: want 1 … 32, ascending", got)
	}
	for _, c := range []struct {
		point                   string
		want, assigned, windows int64
		spec                    string
	}{
		{job.PointAssigned, 5, 2, 16, "assigned:5"},
		{job.PointInsideCommit, 5, 9, 16, "inside-commit:10"}, // a window not assigned yet
		{job.PointAfterPublish, 16, 3, 16, "after-publish:16"},
		{job.PointBeforeCommit, 16, 16, 16, "before-commit"}, // past the last window: first occurrence
		{job.PointPlanned, 5, 0, 16, "planned"},
		{job.PointRecoveryAction, 5, 4, 16, "recovery-action"},
	} {
		if s := pauseSpec(c.point, c.want, c.assigned, c.windows); s != c.spec {
			t.Errorf("pauseSpec(%s, want %d, assigned %d, windows %d) = %q, want %q", c.point, c.want, c.assigned, c.windows, s, c.spec)
		}
	}
}
