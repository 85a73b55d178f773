package killsoak

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

// badRow is a row the feature input carries that must be quarantined, never loaded: its file (base
// name) and 1-based data row, as source.Rejected reports them.
type badRow struct {
	file string
	row  int64
}

func (b badRow) String() string { return b.file + ":" + strconv.FormatInt(b.row, 10) }

// writeInput writes input files first..last-1 of ts under dir (deterministic in rng), folds their good
// rows into exp and returns the bad rows it wrote. File f is named part-NNN.<format>; a file carries
// the table columns ts.fileCols(f) says (the rest are null in the model), then the op column.
func writeInput(t *testing.T, m mode, ts tableSpec, fields []spec.DataField, rng *rand.Rand, dir string, first, last int, exp *expected) []badRow {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var bad []badRow
	for f := first; f < last; f++ {
		rows := ts.gen(rng, f, m.rowsPerFile)
		cols := len(fields)
		if ts.fileCols != nil {
			cols = ts.fileCols(f)
		}
		for i := range rows {
			for c := cols; c < len(fields); c++ {
				rows[i].vals[c] = nil // absent from the file: null in the table
			}
		}
		format := "parquet"
		if ts.format != nil {
			format = ts.format(f)
		}
		name := fmt.Sprintf("part-%03d.%s", f, format)
		path := filepath.Join(dir, name)
		var err error
		switch format {
		case "parquet":
			schema, serr := arrowSchema(ts, fields[:cols])
			if serr != nil {
				t.Fatal(serr)
			}
			trimmed := make([]genRow, len(rows))
			for i, r := range rows {
				trimmed[i] = genRow{op: r.op, vals: r.vals[:cols]}
			}
			err = writeParquet(path, schema, trimmed, m.rowGroup)
		case "csv", "jsonl":
			var fileBad []int64
			fileBad, err = writeText(path, format, ts, fields[:cols], rows, ts.badEvery, rng)
			for _, r := range fileBad {
				bad = append(bad, badRow{file: name, row: r})
			}
		default:
			err = fmt.Errorf("format %q not generated", format)
		}
		if err != nil {
			t.Fatalf("write input %s of %s: %v", name, ts.name, err)
		}
		if err := exp.apply(rows); err != nil {
			t.Fatalf("expected state of %s: %v", ts.name, err)
		}
	}
	return bad
}

// writeText writes rows as CSV (header line, null = empty unquoted field) or JSON Lines, inserting
// about one bad row per badEvery good rows (0 = none), and returns the bad rows' 1-based data row
// numbers. Bad rows cycle through the row-level faults --bad-rows=quarantine takes: a wrong field
// count or a malformed line, a text in a BIGINT column, a null primary-key column.
func writeText(path, format string, ts tableSpec, fields []spec.DataField, rows []genRow, badEvery int, rng *rand.Rand) ([]int64, error) {
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	names := make([]string, 0, len(fields)+1)
	for _, f := range fields {
		names = append(names, f.Name)
	}
	if ts.opColumn != "" {
		names = append(names, ts.opColumn)
	}
	if format == "csv" {
		if err := cw.Write(names); err != nil {
			return nil, err
		}
	}
	var bad []int64
	dataRow := int64(0)
	emit := func(vals []any, op string) error {
		dataRow++
		if format == "csv" {
			rec := make([]string, 0, len(names))
			for _, v := range vals {
				rec = append(rec, textValue(v))
			}
			if ts.opColumn != "" {
				rec = append(rec, op)
			}
			return cw.Write(rec)
		}
		obj := map[string]any{}
		for i, v := range vals {
			obj[fields[i].Name] = v
		}
		if ts.opColumn != "" {
			obj[ts.opColumn] = op
		}
		b, err := json.Marshal(obj)
		if err != nil {
			return err
		}
		buf.Write(b)
		buf.WriteByte('\n')
		return nil
	}
	kinds := 0
	for _, r := range rows {
		if badEvery > 0 && rng.IntN(badEvery) == 0 {
			kind := kinds % 3
			kinds++
			if kind == 2 && len(ts.keyCols) == 0 {
				kind = 1
			}
			switch {
			case kind == 0 && format == "csv": // too few fields
				cw.Flush()
				buf.WriteString("1,2\n")
				dataRow++
			case kind == 0: // malformed JSON
				buf.WriteString(`{"` + fields[0].Name + `": 1, ` + "\n")
				dataRow++
			case kind == 1: // text in the first BIGINT column
				vals := append([]any(nil), r.vals[:len(fields)]...)
				vals[firstBigInt(fields)] = "not-a-number"
				if err := emit(vals, r.op); err != nil {
					return nil, err
				}
			default: // null primary-key column
				vals := append([]any(nil), r.vals[:len(fields)]...)
				vals[ts.keyCols[len(ts.keyCols)-1]] = nil
				if err := emit(vals, r.op); err != nil {
					return nil, err
				}
			}
			bad = append(bad, dataRow)
		}
		if err := emit(r.vals[:len(fields)], r.op); err != nil {
			return nil, err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return nil, err
	}
	return bad, os.WriteFile(path, buf.Bytes(), 0o644)
}

// textValue renders a generated value as a CSV field (null: empty).
func textValue(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	default:
		return fmt.Sprint(x)
	}
}

func firstBigInt(fields []spec.DataField) int {
	for i, f := range fields {
		if f.Type.Root == spec.BigInt {
			return i
		}
	}
	return 0
}
