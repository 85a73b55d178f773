package sim

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/maintain"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// foreignUser is the commit user of the other writer of the table in world events.
const foreignUser = "foreign-writer"

// worldEvent is what happens to the table while a zombie is paused, besides the new driver's run:
// other writers commit, and snapshot expiry runs (honouring the job's pin, or ignoring it as an
// engine whose expiry knows no consumers does).
type worldEvent struct {
	name       string
	foreign    int  // rows another writer commits, one snapshot each
	expire     bool // then expire every snapshot Paimon's rules allow (keep 1, no age)
	ignorePins bool // expiry ignores consumers (the job's pin)
}

func (ev worldEvent) String() string { return ev.name }

// worldEvents are the events the expiry zombie histories run.
func worldEvents() []worldEvent {
	return []worldEvent{
		{name: "foreign commits + expiry honouring pins", foreign: 2, expire: true},
		{name: "foreign commits + expiry ignoring pins", foreign: 2, expire: true, ignorePins: true},
	}
}

// foreignRow is the n-th row of the other writer: a key the input never uses, so its place in the
// expected table does not depend on the order of commits.
func (k kind) foreignRow(n int) row {
	if k.opColumn != "" {
		return row{op: "+I", vals: []any{"z", int64(1000 + n), fmt.Sprintf("f%d", n)}}
	}
	return row{vals: []any{int64(1000 + n), int64(7)}}
}

// apply runs ev on w (outside every simulated process).
func (w *world) apply(ev worldEvent) error {
	ctx := context.Background()
	tbl, err := table.Open(ctx, w.fs, tablePath, "db.t")
	if err != nil {
		return err
	}
	for range ev.foreign {
		r := w.sc.k.foreignRow(len(w.extra))
		wr, err := write.New(ctx, tbl, write.Options{})
		if err != nil {
			return err
		}
		if err := wr.WriteRow(ctx, r.vals, spec.RowKindInsert); err != nil {
			return err
		}
		msgs, err := wr.Prepare(ctx)
		if err != nil {
			return err
		}
		if _, err := commit.Commit(ctx, tbl, msgs, commit.Options{User: foreignUser, Identifier: commit.BatchIdentifier, LookupAfter: -1}); err != nil {
			return err
		}
		w.extra = append(w.extra, r)
	}
	if ev.expire {
		res, err := maintain.Expire(ctx, tbl, maintain.ExpireOptions{RetainMin: 1, RetainMax: 1 << 30, MaxDeletes: 1 << 20,
			IgnoreConsumers: ev.ignorePins, Now: func() time.Time { return time.Now().Add(time.Hour) }})
		if err != nil {
			return err
		}
		w.note("event %s: expired %v", ev, res.Expired)
	}
	return nil
}

// expected is the table the input of windows (all, when nil) and the other writer's rows make.
func (w *world) expected(committed func(split int) bool) []string {
	var rows []row
	if committed == nil {
		rows = slices.Clone(w.sc.rows)
	} else {
		for i := range w.sc.splits {
			if committed(i) {
				rows = append(rows, w.sc.splitRows[i]...)
			}
		}
	}
	return w.sc.k.expect(append(rows, w.extra...))
}

// unverifiable tells the stop of a job whose lookup range expired (expiry ignored its pin): the
// correct outcome then is to stop, not to guess (I3).
func unverifiable(err error) bool {
	return checkpoint.IsStop(err) && (strings.Contains(err.Error(), "cannot be verified") || strings.Contains(err.Error(), "expired before the window was published"))
}

// checkStopped checks a history whose job stopped because expiry ignored its pin: the invariants,
// and a table that holds exactly the windows the store or the table shows committed (each once) and
// the other writer's rows — and possibly, once, the first window not shown committed: the window
// whose outcome the job could not verify (its marker expired unrecorded), which a person checks.
func (w *world) checkStopped(ctx context.Context) error {
	if err := w.checkInvariants(ctx); err != nil {
		return err
	}
	st, err := checkpoint.NewStore(w.fs, storePath).Load(ctx)
	if err != nil {
		return err
	}
	j, _ := st.Job()
	markers := map[int64]bool{}
	snaps := table.NewSnapshots(w.fs, tablePath)
	ids, err := snaps.IDs(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		s, err := snaps.Get(ctx, id)
		if err != nil {
			return err
		}
		if s.CommitUser == j.CommitUser {
			markers[s.CommitIdentifier] = true
		}
	}
	in := map[int]bool{}
	var unknown []int
	for _, ws := range st.Windows() {
		switch {
		case ws.Committed != nil || markers[ws.Window]:
			for _, s := range ws.Assigned.Splits {
				in[s] = true
			}
		case unknown == nil:
			unknown = append([]int{}, ws.Assigned.Splits...)
		}
	}
	got, err := w.tableRows(ctx)
	if err != nil {
		return fmt.Errorf("read table: %w", err)
	}
	without := w.expected(func(s int) bool { return in[s] })
	with := w.expected(func(s int) bool { return in[s] || slices.Contains(unknown, s) })
	if !slices.Equal(got, without) && !slices.Equal(got, with) {
		return fmt.Errorf("the job stopped; table rows\n    %v\nwant the committed windows and the other writer's rows\n    %v\nor also the unverified window\n    %v", got, without, with)
	}
	return nil
}
