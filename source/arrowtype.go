package source

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakeload/lakeload/paimon/arrowconv"
	"github.com/lakeload/lakeload/paimon/spec"
)

// ArrowSchema is the schema of every Batch record for a table with these fields: one Arrow field
// per table field, same name and nullability, typed by arrowconv.ArrowType (so batches feed the
// Parquet writer unchanged), with the field id as PARQUET:field_id metadata.
func ArrowSchema(fields []spec.DataField) (*arrow.Schema, error) {
	s, err := arrowconv.ArrowSchema(fields)
	if err != nil {
		return nil, fmt.Errorf("table schema: %w", err)
	}
	return s, nil
}
