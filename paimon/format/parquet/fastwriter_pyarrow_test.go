package parquet

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// pyarrowInterpreter is the oracles' Python, which has pyarrow: $LAKELOAD_PY, else the cache's venv
// ($LAKELOAD_CACHE or ~/.cache/lakeload); "" if none. (This package may not import internal/oracle.)
func pyarrowInterpreter() string {
	if py := os.Getenv("LAKELOAD_PY"); py != "" {
		return py
	}
	cache := os.Getenv("LAKELOAD_CACHE")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "lakeload")
	}
	if py := filepath.Join(cache, "venv", "bin", "python"); fileExists(py) {
		return py
	}
	return ""
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// pyarrowCells reads a file with pyarrow and prints each column's values as pyCell renders them,
// plus each row group's footer statistics as pyarrow decodes them.
const pyarrowCells = `
import sys, json, struct
import pyarrow as pa, pyarrow.parquet as pq
pf = pq.ParquetFile(sys.argv[1])
t = pf.read()
cols = {}
for i, f in enumerate(t.schema):
    col, ty = t.column(i), f.type
    if pa.types.is_string(ty): col = col.cast(pa.binary())
    elif pa.types.is_timestamp(ty): col = col.cast(pa.int64())
    elif pa.types.is_date(ty) or pa.types.is_time(ty): col = col.cast(pa.int32())
    out = []
    for v in col.to_pylist():
        if v is None: out.append(None)
        elif isinstance(v, bool): out.append("true" if v else "false")
        elif isinstance(v, int): out.append(str(v))
        elif isinstance(v, float): out.append(struct.pack(">f" if pa.types.is_float32(ty) else ">d", v).hex())
        else: out.append(v.hex())
    cols[f.name] = out
stats = []
for g in range(pf.metadata.num_row_groups):
    rg = pf.metadata.row_group(g)
    for c in range(rg.num_columns):
        s = rg.column(c).statistics
        stats.append([g, rg.column(c).path_in_schema, s.null_count if s is not None else None])
print(json.dumps({"cols": cols, "stats": stats}))
`

// pyCell renders value i of arr like pyarrowCells.
func pyCell(arr arrow.Array, i int) any {
	if arr.IsNull(i) {
		return nil
	}
	switch a := arr.(type) {
	case *array.Float64:
		return fmt.Sprintf("%016x", math.Float64bits(a.Value(i)))
	case *array.Float32:
		return fmt.Sprintf("%08x", math.Float32bits(a.Value(i)))
	case *array.String:
		return hex.EncodeToString([]byte(a.Value(i)))
	case *array.Binary:
		return hex.EncodeToString(a.Value(i))
	case *array.Timestamp:
		return fmt.Sprint(int64(a.Value(i)))
	case *array.Date32:
		return fmt.Sprint(int32(a.Value(i)))
	case *array.Time32:
		return fmt.Sprint(int32(a.Value(i)))
	}
	return arr.ValueStr(i)
}

// TestPyarrowReadsFastPathFile: pyarrow (Arrow C++'s Parquet reader, not arrow-go) reads a
// fast-path file (dictionary and PLAIN pages, dictionary fallback, nulls, several pages and row
// groups, zstd) as the values written, and finds each chunk's null count in the footer.
func TestPyarrowReadsFastPathFile(t *testing.T) {
	py := pyarrowInterpreter()
	if py == "" {
		t.Skip("no pyarrow interpreter (LAKELOAD_PY)")
	}
	fields := diffFields()
	r := rand.New(rand.NewPCG(7, 18))
	var batches []arrow.RecordBatch
	for _, start := range []int{0, 7000, 14000, 21000} {
		b := diffBatch(t, fields, r, start, 7000)
		defer b.Release()
		batches = append(batches, b)
	}
	fast, _, _, _ := writeBoth(t, fields, batches, WriterOptions{RowGroupRows: 12000})
	path := filepath.Join(t.TempDir(), "fast.parquet")
	if err := os.WriteFile(path, fast, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "-c", pyarrowCells, path)
	cmd.Dir = t.TempDir()
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("pyarrow failed: %v\n%s", err, stderr)
	}
	var got struct {
		Cols  map[string][]any
		Stats [][]any
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	nulls := map[string]int64{}
	for c, f := range fields {
		var want []any
		for _, rec := range batches {
			col := rec.Column(c)
			for i := 0; i < col.Len(); i++ {
				want = append(want, pyCell(col, i))
				if col.IsNull(i) {
					nulls[f.Name]++
				}
			}
		}
		g := got.Cols[f.Name]
		if len(g) != len(want) {
			t.Fatalf("column %s: pyarrow read %d values, want %d", f.Name, len(g), len(want))
		}
		for i := range want {
			if g[i] != want[i] {
				t.Fatalf("column %s row %d: pyarrow %v, want %v", f.Name, i, g[i], want[i])
			}
		}
	}
	sum := map[string]int64{}
	for _, s := range got.Stats {
		if s[2] == nil {
			t.Fatalf("pyarrow finds no statistics for %v", s)
		}
		sum[s[1].(string)] += int64(s[2].(float64))
	}
	for _, f := range fields {
		if sum[f.Name] != nulls[f.Name] {
			t.Errorf("column %s: footer null counts sum to %d, want %d", f.Name, sum[f.Name], nulls[f.Name])
		}
	}
}
