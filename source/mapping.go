package source

import (
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakeload/lakeload/paimon/spec"
)

// ArrowMapping converts record batches of a typed input (Parquet read through Arrow) to the
// table's shape: columns matched by name, safe widening casts, missing nullable columns as nulls,
// NOT NULL enforced, and the op column turned into row kinds.
type ArrowMapping struct {
	cols    *ColumnMap
	names   []string
	out     *arrow.Schema
	casters []caster // per table field; nil = missing column (nulls)
	mem     memory.Allocator
}

// NewArrowMapping prepares the conversion of records with schema input, read from file. Type
// problems are reported here, before any row is read, naming the file and column.
func NewArrowMapping(file string, input *arrow.Schema, fields []spec.DataField, opts MappingOptions, mem memory.Allocator) (*ArrowMapping, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	names := make([]string, input.NumFields())
	for i, f := range input.Fields() {
		names[i] = f.Name
	}
	cols, err := MapColumns(file, names, fields, opts)
	if err != nil {
		return nil, err
	}
	out, err := ArrowSchema(fields)
	if err != nil {
		return nil, err
	}
	m := &ArrowMapping{cols: cols, names: names, out: out, casters: make([]caster, len(fields)), mem: mem}
	env := castEnv{mem: mem, loc: opts.Location(), ignoreExtra: opts.IgnoreExtra}
	for i, f := range fields {
		j := cols.Input[i]
		if j < 0 {
			continue
		}
		c, err := newCaster(env, input.Field(j).Type, f.Type, out.Field(i).Type)
		if err != nil {
			return nil, fmt.Errorf("file %s: column %q: %w", file, names[j], err)
		}
		m.casters[i] = c
	}
	if cols.Op >= 0 {
		if !opTypeOK(input.Field(cols.Op).Type) {
			return nil, fmt.Errorf("file %s: op column %q has type %s: it must hold strings (%s) or integers 0..3",
				file, names[cols.Op], input.Field(cols.Op).Type, RowKindForms)
		}
	}
	return m, nil
}

// Schema is the output schema (see ArrowSchema).
func (m *ArrowMapping) Schema() *arrow.Schema { return m.out }

// Columns says which input column feeds each table field.
func (m *ArrowMapping) Columns() *ColumnMap { return m.cols }

// Used lists the input column indices the mapping reads (table columns and op column), ascending.
func (m *ArrowMapping) Used() []int {
	used := make([]bool, len(m.names))
	for _, j := range m.cols.Input {
		if j >= 0 {
			used[j] = true
		}
	}
	if m.cols.Op >= 0 {
		used[m.cols.Op] = true
	}
	var out []int
	for j, u := range used {
		if u {
			out = append(out, j)
		}
	}
	return out
}

// Apply converts rec, whose first row is row firstRow of the file, into a table-shaped record and
// its row kinds (nil without op column). rec must have the input schema given to NewArrowMapping.
// A bad value yields a *ValueError with the row index.
func (m *ArrowMapping) Apply(rec arrow.RecordBatch, firstRow int64) (arrow.RecordBatch, []spec.RowKind, error) {
	n := int(rec.NumRows())
	cols := make([]arrow.Array, len(m.casters))
	release := func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}
	for i, f := range m.cols.Fields {
		j := m.cols.Input[i]
		if j < 0 {
			cols[i] = array.MakeArrayOfNull(m.mem, m.out.Field(i).Type, n)
			continue
		}
		c, fail := m.casters[i](rec.Column(j))
		if fail != nil {
			release()
			return nil, nil, &ValueError{File: m.cols.File, Row: firstRow + int64(fail.Index), Column: m.names[j], Value: Truncate(fail.Value), Expected: fail.Expected}
		}
		cols[i] = c
		if r, v, want := textProblem(c, f.Type); r >= 0 {
			release()
			return nil, nil, &ValueError{File: m.cols.File, Row: firstRow + int64(r), Column: m.names[j], Value: Truncate(v), Expected: want}
		}
		if mayViolate(f.Type) {
			for r := 0; r < n; r++ {
				if nullViolation(c, f.Type, r) {
					release()
					return nil, nil, &ValueError{File: m.cols.File, Row: firstRow + int64(r), Column: m.names[j], Value: "null",
						Expected: fmt.Sprintf("a non-null value: table column %q (or a value nested in it) is NOT NULL", f.Name)}
				}
			}
		}
	}
	var kinds []spec.RowKind
	if m.cols.Op >= 0 {
		var err error
		if kinds, err = m.kinds(rec.Column(m.cols.Op), firstRow); err != nil {
			release()
			return nil, nil, err
		}
	}
	out := array.NewRecordBatch(m.out, cols, int64(n))
	release()
	return out, kinds, nil
}

func opTypeOK(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		return true
	}
	bits, _ := intBits(t)
	return bits > 0 && bits < 64 || t.ID() == arrow.INT64
}

func (m *ArrowMapping) kinds(a arrow.Array, firstRow int64) ([]spec.RowKind, error) {
	kinds := make([]spec.RowKind, a.Len())
	get := intValue(a)
	for r := range kinds {
		var ok bool
		var shown string
		if a.IsNull(r) {
			shown = "null"
		} else if get != nil {
			v := get(r)
			ok = v >= 0 && v <= 3
			kinds[r], shown = spec.RowKind(v), strconv.FormatInt(v, 10)
		} else {
			shown = a.ValueStr(r)
			kinds[r], ok = ParseRowKind(shown)
		}
		if !ok {
			return nil, &ValueError{File: m.cols.File, Row: firstRow + int64(r), Column: m.names[m.cols.Op], Value: Truncate(shown),
				Expected: "a row kind: " + RowKindForms + ", or an integer 0 (+I), 1 (-U), 2 (+U), 3 (-D)"}
		}
	}
	return kinds, nil
}
