package compat

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/maintain"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// TestExpireOraclesReadRetainedSnapshots: lakeload writes 9 snapshots (upserts and deletes, an
// OVERWRITE of the whole table as snapshot 6, then more upserts) and expires all but the last 4.
// Java Paimon and pypaimon then read every retained snapshot completely and equal to the model, and
// a read of an expired snapshot fails (an error, not rows).
func TestExpireOraclesReadRetainedSnapshots(t *testing.T) {
	java, py := oracle.Java(t), oracle.Py(t)
	ctx := context.Background()
	wh := t.TempDir()
	def := tableDef{
		cols: [][2]string{{"dt", "STRING"}, {"id", "BIGINT"}, {"name", "STRING"}, {"v", "BIGINT"}, {"score", "DOUBLE"}},
		pk:   []string{"dt", "id"}, part: []string{"dt"}, options: map[string]string{"bucket": "4"},
	}
	tbl := newTable(t, wh, "expire_pk", def)
	path := tablePath(wh, "expire_pk")
	m := newModel(tbl.Schema)
	want := map[int64][]string{}
	commits := upsertCommits(11, 9, 150, 90)
	for i, cs := range commits {
		var id int64
		if i == 5 {
			m = newModel(tbl.Schema)
			id = overwriteCommit(t, tbl, cs)
		} else {
			id = lakeloadCommit(t, tbl, cs)
		}
		for _, c := range cs {
			if i != 5 || c.Kind == spec.RowKindInsert {
				m.apply(c)
			}
		}
		want[id] = canonLines(t, tbl.Schema.Fields, m.result())
	}
	res, err := maintain.Expire(ctx, tbl, maintain.ExpireOptions{RetainMin: 4, RetainMax: 100, TimeRetained: time.Minute,
		MaxDeletes: 50, Now: func() time.Time { return time.Now().Add(time.Hour) }})
	if err != nil {
		t.Fatal(err)
	}
	data := 0
	for _, f := range res.Files {
		if f.Kind == maintain.KindData {
			data++
		}
	}
	if res.Begin != 1 || res.End != 6 || data == 0 {
		t.Fatalf("expired [%d, %d) with %d data files deleted; want [1, 6) and the files the overwrite replaced", res.Begin, res.End, data)
	}
	for id := int64(6); id <= 9; id++ {
		diffLinesAs(t, fmt.Sprintf("java snapshot %d", id), want[id], java.Read(path, oracle.ReadOpts{Snapshot: id}))
		diffLinesAs(t, fmt.Sprintf("pypaimon snapshot %d", id), want[id], py.Read(path, oracle.ReadOpts{Snapshot: id}))
		diffLinesAs(t, fmt.Sprintf("lakeload snapshot %d", id), want[id], lakeloadRows(t, tbl, id))
	}
	diffLinesAs(t, "java latest", want[9], java.Read(path, oracle.ReadOpts{}))
	diffLinesAs(t, "pypaimon latest", want[9], py.Read(path, oracle.ReadOpts{}))
	for id := int64(1); id <= 5; id++ {
		if rows, err := java.TryRead(path, oracle.ReadOpts{Snapshot: id}); err == nil {
			t.Errorf("java read expired snapshot %d: %d rows, want an error", id, len(rows))
		}
		if rows, err := py.TryRead(path, oracle.ReadOpts{Snapshot: id}); err == nil {
			t.Errorf("pypaimon read expired snapshot %d: %d rows, want an error", id, len(rows))
		}
	}
}

// overwriteCommit writes the inserts of changes and commits them as an OVERWRITE of the whole table.
func overwriteCommit(t *testing.T, tb *table.Table, changes []change) int64 {
	t.Helper()
	ctx := context.Background()
	w, err := write.New(ctx, tb, write.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		if c.Kind != spec.RowKindInsert {
			continue
		}
		if err := w.WriteRow(ctx, c.Row, c.Kind); err != nil {
			t.Fatal(err)
		}
	}
	msgs, err := w.Prepare(ctx)
	if err != nil {
		t.Fatal(err)
	}
	res, err := commit.Commit(ctx, tb, msgs, commit.Options{User: uuid.NewString(), Identifier: commit.BatchIdentifier,
		LookupAfter: -1, Overwrite: &commit.Overwrite{Table: true}})
	if err != nil {
		t.Fatal(err)
	}
	return res.SnapshotID
}
