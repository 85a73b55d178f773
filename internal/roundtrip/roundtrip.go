// Package roundtrip writes rows into a Paimon table through lakeload's writer and committer for
// tests of the table layer and the compatibility harness: the "write a table, then read it back"
// half that write, read, commit, compact and internal/compat tests share. Creating the table is
// paimon/table/tabletest's; reading it back stays with each caller (paimon/read's own tests cannot
// import a package that imports paimon/read). A failure stops the calling test.
package roundtrip

import (
	"context"
	"testing"

	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// Change is one row written with its row kind.
type Change struct {
	Kind spec.RowKind
	Row  []any
}

// Ins is an insert (+I) of row.
func Ins(row ...any) Change { return Change{spec.RowKindInsert, row} }

// Del is a delete (-D) of row.
func Del(row ...any) Change { return Change{spec.RowKindDelete, row} }

// Write writes changes with a new writer of options o and returns the prepared, uncommitted
// commit messages.
func Write(t testing.TB, tbl *table.Table, o write.Options, changes []Change) []table.CommitMessage {
	t.Helper()
	ctx := context.Background()
	w, err := write.New(ctx, tbl, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		if err := w.WriteRow(ctx, c.Row, c.Kind); err != nil {
			t.Fatal(err)
		}
	}
	msgs, err := w.Prepare(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return msgs
}

// Commit commits msgs as one batch snapshot of commit user user (no look-up of earlier attempts)
// and returns its id.
func Commit(t testing.TB, tbl *table.Table, msgs []table.CommitMessage, user string) int64 {
	t.Helper()
	res, err := commit.Commit(context.Background(), tbl, msgs, commit.Options{User: user, Identifier: commit.BatchIdentifier, LookupAfter: -1})
	if err != nil {
		t.Fatal(err)
	}
	if res.AlreadyCommitted {
		t.Fatalf("commit of %s: %+v: already committed although no look-up was asked for", user, res)
	}
	return res.SnapshotID
}

// WriteCommit is Write then Commit: changes become one snapshot of user, whose id it returns.
func WriteCommit(t testing.TB, tbl *table.Table, o write.Options, user string, changes []Change) int64 {
	t.Helper()
	return Commit(t, tbl, Write(t, tbl, o, changes), user)
}
