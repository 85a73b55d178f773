package read

import (
	"fmt"
	"slices"
)

// Where makes ReadSplit emit only the rows p accepts (nil: every row). For primary-key tables the
// filter sees merged rows: a key's older versions are merged first, so a filter on value columns
// never drops a version the merge needs. p must be parsed over the reader's schema.
func (r *Reader) Where(p *Predicate) error {
	if p != nil && !sameFields(p.fields, r.schema.Fields) {
		return fmt.Errorf("filter %q was parsed for other columns than those of schema %d", p.text, r.schema.ID)
	}
	r.where = p
	r.files.need = r.needed()
	return nil
}

// Select limits the columns decoded from data files to cols (indexes into the reader's schema
// fields; nil: all). Rows keep the schema's width; the other columns are null, except those the
// reader itself needs, which are still read: the Where filter's columns, and for primary-key tables
// the key and sequence fields (deduplicate, first-row) or every column (partial-update and
// aggregation, whose merge combines columns).
func (r *Reader) Select(cols []int) error {
	for _, c := range cols {
		if c < 0 || c >= len(r.schema.Fields) {
			return fmt.Errorf("read: column index %d out of range (schema has %d columns)", c, len(r.schema.Fields))
		}
	}
	if cols == nil {
		r.selected = nil
	} else {
		r.selected = slices.Clone(cols)
	}
	r.files.need = r.needed()
	return nil
}

// needed is the per-field decode mask for the current selection and filter; nil = every field.
func (r *Reader) needed() []bool {
	if r.selected == nil {
		return nil
	}
	if r.merge != nil {
		switch r.schema.CoreOptions().MergeEngine() {
		case "deduplicate", "first-row":
		default:
			return nil
		}
	}
	need := make([]bool, len(r.schema.Fields))
	mark := func(name string) {
		if _, i, ok := r.schema.Field(name); ok {
			need[i] = true
		}
	}
	for _, c := range r.selected {
		need[c] = true
	}
	if r.where != nil {
		for _, c := range r.where.Columns() {
			need[c] = true
		}
	}
	if r.merge != nil {
		for _, k := range r.schema.PrimaryKeys {
			mark(k)
		}
		for _, f := range r.schema.CoreOptions().SequenceField() {
			mark(f)
		}
	}
	if !slices.Contains(need, true) {
		need[0] = true // a file read with no column would yield no rows at all
	}
	return need
}
