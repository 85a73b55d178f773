package job

import (
	"context"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/source"
	"github.com/lakeload/lakeload/source/file"
)

// inputColumns reads the columns of split sp and the type each would get as a new column (see
// file.ReadColumnsWith; CSV files are read in dialect csv). Errors about the input are *InputError; a cancelled ctx is returned as is.
func inputColumns(ctx context.Context, fs fileio.FileIO, sp source.Split, csv source.CSVDialect) (*file.InputColumns, error) {
	c, err := file.ReadColumnsWith(ctx, fs, sp, csv)
	if err != nil && ctx.Err() == nil {
		return nil, &InputError{Err: err}
	}
	return c, err
}
