package job

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/job/plan"
	"github.com/lakeload/lakeload/job/seqreserve"
)

// concReservations is the reservation root the CLI would use for db.t in s's warehouse.
func concReservations(s concStorage) string {
	return fileio.Join(s.root, "wh", ".lakeload", "tables", concIdent.Database, concIdent.Table)
}

// concReservationRecords reads the table's reservations (through a reserver of its own).
func concReservationRecords(t *testing.T, s concStorage) []seqreserve.Reservation {
	t.Helper()
	r, err := seqreserve.Open(context.Background(), openConcTable(t, s), concReservations(s))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := r.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// assignedOf returns the assigned record of window w of the job of cfg.
func assignedOf(t *testing.T, cfg Config, w int64) checkpoint.Assigned {
	t.Helper()
	st, err := cfg.Store.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ws, ok := st.Window(w)
	if !ok {
		t.Fatalf("job %s has no window %d", cfg.Name, w)
	}
	return ws.Assigned
}

// seqRange is window w's sequence range as the job accounts it: [base, base + span of its splits).
func seqRange(t *testing.T, cfg Config, w int64) (base, end int64) {
	t.Helper()
	st, err := cfg.Store.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	pr := planOf(t, st)
	a := assignedOf(t, cfg, w)
	end = a.SequenceBase
	for _, i := range a.Splits {
		end += plan.Span(pr[i])
	}
	return a.SequenceBase, end
}

// reversed returns rows in reverse order.
func reversed(rows []concRow) []concRow {
	out := slices.Clone(rows)
	slices.Reverse(out)
	return out
}

// inFlightProblems runs job a and job b of one window each over the same keys of db.t such that
// both are in flight at once (both assigned before either commits) and a is assigned first: b
// plans only after a's window is assigned, and each holds after its assignment until the other is
// assigned too. Job b writes the keys in reverse order, so with overlapping ranges half of its
// rows get lower sequence numbers than a's rows of the same keys. It returns what contradicts
// "the later-assigned window wins": overlapping ranges, and each reader (lakeload, Java Paimon,
// pypaimon) whose rows differ from a's window applied before b's.
func inFlightProblems(t *testing.T, s concStorage, reserve bool) []string {
	t.Helper()
	createConcTable(t, s)
	fa := concFiles("p", "a", 1, 30)
	fb := [][]concRow{reversed(concFiles("p", "b", 1, 30)[0])}
	a, b := concJob(t, s, "job-a", writeConcInput(t, fa)), concJob(t, s, "job-b", writeConcInput(t, fb))
	if reserve {
		a.SeqReservations, b.SeqReservations = concReservations(s), concReservations(s)
	}
	aAssigned := make(chan struct{})
	both := newBarrier(2)
	a.Hook = func(p string, w int64) error {
		if p == PointAssigned {
			close(aAssigned)
			if !both.wait(hangGuard) {
				return fmt.Errorf("window %d: job b was not assigned", w)
			}
		}
		return nil
	}
	b.Hook = func(p string, w int64) error {
		switch p {
		case PointPlanned:
			select {
			case <-aAssigned:
			case <-time.After(hangGuard):
				return errors.New("job a was not assigned")
			}
		case PointAssigned:
			if !both.wait(hangGuard) {
				return fmt.Errorf("window %d: job a did not wait", w)
			}
		}
		return nil
	}
	runBoth(t, a, b)
	checkJobMarkers(t, a, 1)
	checkJobMarkers(t, b, 1)

	var problems []string
	baseA, endA := seqRange(t, a, 1)
	baseB, endB := seqRange(t, b, 1)
	if baseB < endA {
		problems = append(problems, fmt.Sprintf("overlap: job a's range [%d,%d), job b's (assigned later) [%d,%d)", baseA, endA, baseB, endB))
	}
	want := concModel(t, fa[0], fb[0])
	path := filepath.Join(s.localRoot, "wh", "db.db", "t")
	for _, r := range []struct {
		name string
		got  func() []string
	}{
		{"lakeload", func() []string { return loadtest.Lines(t, openConcTable(t, s)) }},
		{"Java Paimon", func() []string { return oracle.Java(t).Read(path, oracle.ReadOpts{}) }},
		{"pypaimon", func() []string { return oracle.Py(t).Read(path, oracle.ReadOpts{}) }},
	} {
		if d := loadtest.Diff(want, r.got()); d != "" {
			problems = append(problems, fmt.Sprintf("%s reads other rows than job b's winning on every key:%s", r.name, d))
		}
	}
	return problems
}

// TestConcurrentJobsSameKeysInFlightReserved: two jobs write the same keys with their windows in
// flight at once, on the local disk and on S3, reserving sequence ranges in the table's shared
// directory. The window assigned later (job b's) reserved after job a's, so its range lies wholly
// above a's and its rows win on every key — read so by lakeload, Java Paimon and pypaimon alike.
// The reservations are the two windows', in assignment order.
func TestConcurrentJobsSameKeysInFlightReserved(t *testing.T) {
	concStorages(t, func(t *testing.T, s concStorage) {
		for _, p := range inFlightProblems(t, s, true) {
			t.Error(p)
		}
		recs := concReservationRecords(t, s)
		if len(recs) != 2 || recs[0].Job != "job-a" || recs[1].Job != "job-b" || recs[0].Window != 1 || recs[1].Window != 1 {
			t.Errorf("reservations %+v, want job-a's window 1 then job-b's window 1", recs)
		}
	})
}

// TestConcurrentJobsSameKeysInFlightUnreserved is the negative control of the test above: the same
// run without reservations (Config.SeqReservations empty) gives both windows the same base, and
// the check finds the overlap and job a's rows winning for half the keys.
func TestConcurrentJobsSameKeysInFlightUnreserved(t *testing.T) {
	dir := loadtest.TempDir(t)
	s := concStorage{name: "local", root: dir, localRoot: dir, newFS: concStoragesLocalFS}
	problems := inFlightProblems(t, s, false)
	var overlap, lakeload bool
	for _, p := range problems {
		overlap = overlap || strings.HasPrefix(p, "overlap:")
		lakeload = lakeload || strings.HasPrefix(p, "lakeload reads")
	}
	if !overlap || !lakeload {
		t.Errorf("without reservations the check found %q; want the overlap and lakeload's rows differing", problems)
	}
	if ok, err := fileio.Exists(context.Background(), concStoragesLocalFS(t), concReservations(s)); err != nil || ok {
		t.Errorf("a job without reservations created %s (%v)", concReservations(s), err)
	}
}

// TestSeqReserveCrashResumeKeepsBase: job a crashes after assigning its window 2; job b then loads
// the same keys (its window reserved after a's window 2); job a is resumed. Recovery recomputes
// window 2 with the base stored in its `assigned` record and reserves nothing more, so window 2 —
// committed after job b's window — still loses to it: the table equals a1, a2, b1 applied in
// assignment order, read so by lakeload and Java Paimon, on the local disk and on S3.
func TestSeqReserveCrashResumeKeepsBase(t *testing.T) {
	concStorages(t, func(t *testing.T, s concStorage) {
		createConcTable(t, s)
		fa, fb := concFiles("p", "a", 2, 20), concFiles("p", "b", 1, 20)
		a, b := concJob(t, s, "job-a", writeConcInput(t, fa)), concJob(t, s, "job-b", writeConcInput(t, fb))
		a.SeqReservations, b.SeqReservations = concReservations(s), concReservations(s)
		crashed := false
		a.Hook = func(p string, w int64) error {
			if p == PointAssigned && w == 2 && !crashed {
				crashed = true
				return errCrash
			}
			return nil
		}
		if _, err := Run(context.Background(), a); !errors.Is(err, errCrash) {
			t.Fatalf("job a: %v, want the simulated crash after assigning window 2", err)
		}
		stored := assignedOf(t, a, 2)
		if _, err := Run(context.Background(), b); err != nil {
			t.Fatalf("job b: %v", err)
		}
		a.Table = openConcTable(t, s) // a new process
		res, err := Run(context.Background(), a)
		if err != nil {
			t.Fatalf("resume job a: %v", err)
		}
		if res.Recovered == 0 {
			t.Errorf("resume recovered nothing; want window 2 recomputed")
		}
		if got := assignedOf(t, a, 2); got.SequenceBase != stored.SequenceBase {
			t.Errorf("window 2's base is %d after resume, was %d", got.SequenceBase, stored.SequenceBase)
		}
		recs := concReservationRecords(t, s)
		var got []string
		for _, r := range recs {
			got = append(got, fmt.Sprintf("%s/%d", r.Job, r.Window))
		}
		if want := []string{"job-a/1", "job-a/2", "job-b/1"}; !slices.Equal(got, want) {
			t.Errorf("reservations %v, want %v (none by recovery)", got, want)
		}
		if len(recs) == 3 && recs[1].Base != stored.SequenceBase {
			t.Errorf("window 2 reserved base %d, its assigned record holds %d", recs[1].Base, stored.SequenceBase)
		}
		checkJobMarkers(t, a, 2)
		checkJobMarkers(t, b, 1)
		checkConcTable(t, s, concModel(t, fa[0], fa[1], fb[0]))
	})
}
