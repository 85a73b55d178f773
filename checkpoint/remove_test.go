package checkpoint

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/local"
)

// storeFiles lists every file below root (links included, not followed), sorted, relative to root.
func storeFiles(t *testing.T, fs fileio.FileIO, root string) []string {
	t.Helper()
	var out []string
	var walk func(dir string)
	walk = func(dir string) {
		infos, err := fs.List(bg, dir)
		must(t, err)
		for _, fi := range infos {
			if fi.RealDir() {
				walk(fi.Path)
			} else {
				out = append(out, strings.TrimPrefix(fi.Path, root+"/"))
			}
		}
	}
	walk(root)
	slices.Sort(out)
	return out
}

// TestRemoveDeletesOnlyTheStore (issue 14, finding 3): Remove refuses, deleting nothing, a store
// whose job.json names another job or table, and a directory without job.json that holds more than a
// lease; it removes every record of a full store (lease versions, generations, staging files and the
// owned quarantine files included) and leaves, and reports, every other entry.
func TestRemoveDeletesOnlyTheStore(t *testing.T) {
	backends(t, func(t *testing.T, fs fileio.FileIO, s *Store) {
		fullStore(t, s)
		j := testJob()
		_, err := s.AcquireLease(bg, LeaseOptions{Owner: LeaseOwner{Host: "h", PID: 1, Token: "t"}})
		must(t, err)
		g := Generation{Generation: 2, Revision: 2, Base: 6, Splits: testPlan(1).Splits, FirstWindow: 9, Created: t0}
		must(t, s.WriteGeneration(bg, g))
		strays := []string{"notes.txt", "windows/1/mine.txt", "other/x", "windows/1/attempt-1/x.res.bak", "plan-rev/01", "quarantine/x.txt"}
		owned := []string{"quarantine/window-1-attempt-1-t.jsonl", ".plan.json.1234.tmp", "windows/1/.committed.99.tmp"}
		for _, p := range append(slices.Clone(strays), owned...) {
			must(t, fileio.WriteFile(bg, fs, fileio.Join(s.Root(), p), []byte("x")))
		}
		before := storeFiles(t, fs, s.Root())
		for _, c := range []struct{ job, table string }{{"job-2", j.TablePath}, {j.JobID, "/wh/db.db/other"}} {
			if _, err := s.Remove(bg, c.job, c.table, nil); !errors.Is(err, ErrNotJobStore) || !strings.Contains(err.Error(), s.Root()) {
				t.Errorf("Remove(%s, %s): %v, want ErrNotJobStore naming the root", c.job, c.table, err)
			}
		}
		if got := storeFiles(t, fs, s.Root()); !slices.Equal(got, before) {
			t.Fatalf("a refused Remove changed the store: %v → %v", before, got)
		}
		quarantine := Owned{"quarantine": func(n string) bool { return strings.HasPrefix(n, "window-") && strings.HasSuffix(n, ".jsonl") }}
		r, err := s.Remove(bg, j.JobID, j.TablePath, quarantine)
		must(t, err)
		slices.Sort(strays)
		if got := storeFiles(t, fs, s.Root()); !slices.Equal(got, strays) {
			t.Errorf("Remove left %v, want only the strays %v", got, strays)
		}
		var left []string
		for _, p := range r.Left {
			left = append(left, strings.TrimPrefix(p, s.Root()+"/"))
		}
		slices.Sort(left)
		if want := []string{"notes.txt", "other", "plan-rev/01", "quarantine/x.txt", "windows/1/attempt-1/x.res.bak", "windows/1/mine.txt"}; !slices.Equal(left, want) {
			t.Errorf("Left %v, want %v", left, want)
		}
		if r.Deleted != len(before)-len(strays) {
			t.Errorf("Deleted %d, want %d", r.Deleted, len(before)-len(strays))
		}
	})
}

// TestRemoveStoreWithoutJob: a directory without job.json is removed only if it holds nothing but
// lease records and staging files (a run stopped before it wrote job.json); an empty or missing one
// is ErrNoJob and stays.
func TestRemoveStoreWithoutJob(t *testing.T) {
	backends(t, func(t *testing.T, fs fileio.FileIO, s *Store) {
		if _, err := s.Remove(bg, "j", "/wh/t", nil); !errors.Is(err, ErrNoJob) {
			t.Errorf("missing store: %v, want ErrNoJob", err)
		}
		_, err := s.AcquireLease(bg, LeaseOptions{Owner: LeaseOwner{Host: "h", PID: 1, Token: "t"}})
		must(t, err)
		must(t, fileio.WriteFile(bg, fs, fileio.Join(s.Root(), "home", "notes"), []byte("x")))
		if _, err := s.Remove(bg, "j", "/wh/t", nil); !errors.Is(err, ErrNotJobStore) || !strings.Contains(err.Error(), "home") {
			t.Errorf("no job.json and a foreign directory: %v, want ErrNotJobStore naming it", err)
		}
		must(t, fs.Delete(bg, fileio.Join(s.Root(), "home", "notes")))
		must(t, fs.Delete(bg, fileio.Join(s.Root(), "home")))
		must(t, fileio.WriteFile(bg, fs, fileio.Join(s.Root(), "lease", "lease-1"), []byte("x")))
		if _, err := s.Remove(bg, "j", "/wh/t", nil); !errors.Is(err, ErrNotJobStore) || !strings.Contains(err.Error(), "lease-1") {
			t.Errorf("no job.json and a foreign lease file: %v, want ErrNotJobStore naming it", err)
		}
		must(t, fs.Delete(bg, fileio.Join(s.Root(), "lease", "lease-1")))
		if _, err := s.Remove(bg, "j", "/wh/t", nil); err != nil {
			t.Fatalf("a store holding only its lease: %v", err)
		}
		if ok, _ := fileio.Exists(bg, fs, s.Root()); ok {
			if left := storeFiles(t, fs, s.Root()); len(left) > 0 {
				t.Errorf("Remove of a lease-only store left %v", left)
			}
		}
	})
}

// TestRemoveDoesNotFollowLinks: a windows directory and a record that are symbolic links to files
// outside the store are left (and reported); their targets survive.
func TestRemoveDoesNotFollowLinks(t *testing.T) {
	dir := t.TempDir()
	fs := local.New()
	s := NewStore(fs, filepath.Join(dir, "ckpt"))
	must(t, s.WriteJob(bg, testJob()))
	victim := filepath.Join(dir, "victim")
	must(t, fileio.WriteFile(bg, fs, filepath.Join(victim, "1", "assigned"), []byte("victim")))
	must(t, fileio.WriteFile(bg, fs, filepath.Join(victim, "plan"), []byte("victim")))
	must(t, os.Symlink(victim, filepath.Join(s.Root(), "windows")))
	must(t, os.Symlink(filepath.Join(victim, "plan"), filepath.Join(s.Root(), "plan.json")))
	r, err := s.Remove(bg, testJob().JobID, testJob().TablePath, nil)
	must(t, err)
	for _, p := range []string{filepath.Join(victim, "1", "assigned"), filepath.Join(victim, "plan")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("victim %s deleted through a link: %v", p, err)
		}
	}
	if len(r.Left) != 2 {
		t.Errorf("Left %v, want the two links", r.Left)
	}
}
