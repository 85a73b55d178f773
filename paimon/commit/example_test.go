package commit_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// ExampleCommit writes rows to an append table and commits them as one snapshot carrying a marker
// (commit user, identifier, properties). Committing the same messages again with a lookup finds the
// marker and writes nothing: the idempotent commit a resumable loader is built on.
func ExampleCommit() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "lakeload-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	cat := catalog.New(local.New(), dir)
	id := catalog.Identifier{Database: "db", Table: "events"}
	name, _ := spec.ParseType("STRING")
	schema, err := spec.NewSchema([]spec.DataField{{ID: 0, Name: "name", Type: name}}, nil, nil, nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	if err := cat.CreateDatabase(ctx, id.Database, true); err != nil {
		log.Fatal(err)
	}
	if err := cat.CreateTable(ctx, id, schema, false); err != nil {
		log.Fatal(err)
	}
	tbl, err := cat.LoadTable(ctx, id)
	if err != nil {
		log.Fatal(err)
	}

	w, err := write.New(ctx, tbl, write.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, v := range []string{"a", "b", "c"} {
		if err := w.WriteRow(ctx, []any{v}, spec.RowKindInsert); err != nil {
			log.Fatal(err)
		}
	}
	msgs, err := w.Prepare(ctx) // data files written; serializable commit messages
	if err != nil {
		log.Fatal(err)
	}
	opts := commit.Options{User: "my-loader", Identifier: 7, Properties: map[string]string{"source": "batch-7"}, LookupAfter: 0}
	res, err := commit.Commit(ctx, tbl, msgs, opts)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("snapshot", res.SnapshotID, "already committed:", res.AlreadyCommitted)

	res, err = commit.Commit(ctx, tbl, msgs, opts) // a retry after an unknown outcome
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("snapshot", res.SnapshotID, "already committed:", res.AlreadyCommitted)

	found, err := tbl.Snapshots().FindCommits(ctx, table.CommitQuery{User: "my-loader", Identifier: 7}, 0)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("markers:", len(found), found[0].Properties["source"])
	// Output:
	// snapshot 1 already committed: false
	// snapshot 1 already committed: true
	// markers: 1 batch-7
}
