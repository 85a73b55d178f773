package checkpoint

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/mem"
)

// fullStore writes one record of every kind: window 1 committed and published, window 2 with a
// second attempt, a plan revision replacing the unassigned split 4, and returns what it wrote.
func fullStore(t *testing.T, s *Store) Records {
	t.Helper()
	rs := Records{Job: new(testJob()), Plan: new(testPlan(5))}
	rs.Revisions = []PlanRevision{{Revision: 1, Base: 5, Dropped: []int{4}, At: []int{4}, Reason: "replaced",
		Added: []Opaque{testSplit{Path: "/in/f4.parquet", Format: "parquet", Size: 200, ModTimeUnixNano: 8, RowCount: 10}.stored()}, Created: t0}}
	rs.Assigned = []Assigned{
		{Window: 1, Splits: []int{0, 1}, SequenceBase: 1, SnapshotSeen: 0, Attempt: 1, Created: t0},
		{Window: 2, Splits: []int{2, 3}, SequenceBase: 21, SnapshotSeen: 1, Attempt: 1, Created: t0},
	}
	rs.Starts = []AttemptStart{{Window: 2, Attempt: 2, Reason: "partial", Created: t0}}
	rs.Results = []TaskResult{
		result(t, 1, 1, "t0", []int{0}, msg("a")),
		result(t, 1, 1, "t1", []int{1}, msg("b"), msg("c")),
		result(t, 2, 1, "t0", []int{2}),
		result(t, 2, 2, "t0", []int{2, 3}, msg("d")),
	}
	rs.Committed = []Committed{{Window: 1, SnapshotID: 1, Attempt: 1, Time: t0}}
	rs.Published = []Published{{Window: 1, Attempt: 1, Splits: []int{0, 1}, Rows: 20, Digest: "x", Time: t0}}
	rs.Voided = nil
	rs.Done = &DoneRecord{JobID: "job-1", Windows: 2, Time: t0}
	must(t, s.WriteJob(bg, *rs.Job))
	must(t, s.WritePlan(bg, *rs.Plan))
	must(t, s.WriteRevision(bg, rs.Revisions[0]))
	for _, a := range rs.Assigned {
		must(t, s.WriteAssigned(bg, a))
	}
	for _, a := range rs.Starts {
		must(t, s.WriteAttemptStart(bg, a))
	}
	for _, r := range rs.Results {
		r.Digest = ""
		stored, err := s.WriteResult(bg, r)
		must(t, err)
		if stored.Digest == "" {
			t.Fatal("WriteResult did not set the digest")
		}
	}
	must(t, s.WriteCommitted(bg, rs.Committed[0]))
	must(t, s.WritePublished(bg, rs.Published[0]))
	must(t, s.WriteDone(bg, *rs.Done))
	return rs
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	must(t, err)
	return string(b)
}

func TestStoreRoundTrip(t *testing.T) {
	backends(t, func(t *testing.T, fs fileio.FileIO, s *Store) {
		want := fullStore(t, s)
		got, err := s.ReadRecords(bg)
		must(t, err)
		// As JSON: an opaque value read back also knows its record (Opaque.Require, errors).
		if g, w := jsonOf(t, got), jsonOf(t, want); g != w {
			t.Fatalf("records differ:\n got %s\nwant %s", g, w)
		}
		st, err := s.Load(bg)
		must(t, err)
		ws, ok := st.Window(2)
		if !ok || len(ws.Attempts) != 2 || ws.LastAttempt() != 2 || len(ws.Attempts[1].Results) != 1 {
			t.Fatalf("window 2: %+v", ws)
		}
		// null-vs-empty of DataFileMeta survives the JSON body (ValueStatsCols [] ≠ null).
		var m testMessage
		must(t, ws.Attempts[1].Results[0].Messages[0].Decode(&m))
		f := m.NewFiles[0]
		if f.ValueStatsCols == nil || f.ExtraFiles != nil || *f.DeleteRowCount != 0 {
			t.Fatalf("data file meta lost null/empty distinctions: %+v", f)
		}
		if _, ok := st.Done(); !ok {
			t.Fatal("done marker not loaded")
		}
		if plan, _ := st.Plan(); len(plan.Splits) != 6 || !sameOpaque(plan.Splits[5], want.Revisions[0].Added[0]) ||
			!reflect.DeepEqual(st.Dropped(), []int{4}) || !reflect.DeepEqual(st.Remaining(), []int{5}) {
			t.Fatalf("revision not applied: plan %v dropped %v remaining %v", plan.Splits, st.Dropped(), st.Remaining())
		}
	})
}

