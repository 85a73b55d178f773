package write_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/write"
)

// TestRefusesOptionsNotReproduced: issue 16 finding 3. A table with Paimon's Iceberg compatibility
// (metadata.iceberg.storage) used to be written without Iceberg metadata, silently; it and the
// other options whose effect lakeload does not reproduce are refused (exit 4: ErrUnsupportedTable)
// with the option and the advice, and their harmless values stay writable.
func TestRefusesOptionsNotReproduced(t *testing.T) {
	kv := [][2]string{{"k", "INT"}, {"v", "STRING"}}
	cases := []struct {
		opts map[string]string
		pk   []string
		want []string // substrings of the error; nil = writable
	}{
		{map[string]string{"metadata.iceberg.storage": "table-location"}, nil,
			[]string{"metadata.iceberg.storage=table-location", "Iceberg", "'metadata.iceberg.storage'='disabled'"}},
		{map[string]string{"metadata.iceberg.storage": "hive-catalog", "bucket": "1"}, []string{"k"}, []string{"metadata.iceberg.storage=hive-catalog"}},
		{map[string]string{"metadata.iceberg.storage": "DISABLED"}, nil, nil},
		{map[string]string{"metadata.iceberg.storage": "disabled", "metadata.iceberg.uri": "thrift://x"}, nil, nil},
		{map[string]string{"data-file.path-directory": "data"}, nil, []string{"data-file.path-directory=data", "unset it"}},
		{map[string]string{"partition.expiration-time": "7 d"}, nil, []string{"partition.expiration-time", "expire_partitions"}},
		{map[string]string{"tag.automatic-creation": "process-time"}, nil, []string{"tag.automatic-creation"}},
		{map[string]string{"tag.automatic-creation": "none"}, nil, nil},
		{map[string]string{"fields.v.sequence-group": "k", "bucket": "1"}, []string{"k"}, []string{"fields.v.sequence-group"}},
		{map[string]string{"upsert-key": "k"}, nil, []string{"upsert-key", "primary-key table"}},
		{map[string]string{"commit.callbacks": "a.B"}, nil, []string{"commit.callbacks"}},
		{map[string]string{"type": "format-table"}, nil, []string{"type=format-table"}},
		{map[string]string{"branch": "dev"}, nil, []string{"branch=dev"}},
		{map[string]string{"write-only": "true", "sink.parallelism": "4", "orc.compress": "ZLIB", "file-index.bloom-filter.columns": "k"}, nil, nil},
	}
	for _, c := range cases {
		tbl := newTable(t, kv, nil, c.pk, c.opts)
		err := write.CheckWritable(tbl)
		_, newErr := write.New(context.Background(), tbl, write.Options{})
		for _, e := range []error{err, newErr} {
			if c.want == nil {
				if e != nil {
					t.Errorf("%v: refused: %v", c.opts, e)
				}
				continue
			}
			if !errors.Is(e, write.ErrUnsupportedTable) {
				t.Errorf("%v: got %v, want ErrUnsupportedTable", c.opts, e)
				continue
			}
			for _, w := range c.want {
				if !strings.Contains(e.Error(), w) {
					t.Errorf("%v: error %q does not mention %q", c.opts, e, w)
				}
			}
		}
	}
}
