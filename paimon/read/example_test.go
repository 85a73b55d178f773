package read_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/write"
)

// ExampleParsePredicate filters and projects a scan: the predicate prunes partitions, buckets and
// data files in read.Scan (Plan.Pruned counts them), Reader.Where keeps only matching rows (after
// merging, in primary-key tables) and Reader.Select decodes only the columns asked for.
func ExampleParsePredicate() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "lakeload-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	cat := catalog.New(local.New(), dir)
	id := catalog.Identifier{Database: "shop", Table: "orders"}
	str, _ := spec.ParseType("STRING")
	big, _ := spec.ParseType("BIGINT")
	schema, err := spec.NewSchema([]spec.DataField{{ID: 0, Name: "dt", Type: str}, {ID: 1, Name: "id", Type: big},
		{ID: 2, Name: "customer", Type: str}}, []string{"dt"}, nil, map[string]string{"bucket": "2", "bucket-key": "id"}, nil)
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
	for i := int64(1); i <= 8; i++ {
		dt := []string{"2024-03-01", "2024-03-02"}[i%2]
		if err := w.WriteRow(ctx, []any{dt, i, fmt.Sprint("c", i)}, spec.RowKindInsert); err != nil {
			log.Fatal(err)
		}
	}
	msgs, err := w.Prepare(ctx)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := commit.Commit(ctx, tbl, msgs, commit.Options{User: "example", Identifier: commit.BatchIdentifier, LookupAfter: -1}); err != nil {
		log.Fatal(err)
	}

	filter, err := read.ParsePredicate("dt = '2024-03-02' AND id > 2", tbl.Schema.Fields)
	if err != nil {
		log.Fatal(err)
	}
	plan, err := read.Scan(ctx, tbl, read.ScanOptions{Filter: filter})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("partitions pruned:", plan.Pruned.Partitions)
	r, err := read.NewReader(tbl, plan.Schema)
	if err != nil {
		log.Fatal(err)
	}
	if err := r.Where(filter); err != nil {
		log.Fatal(err)
	}
	if err := r.Select([]int{1}); err != nil { // only id; dt is read for the filter, customer not at all
		log.Fatal(err)
	}
	var ids []int64
	for _, s := range plan.Splits {
		if err := r.ReadSplit(ctx, s, func(row []any) error { ids = append(ids, row[1].(int64)); return nil }); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println("rows:", len(ids))

	_, err = read.ParsePredicate("dt = '2024-03-02' AND idd > 2", tbl.Schema.Fields)
	fmt.Println(err)
	// Output:
	// partitions pruned: 1
	// rows: 3
	// at position 23 (near "idd > 2"): no column "idd" (columns: dt, id, customer)
}