func TestStoreWritesOnce(t *testing.T) {
	backends(t, func(t *testing.T, fs fileio.FileIO, s *Store) {
		rs := fullStore(t, s)
		_, resErr := s.WriteResult(bg, rs.Results[0])
		for name, err := range map[string]error{
			"job":       s.WriteJob(bg, *rs.Job),
			"plan":      s.WritePlan(bg, *rs.Plan),
			"revision":  s.WriteRevision(bg, rs.Revisions[0]),
			"assigned":  s.WriteAssigned(bg, rs.Assigned[1]),
			"attempt":   s.WriteAttemptStart(bg, rs.Starts[0]),
			"result":    resErr,
			"committed": s.WriteCommitted(bg, Committed{Window: 1, SnapshotID: 9, Attempt: 1}),
			"published": s.WritePublished(bg, rs.Published[0]),
			"done":      s.WriteDone(bg, *rs.Done),
		} {
			if !errors.Is(err, fileio.ErrExist) {
				t.Errorf("second %s write: err = %v, want ErrExist", name, err)
			}
		}
		// The first records are unchanged.
		st, err := s.Load(bg)
		must(t, err)
		if ws, _ := st.Window(1); ws.Committed.SnapshotID != 1 {
			t.Fatalf("committed was overwritten: %+v", ws.Committed)
		}
	})
}

func TestStoreRefusesInvalidRecords(t *testing.T) {
	s := NewStore(memFS(), "/c")
	for name, err := range map[string]error{
		"window 0": s.WriteAssigned(bg, Assigned{Window: 0, Attempt: 1}),
		"unsorted": s.WriteAssigned(bg, Assigned{Window: 1, Attempt: 1, Splits: []int{2, 1}}),
		"bad task id": func() error {
			_, err := s.WriteResult(bg, TaskResult{Window: 1, Attempt: 1, TaskID: "../x"})
			return err
		}(),
		"hidden task": func() error { _, err := s.WriteResult(bg, TaskResult{Window: 1, Attempt: 1, TaskID: ".x"}); return err }(),
		"wrong digest": func() error {
			_, err := s.WriteResult(bg, TaskResult{Window: 1, Attempt: 1, TaskID: "x", Digest: "00"})
			return err
		}(),
		"no job id":           s.WriteJob(bg, JobRecord{CommitUser: "u"}),
		"negative snap":       s.WriteCommitted(bg, Committed{Window: 1, Attempt: 1, SnapshotID: -1}),
		"revision 0":          s.WriteRevision(bg, PlanRevision{Revision: 0, Base: 1}),
		"dropped beyond base": s.WriteRevision(bg, PlanRevision{Revision: 1, Base: 2, Dropped: []int{2}}),
		"place per added":     s.WriteRevision(bg, PlanRevision{Revision: 1, Base: 2, Dropped: []int{1}, Added: []Opaque{testSplit{Path: "/x"}.stored()}}),
	} {
		if err == nil {
			t.Errorf("%s: written", name)
		}
	}
}

// damage replaces the file at path with what edit makes of its bytes.
func damage(t *testing.T, fs fileio.FileIO, path string, edit func([]byte) []byte) {
	t.Helper()
	b, err := fs.ReadFile(bg, path)
	must(t, err)
	must(t, fs.Delete(bg, path))
	must(t, fs.WriteIfAbsent(bg, path, edit(append([]byte(nil), b...))))
}

