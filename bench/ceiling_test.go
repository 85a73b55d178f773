package bench

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
)

// TestArrowGoCeilingLayouts writes a small input with the arrow-go ceiling in both layouts and checks what the
// runner relies on: every row, the PK layout's three system columns first, row groups of at most the asked
// rows, and a dictionary on exactly the columns asked for (what dictColumns reads back from a file).
func TestArrowGoCeilingLayouts(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	const rows = 5000
	paths, err := Generate(in, rows)
	if err != nil {
		t.Fatal(err)
	}
	for _, pk := range []bool{false, true} {
		wh := filepath.Join(dir, map[bool]string{false: "append", true: "pk"}[pk])
		out := filepath.Join(wh, "db.db", "t", "dt=x", "bucket-0") // where dictColumns looks for data files
		n, err := runArrowGoCeiling(context.Background(), paths, out, ceilingSettings{PK: pk, Dict: []string{"city", "dt"}, RowGroup: 1000})
		if err != nil {
			t.Fatalf("pk=%v: %v", pk, err)
		}
		if n != rows {
			t.Errorf("pk=%v: wrote %d rows, want %d", pk, n, rows)
		}
		pf, err := file.OpenParquetFile(filepath.Join(out, "ceiling.parquet"), false)
		if err != nil {
			t.Fatal(err)
		}
		md := pf.MetaData()
		wantCols := len(InputSchema.Fields())
		if pk {
			wantCols += 3
			if c := md.Schema.Column(0).Name(); c != "_KEY_id" {
				t.Errorf("pk layout starts with %q, want _KEY_id", c)
			}
		}
		if md.Schema.NumColumns() != wantCols || md.NumRows != rows || md.NumRowGroups() < rows/1000 {
			t.Errorf("pk=%v: %d columns, %d rows, %d row groups", pk, md.Schema.NumColumns(), md.NumRows, md.NumRowGroups())
		}
		dict, files, err := dictColumns(wh)
		if err != nil || files != 1 || !slices.Equal(dict, []string{"city", "dt"}) {
			t.Errorf("pk=%v: dictionary on %v in %d files (%v), want [city dt] in 1", pk, dict, files, err)
		}
		pf.Close()
	}
}
