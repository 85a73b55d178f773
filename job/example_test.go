package job_test

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec"
)

// Example runs an exactly-once load job: CSV files into a primary-key table, resumable by running the
// same Config again (here the second run finds the job done).
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "lakeload-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	// A table shop.orders (id BIGINT primary key, amount BIGINT) with 2 buckets.
	fs := local.New()
	cat := catalog.New(fs, filepath.Join(dir, "warehouse"))
	id := catalog.Identifier{Database: "shop", Table: "orders"}
	key, err := spec.ParseType("BIGINT NOT NULL")
	if err != nil {
		log.Fatal(err)
	}
	amount, _ := spec.ParseType("BIGINT")
	schema, err := spec.NewSchema([]spec.DataField{{ID: 0, Name: "id", Type: key}, {ID: 1, Name: "amount", Type: amount}},
		nil, []string{"id"}, map[string]string{"bucket": "2"}, nil)
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

	// Two input files; the second updates order 2.
	in := filepath.Join(dir, "in")
	_ = os.MkdirAll(in, 0o755)
	_ = os.WriteFile(filepath.Join(in, "a.csv"), []byte("id,amount\n1,10\n2,20\n"), 0o644)
	_ = os.WriteFile(filepath.Join(in, "b.csv"), []byte("id,amount\n2,25\n3,30\n"), 0o644)

	cfg := job.Config{
		Spec:    job.Spec{Name: "backfill", Input: job.Input{From: []string{filepath.Join(in, "*.csv")}}},
		Table:   tbl,
		InputFS: fs,
		Store:   checkpoint.NewStore(fs, filepath.Join(dir, "checkpoints", "backfill")),
		Logger:  slog.New(slog.DiscardHandler),
	}
	res, err := job.Run(ctx, cfg)
	if err != nil {
		log.Fatal(err) // run the same Config again to resume
	}
	fmt.Printf("windows %d, rows %d, last snapshot %d\n", res.Windows, res.RowsWritten, res.LastSnapshotID)

	again, err := job.Run(ctx, cfg)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("already done:", again.AlreadyDone)

	// Read the table back as Arrow record batches (the latest snapshot, merged by key).
	plan, err := read.Scan(ctx, tbl, read.ScanOptions{})
	if err != nil {
		log.Fatal(err)
	}
	var rows []string
	err = read.Records(ctx, tbl, plan, 1024, func(rec arrow.RecordBatch) error {
		ids, amounts := rec.Column(0).(*array.Int64), rec.Column(1).(*array.Int64)
		for i := range int(rec.NumRows()) {
			rows = append(rows, fmt.Sprintf("%d=%d", ids.Value(i), amounts.Value(i)))
		}
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	slices.Sort(rows) // buckets are read one after another
	fmt.Println(rows)
	// Output:
	// windows 1, rows 4, last snapshot 1
	// already done: true
	// [1=10 2=25 3=30]
}