func TestLoadDetectsCorruptRecords(t *testing.T) {
	truncate := func(b []byte) []byte { return b[:len(b)-5] }
	flip := func(b []byte) []byte { b[len(b)-2] ^= 0x20; return b }
	backends(t, func(t *testing.T, fs fileio.FileIO, s *Store) {
		for _, c := range []struct {
			name string
			path string
			edit func([]byte) []byte
			want string
		}{
			{"torn job", fileio.Join(s.Root(), "job.json"), truncate, "torn record"},
			{"torn result", s.ResultPath(2, 2, "t0"), truncate, "torn record"},
			{"flipped assigned", s.AssignedPath(2), flip, "checksum mismatch"},
			{"flipped published", s.PublishedPath(1), flip, "checksum mismatch"},
			{"flipped revision", s.RevisionPath(1), flip, "checksum mismatch"},
			{"torn revision", s.RevisionPath(1), truncate, "torn record"},
			{"emptied committed", s.CommittedPath(1), func([]byte) []byte { return nil }, "no record header"},
		} {
			t.Run(c.name, func(t *testing.T) {
				sub := NewStore(fs, fileio.Join(s.Root(), strings.ReplaceAll(c.name, " ", "-")))
				fullStore(t, sub)
				path := strings.Replace(c.path, s.Root(), sub.Root(), 1)
				damage(t, fs, path, c.edit)
				_, err := sub.Load(bg)
				if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("Load: %v; want ErrCorrupt naming %s and %q", err, path, c.want)
				}
			})
		}
	})
}

func TestLoadRefusesMisplacedAndUnknownFiles(t *testing.T) {
	backends(t, func(t *testing.T, fs fileio.FileIO, s *Store) {
		fullStore(t, s)
		// A hidden staging file of an interrupted write is ignored.
		must(t, fs.WriteIfAbsent(bg, fileio.Join(s.Root(), "windows/2/.committed.123.tmp"), []byte("half")))
		if _, err := s.Load(bg); err != nil {
			t.Fatalf("staging file not ignored: %v", err)
		}
		cases := []struct {
			name, path string
			data       func() []byte
			want       string
		}{
			{"record of window 1 under window 2", s.CommittedPath(2), func() []byte {
				b, _ := fs.ReadFile(bg, s.CommittedPath(1))
				return b
			}, "another window"},
			{"unknown file", fileio.Join(s.Root(), "windows/2/notes.txt"), func() []byte { return []byte("hi") }, "unexpected entry"},
			{"revision 1 under name 2", s.RevisionPath(2), func() []byte {
				b, _ := fs.ReadFile(bg, s.RevisionPath(1))
				return b
			}, "another window"},
			{"non-canonical revision", fileio.Join(s.Root(), "plan-rev/01"), func() []byte { return []byte("x") }, "unexpected entry"},
			{"non-canonical window", fileio.Join(s.Root(), "windows/02/assigned"), func() []byte { return []byte("x") }, "unexpected entry"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				must(t, fs.WriteIfAbsent(bg, c.path, c.data()))
				defer func() { must(t, fs.Delete(bg, c.path)) }()
				_, err := s.Load(bg)
				if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("Load: %v; want ErrCorrupt with %q", err, c.want)
				}
			})
		}
	})
}

// failingFS fails every read: the store is unreachable.
type failingFS struct{ fileio.FileIO }

var errUnreachable = errors.New("connection refused")

func (failingFS) ReadFile(context.Context, string) ([]byte, error)        { return nil, errUnreachable }
func (failingFS) List(context.Context, string) ([]fileio.FileInfo, error) { return nil, errUnreachable }

func TestLoadOfUnreachableStoreIsAnError(t *testing.T) {
	// Scenario 35: an unreachable store must not look like an empty (new) one.
	s := NewStore(failingFS{memFS()}, "/c")
	if _, err := s.Load(bg); !errors.Is(err, errUnreachable) {
		t.Fatalf("Load = %v, want the backend error", err)
	}
}

