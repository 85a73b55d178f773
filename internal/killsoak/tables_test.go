package killsoak

import (
	"fmt"
	"math/rand/v2"

	"github.com/lakeload/lakeload/paimon/spec"
)

// genRow is one generated input row: its row kind ("+I", "-U", "+U", "-D"; "" for tables loaded
// without an op column, meaning +I) and its values in table column order (spec Datum model).
type genRow struct {
	op   string
	vals []any
}

// merge is how a table combines rows: the expected state is computed from it.
type merge int

const (
	mergeAppend merge = iota // every row stays: a multiset of rows
	mergeSum                 // primary key; every other column sums (NULL inputs ignored)
	mergeDedup               // primary key; the last row wins, a retracting last row (-U/-D) removes the key
)

// tableSpec is one soak table: its schema for `lakeload table create`, how it merges, and its input.
type tableSpec struct {
	name     string   // table name in database soak
	columns  []string // "name TYPE", in order
	pk       []string
	part     []string
	options  []string // key=value
	opColumn string   // input-only op column ("" = none)
	merge    merge
	keyCols  []int // primary-key column indexes (mergeSum, mergeDedup)
	// gen returns the rows of input file f (deterministic in r and its own state).
	gen func(r *rand.Rand, f, n int) []genRow

	// The feature soaks' knobs (feature_test.go); zero values keep the base tables as they are.
	createCols int                // columns the table is created with (0 = all; --evolve-schema adds the rest)
	fileCols   func(f int) int    // table columns present in input file f (nil = all)
	format     func(f int) string // input format of file f: parquet (nil), csv or jsonl
	badEvery   int                // text input: about one bad row per badEvery rows (0 = none)
}

// createColumns is how many of the columns the table is created with.
func (ts tableSpec) createColumns() int {
	if ts.createCols > 0 {
		return ts.createCols
	}
	return len(ts.columns)
}

// fields returns the table's columns as DataFields (for canonical rendering).
func (ts tableSpec) fields() ([]spec.DataField, error) {
	out := make([]spec.DataField, len(ts.columns))
	for i, c := range ts.columns {
		var name, typ string
		if _, err := fmt.Sscanf(c, "%s %s", &name, &typ); err != nil {
			return nil, fmt.Errorf("column %q: %w", c, err)
		}
		t, err := spec.ParseType(typ)
		if err != nil {
			return nil, err
		}
		out[i] = spec.DataField{ID: i, Name: name, Type: t}
	}
	return out, nil
}

// soakTables returns the three tables of a run, each with fresh generator state.
func soakTables(m mode) []tableSpec {
	return []tableSpec{eventsTable(), totalsTable(m.keys), usersTable()}
}

// eventsTable is an append table with a fixed bucket count; about one row in 997 is an exact copy
// of the row before it, so the expected state is a true multiset.
func eventsTable() tableSpec {
	var next int64
	return tableSpec{
		name:    "events",
		columns: []string{"id BIGINT", "file INT", "payload STRING", "amount DOUBLE"},
		options: []string{"bucket=4", "bucket-key=id"},
		merge:   mergeAppend,
		gen: func(r *rand.Rand, f, n int) []genRow {
			rows := make([]genRow, 0, n)
			for i := 0; i < n; i++ {
				if i > 0 && r.IntN(997) == 0 {
					rows = append(rows, genRow{vals: rows[i-1].vals})
					continue
				}
				var amount any = float64(r.IntN(400_000)) / 8
				if r.IntN(100) == 0 {
					amount = nil
				}
				rows = append(rows, genRow{vals: []any{next, int32(f), fmt.Sprintf("e%d-%08x", next, r.Uint32()), amount}})
				next++
			}
			return rows
		},
	}
}

// totalsTable is a sum-aggregation primary-key table over keys 0..keys-1: a window committed twice
// doubles its sums. Amounts are multiples of 1/4, so float sums are exact in any order.
func totalsTable(keys int) tableSpec {
	return tableSpec{
		name:    "totals",
		columns: []string{"k BIGINT", "cnt BIGINT", "total BIGINT", "amount DOUBLE"},
		pk:      []string{"k"},
		options: []string{"bucket=4", "merge-engine=aggregation", "fields.cnt.aggregate-function=sum",
			"fields.total.aggregate-function=sum", "fields.amount.aggregate-function=sum"},
		merge:   mergeSum,
		keyCols: []int{0},
		gen: func(r *rand.Rand, f, n int) []genRow {
			rows := make([]genRow, n)
			for i := range rows {
				var amount any = float64(r.IntN(4001)) / 4
				if r.IntN(50) == 0 {
					amount = nil
				}
				rows[i] = genRow{vals: []any{int64(r.IntN(keys)), int64(1), int64(r.IntN(2001) - 1000), amount}}
			}
			return rows
		},
	}
}

// usersTable is a partitioned deduplicate primary-key table loaded with an op column: new ids (+I),
// updates of ids from any earlier row or file (-U then +U, or a bare +U), deletes (-D) and
// re-inserts of deleted ids.
func usersTable() tableSpec {
	var next int64
	row := func(r *rand.Rand, op string, id int64, f int) genRow {
		var name any = fmt.Sprintf("u%d-f%d-%04x", id, f, r.IntN(1<<16))
		if r.IntN(40) == 0 {
			name = nil
		}
		dt := fmt.Sprintf("2024-01-%02d", id%4+1)
		return genRow{op: op, vals: []any{dt, id, name, int32(r.IntN(1000)), float64(r.IntN(1<<20)) / 16}}
	}
	return tableSpec{
		name:     "users",
		columns:  []string{"dt STRING", "id BIGINT", "name STRING", "score INT", "v DOUBLE"},
		pk:       []string{"dt", "id"},
		part:     []string{"dt"},
		options:  []string{"bucket=4"},
		opColumn: "op",
		merge:    mergeDedup,
		keyCols:  []int{0, 1},
		gen: func(r *rand.Rand, f, n int) []genRow {
			rows := make([]genRow, 0, n+1)
			for len(rows) < n {
				p := r.IntN(100)
				switch {
				case next < 100 || p < 50:
					rows = append(rows, row(r, "+I", next, f))
					next++
				case p < 75:
					id := r.Int64N(next)
					rows = append(rows, row(r, "-U", id, f), row(r, "+U", id, f))
				case p < 85:
					rows = append(rows, row(r, "+U", r.Int64N(next), f))
				case p < 95:
					rows = append(rows, row(r, "-D", r.Int64N(next), f))
				default:
					rows = append(rows, row(r, "+I", r.Int64N(next), f)) // re-insert (or blind upsert)
				}
			}
			return rows
		},
	}
}
