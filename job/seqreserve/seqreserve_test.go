package seqreserve

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

	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/local"
	s3fs "github.com/lakeload/lakeload/fileio/s3"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/internal/s3test"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// storage is where a test keeps reservations (and a table): each reserver gets a FileIO of its
// own, as a separate process would.
type storage struct {
	root  string
	newFS func(t testing.TB) fileio.FileIO
}

// storages runs body as the subtests "local" and "s3" (skipped without versitygw).
func storages(t *testing.T, body func(t *testing.T, s storage)) {
	t.Run("local", func(t *testing.T) { body(t, localStorage(t)) })
	t.Run("s3", func(t *testing.T) {
		srv := s3test.Start(t)
		body(t, storage{root: srv.URI("res"), newFS: func(t testing.TB) fileio.FileIO {
			t.Helper()
			f, err := s3fs.New(context.Background(), s3fs.Options{
				Endpoint: srv.Endpoint, PathStyle: true, Region: s3test.Region,
				Credentials: credentials.NewStaticCredentialsProvider(srv.AccessKey, srv.SecretKey, ""),
			})
			if err != nil {
				t.Fatal(err)
			}
			return f
		}})
	})
}

// localStorage is a fresh local directory.
func localStorage(t *testing.T) storage {
	return storage{root: loadtest.TempDir(t), newFS: func(testing.TB) fileio.FileIO { return local.New() }}
}

// testTable is db.t under s.root/wh: a primary-key table (id BIGINT), created when create is set,
// opened with a FileIO of its own.
func testTable(t *testing.T, s storage, create bool) *table.Table {
	t.Helper()
	ctx := context.Background()
	cat, ident := catalog.New(s.newFS(t), fileio.Join(s.root, "wh")), catalog.Identifier{Database: "db", Table: "t"}
	if create {
		typ, err := spec.ParseType("BIGINT NOT NULL")
		if err != nil {
			t.Fatal(err)
		}
		schema, err := spec.NewSchema([]spec.DataField{{ID: 0, Name: "id", Type: typ}}, nil, []string{"id"}, map[string]string{"bucket": "1"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := cat.CreateTable(ctx, ident, schema, false); err != nil {
			t.Fatal(err)
		}
	}
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// newTestReserver is a reserver on s's storage, in a fresh directory.
func newTestReserver(t *testing.T, s storage, name string) *Reserver {
	return &Reserver{fs: s.newFS(t), dir: fileio.Join(s.root, "res", name, "seq")}
}

// readReservations reads every reservation of r's directory in index order, requiring indexes 1..n.
func readReservations(t *testing.T, r *Reserver) []Reservation {
	t.Helper()
	out, err := r.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkReservationChain requires each reservation to start at or above the end of the one before.
func checkReservationChain(t *testing.T, recs []Reservation) {
	t.Helper()
	for i := 1; i < len(recs); i++ {
		if recs[i].Base < recs[i-1].End() {
			t.Errorf("reservation %d [%d,%d) overlaps or precedes reservation %d [%d,%d)",
				recs[i].Index, recs[i].Base, recs[i].End(), recs[i-1].Index, recs[i-1].Base, recs[i-1].End())
		}
	}
}

// TestSeqReserveSequential: reservations follow each other (base = max(floor, previous end)) and
// the hint only saves reads: missing, stale, or naming a record that does not exist, the next
// reservation is still the right one.
func TestSeqReserveSequential(t *testing.T) {
	ctx := context.Background()
	storages(t, func(t *testing.T, s storage) {
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
		hint := fileio.Join(r.dir, hintName)
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
			rec, err := r.Reserve(ctx, st.floor, st.size, "job-x", int64(i+1), now)
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
	storages(t, func(t *testing.T, s storage) {
		dir := newTestReserver(t, s, "race").dir
		var wg sync.WaitGroup
		errs := make([]error, jobs)
		start := make(chan struct{})
		for j := range jobs {
			r := &Reserver{fs: s.newFS(t), dir: dir}
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				rng := rand.New(rand.NewPCG(uint64(j), 1))
				for w := int64(1); w <= each; w++ {
					if _, err := r.Reserve(context.Background(), 1, 1+rng.Int64N(1000), fmt.Sprintf("job-%d", j), w, time.Now()); err != nil {
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
		recs := readReservations(t, &Reserver{fs: s.newFS(t), dir: dir})
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
	s := localStorage(t)
	misplaced, _ := json.Marshal(Reservation{Index: 7, Base: 1, Size: 1})
	negative, _ := json.Marshal(Reservation{Index: 1, Base: -5, Size: 1})
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
			_, err := r.Reserve(ctx, 1, 10, "job-x", 1, time.Now())
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
	s := localStorage(t)
	id1, err := tableID(ctx, testTable(t, s, true))
	if err != nil {
		t.Fatal(err)
	}
	if again, err := tableID(ctx, testTable(t, s, false)); err != nil || again != id1 {
		t.Fatalf("second handle: id %q (%v), want %q", again, err, id1)
	}
	tbl := testTable(t, s, false)
	if err := tbl.FS.DeleteAll(ctx, tbl.Path); err != nil { // drop
		t.Fatal(err)
	}
	time.Sleep(2 * time.Millisecond) // a new creation time, as any real re-create has
	id2, err := tableID(ctx, testTable(t, s, true))
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

// racingFS creates a competing reservation at a record's path just before the first WriteIfAbsent
// of one, as another job that reserved between this one's read and its create.
type racingFS struct {
	fileio.FileIO
	raced bool
}

func (f *racingFS) WriteIfAbsent(ctx context.Context, path string, data []byte) error {
	if !f.raced {
		f.raced = true
		var rec Reservation
		if err := json.Unmarshal(data, &rec); err != nil {
			return err
		}
		rival, _ := json.Marshal(Reservation{Index: rec.Index, Base: rec.Base, Size: 40, Job: "job-rival", Window: 1})
		if err := f.FileIO.WriteIfAbsent(ctx, path, rival); err != nil {
			return err
		}
	}
	return f.FileIO.WriteIfAbsent(ctx, path, data)
}

// TestSeqReserveLostRace: a reservation that loses its index to another job (the create finds the
// record already there) reads the rival's record and takes the next index, above the rival's range;
// the rival's record is left as it was. Deterministic: the rival is created by the FileIO itself.
func TestSeqReserveLostRace(t *testing.T) {
	ctx := context.Background()
	s := localStorage(t)
	r := newTestReserver(t, s, "lost")
	r.fs = &racingFS{FileIO: r.fs}
	rec, err := r.Reserve(ctx, 1, 10, "job-x", 1, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if rec.Index != 2 || rec.Base != 41 {
		t.Errorf("reservation after a lost race: %+v, want index 2 at base 41 (after the rival's [1,41))", rec)
	}
	recs := readReservations(t, r)
	if len(recs) != 2 || recs[0].Job != "job-rival" || recs[1].Job != "job-x" {
		t.Fatalf("reservations %+v, want the rival's then job-x's", recs)
	}
	checkReservationChain(t, recs)
}
