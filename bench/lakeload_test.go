package bench

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// newTable creates table db.t under dir on the local file system: partitioned by dt, bucket 8, and with
// primary key (dt, id) when pk is set (else an append table with bucket-key id).
func newTable(ctx context.Context, dir string, pk bool) (*table.Table, error) {
	fields := make([]spec.DataField, len(TableColumns))
	for i, c := range TableColumns {
		typ, err := spec.ParseType(c[1])
		if err != nil {
			return nil, err
		}
		fields[i] = spec.DataField{Name: c[0], Type: typ}
	}
	opts := map[string]string{"bucket": "8", "file.format": "parquet", "file.compression": "zstd"}
	var keys []string
	if pk {
		keys = []string{"dt", "id"}
	} else {
		opts["bucket-key"] = "id"
	}
	s, err := spec.NewSchema(fields, []string{"dt"}, keys, opts, nil)
	if err != nil {
		return nil, err
	}
	fs := local.New()
	if err := table.NewSchemas(fs, dir).Create(ctx, s); err != nil {
		return nil, err
	}
	return table.Open(ctx, fs, dir, "db.t")
}

// runLakeload writes the input into a new table under dir with write.New/Write/Prepare and commits once,
// like `lakeload write`. It returns the rows given to the writer.
func runLakeload(ctx context.Context, paths []string, dir string, pk bool) (int64, error) {
	t, err := newTable(ctx, dir, pk)
	if err != nil {
		return 0, err
	}
	w, err := write.New(ctx, t, write.Options{})
	if err != nil {
		return 0, err
	}
	var rows int64
	err = ReadInput(ctx, paths, func(rec arrow.RecordBatch) error {
		rows += rec.NumRows()
		return w.Write(ctx, rec, nil)
	})
	if err != nil {
		return rows, err
	}
	msgs, err := w.Prepare(ctx)
	if err != nil {
		return rows, err
	}
	res, err := commit.Commit(ctx, t, msgs, commit.Options{User: "bench", Identifier: commit.BatchIdentifier, LookupAfter: -1})
	if err != nil {
		return rows, err
	}
	if res.SnapshotID != 1 {
		return rows, fmt.Errorf("committed snapshot %d, want 1", res.SnapshotID)
	}
	return rows, nil
}
