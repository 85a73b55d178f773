package job

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job/plan"
	"github.com/lakeload/lakeload/job/task"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/source"
	"github.com/lakeload/lakeload/source/file"
)

// EvolveAddColumns is the Config.EvolveSchema mode that adds input columns the table lacks.
const EvolveAddColumns = "add-columns"

// checkEvolveMode validates Config.EvolveSchema.
func (c *Config) checkEvolveMode() error {
	if c.EvolveSchema == "" { // Spec.Validate checked the value
		return nil
	}
	if _, ok := c.Source.(file.Source); !ok {
		return fmt.Errorf("job: schema evolution %q reads input columns from files: it needs the file source, not a custom Source", c.EvolveSchema)
	}
	return nil
}

// evolve adds, before window w's tasks run, the input columns of its splits that the table lacks as
// nullable columns in the next schema (create-if-absent), and switches the job to that schema.
// Everything is checked first against the would-be schema — types, nullability, the column mapping of
// every split — so nothing is written for a window that would fail anyway. Idempotent across crashes:
// a resumed run opens the table at its latest schema, finds the columns there and adds nothing.
// Files of earlier windows keep their schema id (recorded in each DataFileMeta of the stored
// results), and readers fill the new columns of their rows with nulls.
func (d *driver) evolve(ctx context.Context, w checkpoint.Assigned) error {
	if d.cfg.EvolveSchema != EvolveAddColumns {
		return nil
	}
	cols, err := d.newColumns(ctx, w)
	if err != nil || len(cols) == 0 {
		return err
	}
	// Only our own change is accepted: a foreign schema change is refused as without evolution.
	if err := d.checkSchema(ctx); err != nil {
		return err
	}
	// A background compaction reads and rewrites with the schema it started with: one still in
	// flight after the change could rewrite this window's files without the new columns. Finish it
	// first; later compactions use the evolved table (compact.go).
	d.comp.collect(true)
	if d.t.Owner != nil { // the REST catalog's alter endpoint takes no expected schema: a foreign change would go unseen
		return fmt.Errorf("window %d: schema evolution is not supported for a table whose catalog owns its schema (%s); add the columns through the catalog first", w.Window, d.t.Owner)
	}
	s, err := catalog.AddColumnsAt(ctx, d.t.FS, d.t.Path, d.t.Schema, cols)
	if errors.Is(err, catalog.ErrSchemaConflict) {
		return fmt.Errorf("%w: another writer changed the schema of %s while window %d added columns (%v); run the load again to continue", ErrSchemaChanged, d.t.Path, w.Window, err)
	}
	if err != nil {
		return fmt.Errorf("window %d: %w", w.Window, err)
	}
	if err := d.adoptSchema(s); err != nil {
		return err
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name + " " + c.Type.String()
	}
	d.cfg.Logger.Info("schema evolved", "window", w.Window, "schema", s.ID, "added", strings.Join(names, ", "))
	return d.cfg.hook(ctx, PointSchemaEvolved, w.Window)
}

// adoptSchema makes s the schema the job writes with.
func (d *driver) adoptSchema(s *spec.TableSchema) error {
	d.t = &table.Table{FS: d.t.FS, Path: d.t.Path, Name: d.t.Name, Schema: s, Options: s.CoreOptions(), Owner: d.t.Owner}
	d.comp.useTable(d.t)
	if d.cfg.IDColumn != "" {
		i, err := task.IDColumnIndex(s, d.cfg.IDColumn)
		if err != nil {
			return err
		}
		d.ids.col = i
	}
	return nil
}

// newColumns returns the columns to add for window w, in input order of first appearance, after
// checking that every split of the window maps onto the schema with them added.
func (d *driver) newColumns(ctx context.Context, w checkpoint.Assigned) ([]catalog.NewColumn, error) {
	m, err := source.NewMatcher(d.t.Schema.Fields, d.cfg.mapping)
	if err != nil {
		return nil, err
	}
	var cols []catalog.NewColumn
	added := map[string]string{} // lower-case name → file that brought it
	type split struct {
		sp   source.Split
		cols *file.InputColumns
	}
	var splits []split
	for _, i := range d.st.InInputOrder(w.Splits) {
		sp := d.plan[i]
		in, err := plan.InputColumns(ctx, d.cfg.InputFS, sp, d.cfg.CSV)
		if err != nil {
			return nil, err
		}
		splits = append(splits, split{sp, in})
		for _, c := range in.Columns {
			name := c.Name
			if k, err := m.Resolve(name); err != nil || k != -1 {
				continue // a table or op column (ambiguities are reported by the mapping below)
			}
			if prev, ok := added[strings.ToLower(name)]; ok {
				if prev != name {
					return nil, &InputError{Err: fmt.Errorf("file %s: new input column %q differs only in case from new column %q of another file: rename one of them", sp.Path, name, prev)}
				}
				continue
			}
			if c.Why != nil {
				return nil, &InputError{Err: fmt.Errorf("file %s: new input column %q cannot be added automatically: %w; add it with 'lakeload table add-column' and the type you want, then run the load again", sp.Path, name, c.Why)}
			}
			added[strings.ToLower(name)] = name
			cols = append(cols, catalog.NewColumn{Name: name, Type: c.Type})
		}
	}
	if len(cols) == 0 {
		return nil, nil
	}
	next, err := catalog.AddColumnsSchema(d.t.Schema, cols, d.cfg.Now())
	if err != nil {
		return nil, &InputError{Err: fmt.Errorf("window %d: %w", w.Window, err)}
	}
	// The mapping of every split onto the evolved schema: a type change or a missing NOT NULL column
	// is reported here, naming the file and column, before the schema is written. JSON Lines have no
	// fixed column list: their reader checks every line.
	for _, s := range splits {
		var err error
		switch s.cols.Format {
		case source.FormatParquet:
			_, err = source.NewArrowMapping(s.sp.Path, s.cols.Arrow, next.Fields, d.cfg.mapping, nil)
		case source.FormatCSV, source.FormatORC: // ORC types are checked when the split is opened
			_, err = source.MapColumns(s.sp.Path, s.cols.Names(), next.Fields, d.cfg.mapping)
		}
		if err != nil {
			return nil, &InputError{Err: err}
		}
	}
	return cols, nil
}

// checkResultSchemas refuses to commit files written with a schema newer than the job's: a table
// that moved on under a running job is resumed at its latest schema by running the load again.
func (d *driver) checkResultSchemas(w int64, results []checkpoint.TaskResult) error {
	msgs, err := task.Messages(results...)
	if err != nil {
		return err
	}
	for _, m := range msgs {
		for _, f := range m.NewFiles {
			if f.SchemaID > d.t.Schema.ID {
				return fmt.Errorf("%w: window %d has data file %s written with schema %d, newer than schema %d this run uses; run the load again to continue",
					ErrSchemaChanged, w, f.FileName, f.SchemaID, d.t.Schema.ID)
			}
		}
	}
	return nil
}
