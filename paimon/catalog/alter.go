package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// Errors of AlterTable operations, testable with errors.Is.
var (
	// ErrColumnExist: a column to add is already a table column.
	ErrColumnExist = errors.New("column already exists")
	// ErrSchemaConflict: another writer created the next schema file first; re-read the table and retry.
	ErrSchemaConflict = errors.New("schema changed concurrently")
)

// OptAddColumnBeforePartition is Java's "add-column-before-partition": added columns go before the
// first partition column instead of last.
const OptAddColumnBeforePartition = spec.OptAddColumnBeforePartition

// NewColumn is a column to add to a table. Its type must be nullable (Java refuses NOT NULL added
// columns: existing rows have no value for it). Field ids inside Type are ignored and reassigned.
type NewColumn struct {
	Name        string
	Type        spec.DataType
	Description *string
}

// AddColumnsSchema returns the schema that follows old after adding cols, the way Java's
// SchemaManager applies AddColumn changes: id old.ID+1; each column takes highestFieldId+1 and then its
// nested ROW fields take the following ids; columns go last (or before the first partition column when
// add-column-before-partition is true); keys, options and comment are kept; timeMillis is now. It
// refuses a NOT NULL column, an existing name (also case-insensitively, since lakeload matches input
// columns that way), an empty name, Paimon's system column names and anything spec.NewSchema refuses.
// Errors name the column.
func AddColumnsSchema(old *spec.TableSchema, cols []NewColumn, now time.Time) (*spec.TableSchema, error) {
	if len(cols) == 0 {
		return nil, fmt.Errorf("add columns to schema %d: no column given", old.ID)
	}
	fields := append([]spec.DataField{}, old.Fields...)
	highest := old.HighestFieldID
	before, _ := old.CoreOptions().AddColumnBeforePartition() // a malformed value reads as false, Java's default
	beforePartition := before && len(old.PartitionKeys) > 0
	for _, c := range cols {
		if err := checkNewColumn(fields, c, old.PrimaryKeys); err != nil {
			return nil, err
		}
		highest++
		id := highest
		typ := reassignNested(c.Type, &highest)
		f := spec.DataField{ID: id, Name: c.Name, Type: typ, Description: c.Description}
		at := len(fields)
		if beforePartition {
			for i, g := range fields {
				if contains(old.PartitionKeys, g.Name) {
					at = i
					break
				}
			}
		}
		fields = append(fields[:at], append([]spec.DataField{f}, fields[at:]...)...)
	}
	s := &spec.TableSchema{
		Version:        spec.SchemaVersionCurrent,
		ID:             old.ID + 1,
		Fields:         fields,
		HighestFieldID: highest,
		PartitionKeys:  append([]string{}, old.PartitionKeys...),
		PrimaryKeys:    append([]string{}, old.PrimaryKeys...),
		Options:        copyOptions(old.Options),
		Comment:        old.Comment,
		TimeMillis:     now.UnixMilli(),
	}
	// The same validation a new table gets (names, keys, typed options, bucket rules); the schema it
	// builds (with fresh ids) is only a check.
	if _, err := spec.NewSchema(fields, s.PartitionKeys, s.PrimaryKeys, copyOptions(s.Options), s.Comment); err != nil {
		return nil, fmt.Errorf("schema %d after adding columns: %w", s.ID, err)
	}
	return s, nil
}

// systemColumns are the physical columns Paimon data files carry besides the table's own.
var systemColumns = []string{"_SEQUENCE_NUMBER", "_VALUE_KIND", "_ROW_ID"}

