package checkpoint

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
)

// windowStore writes job, plan (4 splits) and window 1 committed and published; it returns the loaded state.
func windowStore(t *testing.T, s *Store) State {
	t.Helper()
	must(t, s.WriteJob(bg, testJob()))
	must(t, s.WritePlan(bg, testPlan(4)))
	must(t, s.WriteAssigned(bg, Assigned{Window: 1, Splits: []int{0, 1}, SequenceBase: 1, Attempt: 1, Created: t0}))
	_, err := s.WriteResult(bg, result(t, 1, 1, "t0", []int{0, 1}, msg("a")))
	must(t, err)
	must(t, s.WriteCommitted(bg, Committed{Window: 1, SnapshotID: 1, Attempt: 1, Time: t0}))
	must(t, s.WritePublished(bg, Published{Window: 1, Attempt: 1, Splits: []int{0, 1}, Rows: 20, Digest: "x", Time: t0}))
	st, err := s.Load(bg)
	must(t, err)
	return st
}

// TestLoadWindowMatchesLoad: after each record a driver writes for a window, the state LoadWindow
// derives from the previous state equals what Load reads from scratch.
func TestLoadWindowMatchesLoad(t *testing.T) {
	backends(t, func(t *testing.T, fs fileio.FileIO, s *Store) {
		st := windowStore(t, s)
		steps := []struct {
			name  string
			write func() error
		}{
			{"assigned", func() error {
				return s.WriteAssigned(bg, Assigned{Window: 2, Splits: []int{2, 3}, SequenceBase: 21, SnapshotSeen: 1, Attempt: 1, Created: t0})
			}},
			{"partial result", func() error { _, err := s.WriteResult(bg, result(t, 2, 1, "t0", []int{2})); return err }},
			{"second attempt", func() error {
				return s.WriteAttemptStart(bg, AttemptStart{Window: 2, Attempt: 2, Reason: "partial", Created: t0})
			}},
			{"results", func() error {
				if _, err := s.WriteResult(bg, result(t, 2, 2, "t1", []int{3}, msg("c"))); err != nil {
					return err
				}
				_, err := s.WriteResult(bg, result(t, 2, 2, "t0", []int{2}, msg("b")))
				return err
			}},
			{"committed", func() error { return s.WriteCommitted(bg, Committed{Window: 2, SnapshotID: 2, Attempt: 2, Time: t0}) }},
			{"published", func() error {
				return s.WritePublished(bg, Published{Window: 2, Attempt: 2, Splits: []int{2, 3}, Rows: 20, Digest: "y", Time: t0})
			}},
		}
		for _, step := range steps {
			must(t, step.write())
			var err error
			if st, err = s.LoadWindow(bg, st, 2); err != nil {
				t.Fatalf("after %s: LoadWindow: %v", step.name, err)
			}
			want, err := s.Load(bg)
			must(t, err)
			if !reflect.DeepEqual(st, want) {
				t.Fatalf("after %s: LoadWindow state differs from Load:\n got %+v\nwant %+v", step.name, st, want)
			}
		}
		// Reading an unchanged window again changes nothing.
		again, err := s.LoadWindow(bg, st, 1)
		must(t, err)
		if !reflect.DeepEqual(again, st) {
			t.Fatalf("reloading window 1 changed the state")
		}
		if len(st.Remaining()) != 0 {
			t.Fatalf("remaining %v after both windows", st.Remaining())
		}
	})
}

// TestLoadWindowRefuses: the records of the window read are checked as Load checks them, against
// the plan and the other windows of the state.
func TestLoadWindowRefuses(t *testing.T) {
	backends(t, func(t *testing.T, fs fileio.FileIO, s *Store) {
		cases := []struct {
			name  string
			w     int64
			write func(t *testing.T, s *Store)
			want  string // "" : a plain error, not ErrCorrupt
		}{
			{"beyond the next window", 3, func(*testing.T, *Store) {}, ""},
			{"next window not assigned", 2, func(*testing.T, *Store) {}, "no assigned record"},
			{"split of another live window", 2, func(t *testing.T, s *Store) {
				must(t, s.WriteAssigned(bg, Assigned{Window: 2, Splits: []int{1, 2}, SequenceBase: 21, Attempt: 1, Created: t0}))
			}, "split 1 is also assigned to window 1"},
			{"split outside the plan", 2, func(t *testing.T, s *Store) {
				must(t, s.WriteAssigned(bg, Assigned{Window: 2, Splits: []int{9}, SequenceBase: 21, Attempt: 1, Created: t0}))
			}, "split index 9 outside the plan of 4 splits"},
			{"result digest mismatch", 2, func(t *testing.T, s *Store) {
				must(t, s.WriteAssigned(bg, Assigned{Window: 2, Splits: []int{2}, SequenceBase: 21, Attempt: 1, Created: t0}))
				r := result(t, 2, 1, "t0", []int{2})
				r.Rows++ // content no longer matches the digest
				b, err := encodeRecord(kindResult, r)
				must(t, err)
				must(t, s.FS().WriteIfAbsent(bg, s.ResultPath(2, 1, "t0"), b))
			}, "result digest mismatch"},
			{"result of an unbegun attempt", 2, func(t *testing.T, s *Store) {
				must(t, s.WriteAssigned(bg, Assigned{Window: 2, Splits: []int{2}, SequenceBase: 21, Attempt: 1, Created: t0}))
				_, err := s.WriteResult(bg, result(t, 2, 3, "t0", []int{2}))
				must(t, err)
			}, "never begun"},
			{"unknown file", 1, func(t *testing.T, s *Store) {
				must(t, s.FS().WriteIfAbsent(bg, fileio.Join(s.Root(), "windows", "1", "stray"), []byte("x")))
			}, "unexpected entry in window 1"},
			{"assigned rewritten", 1, func(t *testing.T, s *Store) {
				must(t, s.FS().Delete(bg, s.AssignedPath(1)))
				must(t, s.WriteAssigned(bg, Assigned{Window: 1, Splits: []int{0}, SequenceBase: 1, Attempt: 1, Created: t0}))
			}, "changed since the store was loaded"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				sub := NewStore(fs, fileio.Join(s.Root(), strings.ReplaceAll(c.name, " ", "-")))
				st := windowStore(t, sub)
				c.write(t, sub)
				_, err := sub.LoadWindow(bg, st, c.w)
				switch {
				case err == nil:
					t.Fatal("LoadWindow accepted the records")
				case c.want == "" && errors.Is(err, ErrCorrupt):
					t.Fatalf("LoadWindow: %v; want a plain error", err)
				case c.want != "" && (!errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), c.want)):
					t.Fatalf("LoadWindow: %v; want ErrCorrupt with %q", err, c.want)
				}
			})
		}
		if _, err := s.LoadWindow(bg, State{}, 1); err == nil {
			t.Fatal("LoadWindow into a state without a plan succeeded")
		}
	})
}
