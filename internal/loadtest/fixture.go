package loadtest

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

// Row is one input row: its kind and its values in table field order (spec Datum model: int64,
// int32, string or nil).
type Row struct {
	Kind   spec.RowKind
	Values []any
}

// File is one input file; the extension of Name (.parquet, .csv, .jsonl) picks its format.
type File struct {
	Name string
	Rows []Row
}

// Format returns the input format of the file: parquet, csv or jsonl.
func (f File) Format() string {
	return strings.TrimPrefix(filepath.Ext(f.Name), ".")
}

// Fixture is a table definition plus the input a load job writes into it.
type Fixture struct {
	Name      string      // table name in database "db"
	Columns   [][2]string // column name, SQL type
	PK        []string
	Partition []string
	Options   map[string]string
	OpColumn  string // input column carrying row kinds ("" = every row is an insert)
	Files     []File // in load order (sorted by name)
	// CSVDelimiter separates the fields of the CSV files written (0 = ','); quotes are '"'.
	CSVDelimiter rune
}

// Rows returns the number of input rows over all files.
func (f Fixture) Rows() int {
	n := 0
	for _, fl := range f.Files {
		n += len(fl.Rows)
	}
	return n
}

// Schema builds the table schema.
func (f Fixture) Schema(t testing.TB) *spec.TableSchema {
	t.Helper()
	fields := make([]spec.DataField, len(f.Columns))
	for i, c := range f.Columns {
		typ, err := spec.ParseType(c[1])
		if err != nil {
			t.Fatalf("fixture %s: type %q: %v", f.Name, c[1], err)
		}
		fields[i] = spec.DataField{Name: c[0], Type: typ}
	}
	s, err := spec.NewSchema(fields, f.Partition, f.PK, f.Options, nil)
	if err != nil {
		t.Fatalf("fixture %s: %v", f.Name, err)
	}
	return s
}

// formats cycles the input formats over a fixture's files, Parquet first.
var formats = []string{"parquet", "csv", "parquet", "jsonl"}

func fileName(i int) string { return fmt.Sprintf("in-%02d.%s", i, formats[i%len(formats)]) }

// Append is an append-only table (id, name, amount) with unique ids 0..files*rows-1 and some null names.
func Append(seed uint64, files, rows int) Fixture {
	r := rand.New(rand.NewPCG(seed, 1))
	f := Fixture{Name: "events", Columns: [][2]string{{"id", "BIGINT"}, {"name", "STRING"}, {"amount", "BIGINT"}}}
	id := int64(0)
	for i := range files {
		fl := File{Name: fileName(i)}
		for range rows {
			var name any = fmt.Sprintf("n%d", r.IntN(1000))
			if r.IntN(10) == 0 {
				name = nil
			}
			fl.Rows = append(fl.Rows, Row{spec.RowKindInsert, []any{id, name, int64(r.IntN(10000) - 5000)}})
			id++
		}
		f.Files = append(f.Files, fl)
	}
	return f
}

// AggSum is an aggregation table keyed by k with sum columns total (BIGINT) and n (INT) and a
// last_non_null_value column label; keys repeat across files, so a window committed twice changes sums.
func AggSum(seed uint64, files, rows int) Fixture {
	r := rand.New(rand.NewPCG(seed, 2))
	f := Fixture{Name: "totals",
		Columns: [][2]string{{"k", "BIGINT NOT NULL"}, {"total", "BIGINT"}, {"n", "INT"}, {"label", "STRING"}},
		PK:      []string{"k"},
		Options: map[string]string{"bucket": "2", "merge-engine": "aggregation",
			"fields.total.aggregate-function": "sum", "fields.n.aggregate-function": "sum"}}
	for i := range files {
		fl := File{Name: fileName(i)}
		for range rows {
			var label any = fmt.Sprintf("l%d", r.IntN(100))
			if r.IntN(4) == 0 {
				label = nil
			}
			fl.Rows = append(fl.Rows, Row{spec.RowKindInsert,
				[]any{int64(r.IntN(23)), int64(r.IntN(1000)), int32(1), label}})
		}
		f.Files = append(f.Files, fl)
	}
	return f
}

// Dedup is a deduplicate table partitioned by dt with primary key (dt, id), loaded through the op
// column "op" with inserts, updates (-U/+U pairs and bare +U) and deletes of a small key space.
func Dedup(seed uint64, files, rows int) Fixture {
	r := rand.New(rand.NewPCG(seed, 3))
	f := Fixture{Name: "current",
		Columns:   [][2]string{{"dt", "STRING NOT NULL"}, {"id", "BIGINT NOT NULL"}, {"val", "STRING"}, {"amount", "BIGINT"}},
		PK:        []string{"dt", "id"},
		Partition: []string{"dt"},
		Options:   map[string]string{"bucket": "2"},
		OpColumn:  "op"}
	days := []string{"2024-01-01", "2024-01-02", "2024-01-03"}
	for i := range files {
		fl := File{Name: fileName(i)}
		for len(fl.Rows) < rows {
			dt, id := days[r.IntN(len(days))], int64(r.IntN(40))
			v := []any{dt, id, fmt.Sprintf("v%d-%d", i, len(fl.Rows)), int64(r.IntN(100))}
			switch p := r.IntN(10); {
			case p < 5:
				fl.Rows = append(fl.Rows, Row{spec.RowKindInsert, v})
			case p < 7:
				fl.Rows = append(fl.Rows, Row{spec.RowKindUpdateAfter, v})
			case p < 8 && len(fl.Rows) < rows-1:
				old := []any{dt, id, nil, nil}
				fl.Rows = append(fl.Rows, Row{spec.RowKindUpdateBefore, old}, Row{spec.RowKindUpdateAfter, v})
			default:
				fl.Rows = append(fl.Rows, Row{spec.RowKindDelete, []any{dt, id, nil, nil}})
			}
		}
		f.Files = append(f.Files, fl)
	}
	return f
}

// All returns the three fixtures with the given number of files and rows per file.
func All(seed uint64, files, rows int) []Fixture {
	return []Fixture{Append(seed, files, rows), AggSum(seed, files, rows), Dedup(seed, files, rows)}
}
