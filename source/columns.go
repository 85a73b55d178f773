package source

import (
	"fmt"
	"strings"

	"github.com/lakeload/lakeload/paimon/spec"
)

// OpIndex is what Matcher.Resolve returns for the op column.
const OpIndex = -2

// Matcher resolves input column names to table fields: an exact (case-sensitive) match first,
// then a case-insensitive match that must be unique among the table's fields.
type Matcher struct {
	fields []spec.DataField
	exact  map[string]int
	folded map[string][]int
	op     string
}

// NewMatcher builds a Matcher for fields. opts.OpColumn must not name a table field.
func NewMatcher(fields []spec.DataField, opts MappingOptions) (*Matcher, error) {
	m := &Matcher{fields: fields, exact: map[string]int{}, folded: map[string][]int{}, op: opts.OpColumn}
	for i, f := range fields {
		m.exact[f.Name] = i
		k := strings.ToLower(f.Name)
		m.folded[k] = append(m.folded[k], i)
	}
	if m.op != "" {
		if i, _ := m.field(m.op); i >= 0 {
			return nil, fmt.Errorf("op column %q is also table column %q: name a column that only holds row kinds", m.op, fields[i].Name)
		}
	}
	return m, nil
}

// Fields returns the table fields.
func (m *Matcher) Fields() []spec.DataField { return m.fields }

// Resolve returns the index of the table field name maps to, OpIndex for the op column, or -1 when
// name matches nothing. A name matching several fields case-insensitively (and none exactly) is an error.
func (m *Matcher) Resolve(name string) (int, error) {
	if m.op != "" && (name == m.op || strings.EqualFold(name, m.op)) {
		return OpIndex, nil
	}
	return m.field(name)
}

func (m *Matcher) field(name string) (int, error) {
	if i, ok := m.exact[name]; ok {
		return i, nil
	}
	c := m.folded[strings.ToLower(name)]
	switch len(c) {
	case 0:
		return -1, nil
	case 1:
		return c[0], nil
	}
	names := make([]string, len(c))
	for j, i := range c {
		names[j] = m.fields[i].Name
	}
	return -1, fmt.Errorf("input column %q matches table columns %s case-insensitively: rename it to one of them exactly", name, strings.Join(names, ", "))
}

// ColumnMap says where each table field comes from in an input with a fixed column list
// (a CSV header, a Parquet schema).
type ColumnMap struct {
	File   string
	Fields []spec.DataField
	// Input[i] is the input column feeding table field i, or -1 when the input lacks it (the
	// field is nullable and reads as null).
	Input []int
	// Op is the input column holding row kinds, or -1.
	Op int
	// Ignored lists input columns that match nothing (only with IgnoreExtra).
	Ignored []string
}

// MapColumns maps input column names onto table fields. It fails, naming file and column, for a
// duplicate input name, two input columns matching one field, a missing NOT NULL field, a missing
// op column, or an input column matching nothing (unless opts.IgnoreExtra).
func MapColumns(file string, names []string, fields []spec.DataField, opts MappingOptions) (*ColumnMap, error) {
	m, err := NewMatcher(fields, opts)
	if err != nil {
		return nil, fmt.Errorf("file %s: %w", file, err)
	}
	cm := &ColumnMap{File: file, Fields: fields, Input: make([]int, len(fields)), Op: -1}
	for i := range cm.Input {
		cm.Input[i] = -1
	}
	seen := map[string]bool{}
	for j, name := range names {
		if seen[name] {
			return nil, fmt.Errorf("file %s: input column %q appears twice: rename one of them", file, name)
		}
		seen[name] = true
		i, err := m.Resolve(name)
		if err != nil {
			return nil, fmt.Errorf("file %s: %w", file, err)
		}
		switch {
		case i == OpIndex:
			if cm.Op >= 0 {
				return nil, fmt.Errorf("file %s: input columns %q and %q both match op column %q: rename one of them", file, names[cm.Op], name, opts.OpColumn)
			}
			cm.Op = j
		case i < 0:
			if !opts.IgnoreExtra {
				return nil, fmt.Errorf("file %s: input column %q matches no table column: remove it, add it to the table, or ignore extra columns (--ignore-extra-columns)", file, name)
			}
			cm.Ignored = append(cm.Ignored, name)
		case cm.Input[i] >= 0:
			return nil, fmt.Errorf("file %s: input columns %q and %q both match table column %q: rename or remove one of them", file, names[cm.Input[i]], name, fields[i].Name)
		default:
			cm.Input[i] = j
		}
	}
	if opts.OpColumn != "" && cm.Op < 0 {
		return nil, fmt.Errorf("file %s: op column %q not found among input columns %s: add it or do not set an op column", file, opts.OpColumn, quoteList(names))
	}
	for i, f := range fields {
		if cm.Input[i] < 0 && !f.Type.Nullable {
			return nil, fmt.Errorf("file %s: table column %q is NOT NULL but the input has no such column (input columns %s): add the column to the file", file, f.Name, quoteList(names))
		}
	}
	return cm, nil
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
