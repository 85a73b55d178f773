package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// openTable is open followed by loading the table at its latest schema.
func (f *tableFlags) openTable(ctx context.Context) (*catalog.Catalog, catalog.Identifier, *table.Table, error) {
	cat, id, err := f.open()
	if err != nil {
		return nil, id, nil, err
	}
	t, err := cat.LoadTable(ctx, id)
	if err != nil {
		return nil, id, nil, err
	}
	return cat, id, t, nil
}

// parseColumnFlags parses the --column values "name TYPE" (at least one); example is a valid value
// shown when a type is missing.
func parseColumnFlags(cols []string, example string) ([]spec.DataField, error) {
	if len(cols) == 0 {
		return nil, usageError{fmt.Errorf("give at least one --column \"name TYPE\"")}
	}
	fields := make([]spec.DataField, 0, len(cols))
	for _, col := range cols {
		name, typ, ok := strings.Cut(strings.TrimSpace(col), " ")
		if !ok {
			return nil, usageError{fmt.Errorf("--column %q: write it as \"name TYPE\", e.g. \"%s\"", col, example)}
		}
		t, err := spec.ParseType(strings.TrimSpace(typ))
		if err != nil {
			return nil, usageError{fmt.Errorf("--column %q: %w", col, err)}
		}
		fields = append(fields, spec.DataField{Name: name, Type: t})
	}
	return fields, nil
}
