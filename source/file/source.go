package file

import (
	"context"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

// Source reads Parquet, CSV and JSON Lines splits from FS; it implements source.Source.
type Source struct{ FS fileio.FileIO }

// Open opens one split (see the package-level Open).
func (s Source) Open(ctx context.Context, sp source.Split, table *spec.TableSchema, opts source.MappingOptions) (source.Reader, error) {
	return Open(ctx, s.FS, sp, table, opts)
}
