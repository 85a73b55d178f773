package plan

import (
	"context"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/source"
	"github.com/lakeload/lakeload/source/file"
)

// InputColumns reads the columns of split sp and the type each would get as a new column (see
// file.ReadColumnsWith, CSV in dialect csv; schema evolution, job/evolve.go). Errors about the input are *source.InputError;
// a cancelled ctx is returned as is.
func InputColumns(ctx context.Context, fs fileio.FileIO, sp source.Split, csv source.CSVDialect) (*file.InputColumns, error) {
	c, err := file.ReadColumnsWith(ctx, fs, sp, csv)
	if err != nil && ctx.Err() == nil {
		return nil, &source.InputError{Err: err}
	}
	return c, err
}
