package file

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakeload/lakeload/codec/pqflat"
	"github.com/lakeload/lakeload/source"
)

// TestParquetFlatDamagedNamesFile reads a file of flat columns (read by codec/pqflat) with one
// byte changed at a time: the rows read are the file's, or the error names the file.
func TestParquetFlatDamagedNamesFile(t *testing.T) {
	in := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}, {Name: "v", Type: arrow.PrimitiveTypes.Float64, Nullable: true}}, nil)
	var rows []string
	for i := 0; i < 30; i++ {
		if i%4 == 0 {
			rows = append(rows, fmt.Sprintf(`{"id":%d}`, i))
		} else {
			rows = append(rows, fmt.Sprintf(`{"id":%d,"s":"v%d é","v":%d.5}`, i, i%3, i))
		}
	}
	dir := t.TempDir()
	p := writeParquet(t, dir, "flat.parquet", in, "["+strings.Join(rows, ",")+"]", 10)
	tbl := table(t, "id BIGINT NOT NULL", "s STRING", "v DOUBLE")
	sp := split(t, p)
	r, err := Open(context.Background(), osFS{}, sp, tbl, source.MappingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if pr, ok := r.(*parquetReader); !ok {
		t.Fatalf("reader %T", r)
	} else if _, fast := pr.rr.(*pqflat.RecordReader); !fast {
		t.Fatalf("the file is read by %T, not pqflat", pr.rr)
	}
	_ = r.Close()
	bs, err := readAll(t, sp, tbl, source.MappingOptions{})
	if err != nil || len(bs) == 0 || bs[0].Record.NumRows() != 30 {
		t.Fatalf("valid file: %v", err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	damaged := dir + "/damaged.parquet"
	for pos := 4; pos < len(data)-8; pos += 5 {
		b := append([]byte(nil), data...)
		b[pos] ^= 0x5a
		if err := os.WriteFile(damaged, b, 0o644); err != nil {
			t.Fatal(err)
		}
		sp := sp
		sp.Path = damaged
		if _, err := readAll(t, sp, tbl, source.MappingOptions{}); err != nil && !strings.Contains(err.Error(), damaged) {
			t.Fatalf("byte %d: error %q does not name the file", pos, err)
		}
	}
}
