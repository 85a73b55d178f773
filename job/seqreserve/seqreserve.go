// Package seqreserve reserves sequence ranges for the windows of every lakeload job of one table
// (job.Config.SeqReservations), so a window assigned later always has higher sequence numbers.
//
// Every lakeload job of a table reserves each new window's sequence range in one directory shared by
// all of them, <root>/<table id>/seq/ (root: job.Config.SeqReservations), before it writes the window's `assigned`
// record. A reservation is the record <index, 20 digits> created with WriteIfAbsent; index i+1 is
// only ever created by a job that read record i, so the indexes are 1..k without gaps and record
// i+1 starts at or above the end of record i. Hence:
//
//   - ranges of different reservations never overlap, and a window reserved later (higher index)
//     has strictly higher sequence numbers than every window reserved before it — "the later-assigned
//     window wins on equal keys", whatever order the windows commit in;
//   - a base is also above the table's highest sequence number as of the job's latest snapshot and
//     above the job's own earlier windows (the rule without reservations), so foreign commits made
//     before the assignment still lose;
//   - a window's base is stored in its `assigned` record and recovery never reserves again, so a
//     reservation never changes a window's content; a reservation whose `assigned` record was never
//     written (a crash in between, or a lost race for the window) is a harmless gap.
//
// The size reserved is the window's span (row counts, or file sizes for text input: an upper bound
// on its rows, the same amount the job itself advances by), so no window is ever too large for its
// range and sequence numbers grow as they do without reservations.
//
// Cost: a file "hint" names the newest index some job saw; a reservation reads it, reads the
// records from the hinted one up to the first absent index (one read when no other job reserved
// meanwhile), creates the next, and rewrites the hint: about 5 small requests per window, whatever
// the number of windows. Without a usable hint (first use, or a hint naming a missing record) the
// directory is listed once: at 10,000 windows that is 10,000 names, about 10 LIST pages on S3.
// Records are ~200 bytes and are never deleted by lakeload.
package seqreserve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// Reservation is one reservation record: sequence numbers [Base, Base+Size) belong to window
// Window of job Job.
type Reservation struct {
	Index  int64     `json:"index"`
	Base   int64     `json:"base"`
	Size   int64     `json:"size"`
	Job    string    `json:"job"`
	Window int64     `json:"window"`
	Time   time.Time `json:"time"`
}

// End is the first sequence number after the reservation.
func (r Reservation) End() int64 { return r.Base + r.Size }

// attempts bounds the reservations lost to other jobs in one call.
const attempts = 1000

// hintName is the hint file beside the records.
const hintName = "hint"

// Reserver reserves sequence ranges in one table's reservation directory.
type Reserver struct {
	fs  fileio.FileIO
	dir string // <root>/<table id>/seq
}

// Open returns the reserver of table t under root (job.Config.SeqReservations).
func Open(ctx context.Context, t *table.Table, root string) (*Reserver, error) {
	id, err := tableID(ctx, t)
	if err != nil {
		return nil, err
	}
	return &Reserver{fs: t.FS, dir: fileio.Join(root, id, "seq")}, nil
}

// tableID identifies the table across drop and re-create (table.Identity: the creation time of
// its earliest schema and a digest of that schema file).
func tableID(ctx context.Context, t *table.Table) (string, error) {
	id, err := t.Identity(ctx)
	if err != nil {
		return "", fmt.Errorf("sequence reservations: %w", err)
	}
	return id, nil
}

// recordPath is the path of reservation index i.
func (r *Reserver) recordPath(i int64) string { return fileio.Join(r.dir, fmt.Sprintf("%020d", i)) }

