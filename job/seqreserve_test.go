package job

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
)

// newTestReserver is a reserver on s's storage, in a fresh directory.
func newTestReserver(t *testing.T, s concStorage, name string) *seqReserver {
	return &seqReserver{fs: s.newFS(t), dir: fileio.Join(s.root, "res", name, "seq")}
}

// readReservations reads every reservation of r's directory in index order, requiring indexes 1..n.
func readReservations(t *testing.T, r *seqReserver) []seqReservation {
	t.Helper()
	ctx := context.Background()
	last, err := r.listLast(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []seqReservation
	for i := int64(1); i <= last; i++ {
		rec, err := r.read(ctx, i)
		if err != nil {
			t.Fatalf("reservation %d of %d: %v", i, last, err)
		}
		out = append(out, *rec)
	}
	return out
}

// checkReservationChain requires each reservation to start at or above the end of the one before.
func checkReservationChain(t *testing.T, recs []seqReservation) {
	t.Helper()
	for i := 1; i < len(recs); i++ {
		if recs[i].Base < recs[i-1].end() {
			t.Errorf("reservation %d [%d,%d) overlaps or precedes reservation %d [%d,%d)",
				recs[i].Index, recs[i].Base, recs[i].end(), recs[i-1].Index, recs[i-1].Base, recs[i-1].end())
		}
	}
}

// TestSeqReserveSequential: reservations follow each other (base = max(floor, previous end)) and
// the hint only saves reads: missing, stale, or naming a record that does not exist, the next
// reservation is still the right one.
func TestSeqReserveSequential(t *testing.T) {
	ctx := context.Background()
	concStorages(t, func(t *testing.T, s concStorage) {
		r := newTestReserver(t, s, "seq")
		now := time.Unix(1700000000, 0)
		steps := []struct {
			floor, size, wantBase int64
			hint                  string // written before the step; "" = leave, "-" = delete
		}{
			{floor: 1, size: 100, wantBase: 1},
			{floor: 1, size: 50, wantBase: 101},                 // previous end
			{floor: 500, size: 10, wantBase: 500},               // the table is ahead (foreign commit)
			{floor: 1, size: 0, wantBase: 510, hint: "-"},       // no hint: the directory is listed
			{floor: 1, size: 7, wantBase: 510, hint: "1"},       // stale hint: read forward
			{floor: 1, size: 1, wantBase: 517, hint: "99"},      // hint naming no record: listed again
			{floor: 1, size: 3, wantBase: 518, hint: "garbage"}, // unreadable hint: listed
		}
		hint := fileio.Join(r.dir, seqHintName)
		for i, st := range steps {
			switch st.hint {
			case "":
			case "-":
				if err := r.fs.Delete(ctx, hint); err != nil {
					t.Fatal(err)
				}
			default:
				if err := fileio.WriteFile(ctx, r.fs, hint, []byte(st.hint)); err != nil {
					t.Fatal(err)
				}
			}
			rec, err := r.reserve(ctx, st.floor, st.size, "job-x", int64(i+1), now)
			if err != nil {
				t.Fatalf("step %d: %v", i+1, err)
			}
			if rec.Index != int64(i+1) || rec.Base != st.wantBase || rec.Size != st.size {
				t.Errorf("step %d: reservation %+v, want index %d base %d size %d", i+1, rec, i+1, st.wantBase, st.size)
			}
		}
		recs := readReservations(t, r)
		if len(recs) != len(steps) {
			t.Fatalf("%d reservations stored, want %d", len(recs), len(steps))
		}
		for i, rec := range recs {
			if rec.Job != "job-x" || rec.Window != int64(i+1) || !rec.Time.Equal(now) {
				t.Errorf("stored reservation %d: %+v, want job-x window %d at %v", i+1, rec, i+1, now)
			}
		}
		checkReservationChain(t, recs)
	})
}

// TestSeqReserveRace: 6 reservers, each with a FileIO of its own (as separate processes), reserve
// 8 ranges each at once on the same directory, on the local disk and on S3. Every reservation
// lands exactly once, the indexes are 1..48 without gaps, and each range starts at or above the
// end of the one before, so no two ranges overlap and a higher index always means higher numbers.
func TestSeqReserveRace(t *testing.T) {
	const jobs, each = 6, 8
	concStorages(t, func(t *testing.T, s concStorage) {
		dir := newTestReserver(t, s, "race").dir
		var wg sync.WaitGroup
		errs := make([]error, jobs)
		start := make(chan struct{})
		for j := range jobs {
			r := &seqReserver{fs: s.newFS(t), dir: dir}
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				rng := rand.New(rand.NewPCG(uint64(j), 1))
				for w := int64(1); w <= each; w++ {
					if _, err := r.reserve(context.Background(), 1, 1+rng.Int64N(1000), fmt.Sprintf("job-%d", j), w, time.Now()); err != nil {
						errs[j] = err
						return
					}
				}
			}()
		}
		close(start)
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		recs := readReservations(t, &seqReserver{fs: s.newFS(t), dir: dir})
		if len(recs) != jobs*each {
			t.Fatalf("%d reservations, want %d", len(recs), jobs*each)
		}
		seen := map[string]bool{}
		for _, r := range recs {
			k := fmt.Sprintf("%s/%d", r.Job, r.Window)
			if seen[k] {
				t.Errorf("window %s reserved twice", k)
			}
			seen[k] = true
		}
		checkReservationChain(t, recs)
	})
}