func TestLoadEmptyStoreIsNewJob(t *testing.T) {
	st, err := NewStore(memFS(), "/nothing").Load(bg)
	must(t, err)
	if _, ok := st.Job(); ok || st.NextWindow() != 1 || len(st.Windows()) != 0 {
		t.Fatalf("empty store: %+v", st)
	}
}

func TestBuildStateRefusesImpossibleStructure(t *testing.T) {
	base := func() Records {
		return Records{Job: new(testJob()), Plan: new(testPlan(4)), Assigned: []Assigned{
			{Window: 1, Splits: []int{0, 1}, Attempt: 1}, {Window: 2, Splits: []int{2, 3}, Attempt: 1}}}
	}
	tampered := result(t, 1, 1, "t", []int{0})
	tampered.Splits = []int{0, 1}
	cases := map[string]struct {
		edit func(*Records)
		want string
	}{
		"no job":               {func(r *Records) { r.Job = nil }, "job.json"},
		"no plan":              {func(r *Records) { r.Plan = nil }, "plan.json"},
		"gap":                  {func(r *Records) { r.Assigned[1].Window = 3 }, "without gaps"},
		"split outside plan":   {func(r *Records) { r.Assigned[1].Splits = []int{2, 9} }, "outside the plan"},
		"split in two windows": {func(r *Records) { r.Assigned[1].Splits = []int{1, 2} }, "already assigned"},
		"result of unassigned window": {func(r *Records) {
			r.Results = []TaskResult{result(t, 3, 1, "t", []int{0})}
		}, "never assigned"},
		"result of unbegun attempt": {func(r *Records) {
			r.Results = []TaskResult{result(t, 1, 2, "t", []int{0})}
		}, "never begun"},
		"digest mismatch":     {func(r *Records) { r.Results = []TaskResult{tampered} }, "digest mismatch"},
		"attempt begun twice": {func(r *Records) { r.Starts = []AttemptStart{{Window: 1, Attempt: 1}} }, "begun twice"},
		"committed of unassigned": {func(r *Records) {
			r.Committed = []Committed{{Window: 5, Attempt: 1, SnapshotID: 1}}
		}, "never assigned"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			rs := base()
			c.edit(&rs)
			if _, err := BuildState(rs); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("BuildState: %v; want ErrCorrupt with %q", err, c.want)
			}
		})
	}
	// A voided window's splits may be assigned again, and are remaining until then.
	rs := base()
	rs.Voided = []Voided{{Window: 1, Reason: "rolled back"}}
	st, err := BuildState(rs)
	must(t, err)
	if got := st.Remaining(); !reflect.DeepEqual(got, []int{0, 1}) {
		t.Fatalf("remaining after void = %v", got)
	}
	rs.Assigned = append(rs.Assigned, Assigned{Window: 3, Splits: []int{0, 1}, Attempt: 1})
	st, err = BuildState(rs)
	must(t, err)
	if got := st.Remaining(); len(got) != 0 || st.NextWindow() != 4 {
		t.Fatalf("remaining after reassignment = %v, next %d", got, st.NextWindow())
	}
}

// TestLoadJobWithoutPlan: a crash between job.json and plan.json leaves a store that loads (no plan,
// no windows) so the next run can write the plan; it used to panic.
func TestLoadJobWithoutPlan(t *testing.T) {
	ctx := context.Background()
	s := NewStore(mem.New(), "/store")
	if err := s.WriteJob(ctx, JobRecord{JobID: "j", CommitUser: "u", TablePath: "/t", InputFingerprint: "f", Created: time.Unix(1, 0).UTC()}); err != nil {
		t.Fatal(err)
	}
	st, err := s.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := st.Plan(); ok || len(st.Windows()) != 0 {
		t.Fatalf("state %+v", st)
	}
	if _, ok := st.Job(); !ok {
		t.Fatal("job record lost")
	}
}