// Reserve creates the next reservation of size sequence numbers for window w of job, starting at
// floor or above (at the end of the previous reservation, if that is higher).
func (r *Reserver) Reserve(ctx context.Context, floor, size int64, job string, w int64, now time.Time) (Reservation, error) {
	if size < 0 || floor < 0 {
		return Reservation{}, fmt.Errorf("sequence reservations: window %d: invalid range (floor %d, size %d)", w, floor, size)
	}
	hint := r.readHint(ctx)
	for range attempts {
		last, prev, err := r.latest(ctx, hint)
		if err != nil {
			return Reservation{}, err
		}
		base := floor
		if prev != nil {
			base = max(base, prev.End())
		}
		if base > math.MaxInt64-size {
			return Reservation{}, fmt.Errorf("sequence reservations in %s: window %d of job %s would pass the largest sequence number (base %d, size %d)",
				r.dir, w, job, base, size)
		}
		rec := Reservation{Index: last + 1, Base: base, Size: size, Job: job, Window: w, Time: now.UTC()}
		b, err := json.Marshal(rec)
		if err != nil {
			return Reservation{}, err
		}
		err = r.fs.WriteIfAbsent(ctx, r.recordPath(rec.Index), b)
		if errors.Is(err, fileio.ErrExist) {
			hint = rec.Index // another job took this index: read its record, take the next
			continue
		}
		if err != nil {
			return Reservation{}, fmt.Errorf("sequence reservations: create %s: %w", r.recordPath(rec.Index), err)
		}
		// Advisory: a stale or lost hint only costs reads (latest checks it).
		_ = fileio.WriteFile(ctx, r.fs, fileio.Join(r.dir, hintName), []byte(strconv.FormatInt(rec.Index, 10)))
		return rec, nil
	}
	return Reservation{}, fmt.Errorf("sequence reservations in %s: window %d of job %s lost %d races for the next reservation to other jobs; run again",
		r.dir, w, job, attempts)
}

// List returns every reservation of the table in index order; a missing index in 1..n (which no
// reserver leaves) is an error.
func (r *Reserver) List(ctx context.Context) ([]Reservation, error) {
	last, err := r.listLast(ctx)
	if err != nil {
		return nil, err
	}
	var out []Reservation
	for i := int64(1); i <= last; i++ {
		rec, err := r.read(ctx, i)
		if err != nil {
			return nil, fmt.Errorf("sequence reservation %d of %d: %w", i, last, err)
		}
		out = append(out, *rec)
	}
	return out, nil
}

// readHint returns the index named by the hint file, 0 when absent or unreadable.
func (r *Reserver) readHint(ctx context.Context) int64 {
	b, err := r.fs.ReadFile(ctx, fileio.Join(r.dir, hintName))
	if err != nil {
		return 0
	}
	i, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || i < 0 {
		return 0
	}
	return i
}

// latest returns the highest reservation index and its record (nil when there is none), reading
// forward from index from (0: list the directory). A hint naming a missing record is ignored.
func (r *Reserver) latest(ctx context.Context, from int64) (int64, *Reservation, error) {
	var cur *Reservation
	if from > 0 {
		rec, err := r.read(ctx, from)
		switch {
		case errors.Is(err, fileio.ErrNotExist):
			from = 0
		case err != nil:
			return 0, nil, err
		default:
			cur = rec
		}
	}
	if from == 0 {
		last, err := r.listLast(ctx)
		if err != nil {
			return 0, nil, err
		}
		if last > 0 {
			if cur, err = r.read(ctx, last); err != nil {
				return 0, nil, err
			}
		}
		from = last
	}
	for {
		rec, err := r.read(ctx, from+1)
		if errors.Is(err, fileio.ErrNotExist) {
			return from, cur, nil
		}
		if err != nil {
			return 0, nil, err
		}
		from, cur = from+1, rec
	}
}

// listLast returns the highest index in the directory (0 when empty).
func (r *Reserver) listLast(ctx context.Context) (int64, error) {
	entries, err := r.fs.List(ctx, r.dir)
	if err != nil {
		return 0, fmt.Errorf("sequence reservations: list %s: %w", r.dir, err)
	}
	var last int64
	for _, e := range entries {
		if e.IsDir || len(e.Name) != 20 {
			continue // the hint, backend staging files
		}
		if i, err := strconv.ParseInt(e.Name, 10, 64); err == nil && i > last {
			last = i
		}
	}
	return last, nil
}

// read reads and checks reservation i.
func (r *Reserver) read(ctx context.Context, i int64) (*Reservation, error) {
	p := r.recordPath(i)
	b, err := r.fs.ReadFile(ctx, p)
	if err != nil {
		if errors.Is(err, fileio.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("sequence reservations: read %s: %w", p, err)
	}
	var rec Reservation
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return nil, fmt.Errorf("sequence reservation %s: %v (%w); it is not lakeload's, or damaged: move the directory %s away to start the table's reservations anew while no job of the table runs",
			p, err, spec.ErrCorrupt, r.dir)
	}
	if rec.Index != i || rec.Base < 0 || rec.Size < 0 || rec.Base > math.MaxInt64-rec.Size {
		return nil, fmt.Errorf("sequence reservation %s: index %d, base %d, size %d do not fit its name (%w); move the directory %s away to start the table's reservations anew while no job of the table runs",
			p, rec.Index, rec.Base, rec.Size, spec.ErrCorrupt, r.dir)
	}
	return &rec, nil
}
