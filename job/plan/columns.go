package plan

import (
	"context"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/source"
	"github.com/lakeload/lakeload/source/file"
)

// InputColumns reads the columns of split sp and the type each would get as a new column (see
// file.ReadColumns; schema evolution, job/evolve.go). Errors about the input are *source.InputError;
// a cancelled ctx is returned as is.
func InputColumns(ctx context.Context, fs fileio.FileIO, sp source.Split) (*file.InputColumns, error) {
	c, err := file.ReadColumns(ctx, fs, sp)
	if err != nil && ctx.Err() == nil {
		return nil, &source.InputError{Err: err}
	}
	return c, err
}
