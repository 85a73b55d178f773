package parquet

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/spec"
)

// pyarrowDump reads a Parquet file with pyarrow and prints, per column, its Arrow type and its
// values in a canonical JSON form (temporal values as integers of their unit).
const pyarrowDump = `
import sys, json, decimal
import pyarrow as pa, pyarrow.parquet as pq
t = pq.read_table(sys.argv[1])
def canon(v):
    if v is None: return None
    if isinstance(v, bool): return v
    if isinstance(v, int): return str(v)
    if isinstance(v, float): return repr(v)
    if isinstance(v, decimal.Decimal): return format(v, 'f')
    if isinstance(v, str): return v
    if isinstance(v, bytes): return v.hex()
    if isinstance(v, dict): return [canon(x) for x in v.values()]
    if isinstance(v, (list, tuple)): return [canon(x) for x in v]
    raise TypeError(type(v))
out = {}
for i, f in enumerate(t.schema):
    col = t.column(i)
    if pa.types.is_timestamp(f.type): col = col.cast(pa.int64())
    elif pa.types.is_date(f.type) or pa.types.is_time(f.type): col = col.cast(pa.int32())
    out[f.name] = {"type": str(f.type), "values": [canon(v) for v in col.to_pylist()]}
print(json.dumps(out))
`

func TestPyarrowReadsWrittenFile(t *testing.T) {
	py := pyarrowInterpreter()
	if py == "" {
		t.Skip("no pyarrow interpreter (LAKELOAD_PY)")
	}
	fields := allTypesFields()
	rows := allTypesRows(40)
	data, _ := writeRows(t, fields, rows, 15, WriterOptions{RowGroupRows: 16})
	path := filepath.Join(t.TempDir(), "data.parquet")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "-c", pyarrowDump, path)
	cmd.Dir = t.TempDir() // keep stray modules of the package dir off sys.path
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("pyarrow failed: %v\n%s", err, stderr)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	wantTypes := map[string]string{
		"i8": "int8", "i16": "int16", "d9": "decimal128(9, 2)", "d38": "decimal128(38, 10)",
		"chr": "string", "bin": "binary", "date": "date32[day]", "time": "time32[ms]",
		"ts0": "timestamp[ms]", "ts6": "timestamp[us]", "ts9": "timestamp[ns]",
		"ltz3": "timestamp[ms, tz=UTC]", "ltz6": "timestamp[us, tz=UTC]", "ltz9": "timestamp[ns]",
	}
	for c, f := range fields {
		var col struct {
			Type   string
			Values []any
		}
		if err := json.Unmarshal(got[f.Name], &col); err != nil {
			t.Fatalf("column %s: %v", f.Name, err)
		}
		if w, ok := wantTypes[f.Name]; ok && col.Type != w {
			t.Errorf("column %s: pyarrow type %s, want %s", f.Name, col.Type, w)
		}
		if len(col.Values) != len(rows) {
			t.Fatalf("column %s: pyarrow read %d values, want %d", f.Name, len(col.Values), len(rows))
		}
		for r := range rows {
			want := canonDatum(f.Type, rows[r][c], col.Type)
			if !canonEqual(col.Values[r], want) {
				t.Fatalf("column %s row %d: pyarrow %#v, want %#v", f.Name, r, col.Values[r], want)
			}
		}
	}
}

// canonDatum renders a Datum like pyarrowDump does; pyType gives the unit of temporal columns.
func canonDatum(ty spec.DataType, v any, pyType string) any {
	if v == nil {
		return nil
	}
	switch ty.Root {
	case spec.Boolean:
		return v
	case spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt, spec.Date, spec.Time:
		return fmt.Sprint(v)
	case spec.Float, spec.Double:
		return v
	case spec.Decimal:
		return fixedDecimal(v.(spec.DecimalValue).Unscaled, ty.Scale)
	case spec.Char, spec.VarChar:
		return v
	case spec.Binary, spec.VarBinary:
		return hex.EncodeToString(v.([]byte))
	case spec.Timestamp, spec.TimestampLTZ:
		unit := arrow.Nanosecond
		switch {
		case strings.HasPrefix(pyType, "timestamp[ms"):
			unit = arrow.Millisecond
		case strings.HasPrefix(pyType, "timestamp[us"):
			unit = arrow.Microsecond
		}
		n, err := arrowconv.TimestampToUnit(v.(spec.TimestampValue), unit)
		if err != nil {
			panic(err)
		}
		return strconv.FormatInt(n, 10)
	case spec.Array:
		var out []any
		for _, e := range v.([]any) {
			out = append(out, canonDatum(*ty.Elem, e, ""))
		}
		return out
	case spec.Map:
		var out []any
		for _, e := range v.([]spec.MapEntry) {
			out = append(out, []any{canonDatum(*ty.Elem, e.Key, ""), canonDatum(*ty.Value, e.Value, "")})
		}
		return out
	case spec.Multiset:
		var keys []any
		counts := map[any]int{}
		for _, e := range v.([]any) {
			if counts[e] == 0 {
				keys = append(keys, e)
			}
			counts[e]++
		}
		var out []any
		for _, k := range keys {
			out = append(out, []any{canonDatum(*ty.Elem, k, ""), fmt.Sprint(counts[k])})
		}
		return out
	case spec.Row:
		var out []any
		for k, f := range ty.Fields {
			out = append(out, canonDatum(f.Type, v.([]any)[k], ""))
		}
		return out
	}
	panic("unexpected type")
}

func fixedDecimal(u *big.Int, scale int) string {
	s := new(big.Int).Abs(u).String()
	if scale > 0 {
		if len(s) <= scale {
			s = strings.Repeat("0", scale-len(s)+1) + s
		}
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if u.Sign() < 0 {
		s = "-" + s
	}
	return s
}

// canonEqual compares pyarrow's JSON value with a canonical Datum (floats numerically).
func canonEqual(py, want any) bool {
	switch w := want.(type) {
	case nil:
		return py == nil
	case float32, float64:
		s, ok := py.(string)
		if !ok {
			return false
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return false
		}
		var x float64
		if v, ok := w.(float32); ok {
			x = float64(v)
		} else {
			x = w.(float64)
		}
		return f == x && math.Signbit(f) == math.Signbit(x) || math.IsNaN(f) && math.IsNaN(x)
	case []any:
		p, ok := py.([]any)
		if !ok || len(p) != len(w) {
			return false
		}
		for i := range w {
			if !canonEqual(p[i], w[i]) {
				return false
			}
		}
		return true
	}
	return py == want
}