// TestSeqReserveCorruptRecord: a damaged or misplaced record stops a reservation with an error
// wrapping spec.ErrCorrupt that names the record and says what to do; no reservation is made.
func TestSeqReserveCorruptRecord(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := concStorage{name: "local", root: dir, localRoot: dir, newFS: concStoragesLocalFS}
	misplaced, _ := json.Marshal(seqReservation{Index: 7, Base: 1, Size: 1})
	negative, _ := json.Marshal(seqReservation{Index: 1, Base: -5, Size: 1})
	for name, body := range map[string][]byte{
		"torn":      []byte(`{"index":1,"base":`),
		"unknown":   []byte(`{"index":1,"base":1,"size":1,"owner":"x"}`),
		"misplaced": misplaced,
		"negative":  negative,
	} {
		t.Run(name, func(t *testing.T) {
			r := newTestReserver(t, s, name)
			if err := r.fs.WriteIfAbsent(ctx, r.recordPath(1), body); err != nil {
				t.Fatal(err)
			}
			_, err := r.reserve(ctx, 1, 10, "job-x", 1, time.Now())
			if !errors.Is(err, spec.ErrCorrupt) || !strings.Contains(err.Error(), r.recordPath(1)) || !strings.Contains(err.Error(), "move the directory") {
				t.Fatalf("reserve over a %s record: %v, want ErrCorrupt naming %s and the remedy", name, err, r.recordPath(1))
			}
			if ok, _ := fileio.Exists(ctx, r.fs, r.recordPath(2)); ok {
				t.Errorf("a reservation was made after a %s record", name)
			}
		})
	}
}

// TestSeqTableIDRecreated: the reservation directory follows the table's identity — the same for
// every handle of one table, different once it is dropped and created again under the same name.
func TestSeqTableIDRecreated(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := concStorage{name: "local", root: dir, localRoot: dir, newFS: concStoragesLocalFS}
	createConcTable(t, s)
	id1, err := seqTableID(ctx, openConcTable(t, s))
	if err != nil {
		t.Fatal(err)
	}
	if again, err := seqTableID(ctx, openConcTable(t, s)); err != nil || again != id1 {
		t.Fatalf("second handle: id %q (%v), want %q", again, err, id1)
	}
	tbl := openConcTable(t, s)
	if err := tbl.FS.DeleteAll(ctx, tbl.Path); err != nil { // drop
		t.Fatal(err)
	}
	time.Sleep(2 * time.Millisecond) // a new creation time, as any real re-create has
	createConcTable(t, s)
	id2, err := seqTableID(ctx, openConcTable(t, s))
	if err != nil {
		t.Fatal(err)
	}
	if id2 == id1 {
		t.Errorf("re-created table has the id %q of the dropped one", id1)
	}
	ids := []string{id1, id2}
	if slices.ContainsFunc(ids, func(id string) bool { return strings.ContainsAny(id, "/\\") || id == "" }) {
		t.Errorf("ids %q are not single path elements", ids)
	}
}