func checkNewColumn(fields []spec.DataField, c NewColumn, primaryKeys []string) error {
	if c.Name == "" || strings.TrimSpace(c.Name) != c.Name {
		return fmt.Errorf("add column %q: use a non-empty name without surrounding spaces", c.Name)
	}
	if !c.Type.Nullable {
		return fmt.Errorf("add column %q: it cannot be NOT NULL (existing rows have no value for it): add it as a nullable column", c.Name)
	}
	if contains(systemColumns, strings.ToUpper(c.Name)) || (len(primaryKeys) > 0 && strings.HasPrefix(strings.ToUpper(c.Name), "_KEY_")) {
		return fmt.Errorf("add column %q: the name is reserved for Paimon's system columns: choose another name", c.Name)
	}
	for _, f := range fields {
		if f.Name == c.Name {
			return fmt.Errorf("%w: add column %q: the table already has it", ErrColumnExist, c.Name)
		}
		if strings.EqualFold(f.Name, c.Name) {
			return fmt.Errorf("%w: add column %q: the table has column %q, which differs only in case: rename the new column", ErrColumnExist, c.Name, f.Name)
		}
	}
	return nil
}

// reassignNested numbers nested ROW fields after *counter (Java ReassignFieldId: a nested ROW's own
// nested fields are numbered before the field itself).
func reassignNested(t spec.DataType, counter *int) spec.DataType {
	switch t.Root {
	case spec.Array, spec.Multiset:
		if t.Elem != nil {
			e := reassignNested(*t.Elem, counter)
			t.Elem = &e
		}
	case spec.Map:
		if t.Elem != nil {
			k := reassignNested(*t.Elem, counter)
			t.Elem = &k
		}
		if t.Value != nil {
			v := reassignNested(*t.Value, counter)
			t.Value = &v
		}
	case spec.Row:
		fs := make([]spec.DataField, len(t.Fields))
		for i, f := range t.Fields {
			f.Type = reassignNested(f.Type, counter)
			*counter++
			f.ID = *counter
			fs[i] = f
		}
		t.Fields = fs
	}
	return t
}

func copyOptions(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// AddColumnsAt writes the schema that follows base with cols added (AddColumnsSchema) to the table at
// tablePath, create-if-absent. If schema base.ID+1 already exists (another writer altered the table
// first) it returns an error wrapping ErrSchemaConflict and writes nothing; the caller re-reads the
// table and decides again.
func AddColumnsAt(ctx context.Context, fs fileio.FileIO, tablePath string, base *spec.TableSchema, cols []NewColumn) (*spec.TableSchema, error) {
	next, err := AddColumnsSchema(base, cols, time.Now())
	if err != nil {
		return nil, err
	}
	if err := table.NewSchemas(fs, tablePath).Create(ctx, next); err != nil {
		if errors.Is(err, fileio.ErrExist) {
			return nil, fmt.Errorf("%w: %s got schema %d from another writer while adding columns: %w", ErrSchemaConflict, tablePath, next.ID, err)
		}
		return nil, fmt.Errorf("add columns to %s: %w", tablePath, err)
	}
	return next, nil
}

// AddColumns adds cols to the table at its latest schema (Java AlterTable with AddColumn changes) and
// returns the new schema. A concurrent schema change is retried on the newer schema, which must still
// lack the columns.
func (c *Catalog) AddColumns(ctx context.Context, id Identifier, cols []NewColumn) (*spec.TableSchema, error) {
	if c.Meta != nil {
		return c.Meta.AddColumns(ctx, id, cols)
	}
	if err := checkIdentifier(id); err != nil {
		return nil, err
	}
	schemas := table.NewSchemas(c.FS, c.TablePath(id))
	for try := 0; ; try++ {
		latest, err := schemas.Latest(ctx)
		if errors.Is(err, fileio.ErrNotExist) {
			return nil, fmt.Errorf("%w: %s (no schema file under %s)", ErrTableNotExist, id, c.TablePath(id))
		}
		if err != nil {
			return nil, err
		}
		s, err := AddColumnsAt(ctx, c.FS, c.TablePath(id), latest, cols)
		if errors.Is(err, ErrSchemaConflict) && try < 10 {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", id, err)
		}
		return s, nil
	}
}
