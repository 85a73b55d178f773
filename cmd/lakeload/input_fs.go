package main

import (
	"fmt"

	"github.com/lakeload/lakeload/fileio"
)

// fileIO returns the FileIO that reads --from, chosen by its own location (not the warehouse's),
// so local input loads into an s3:// warehouse and s3:// input into a local one. An s3:// glob is
// expanded by listing the bucket (source/file.Plan); the input's paths keep the location as given.
func (f *inputFlags) fileIO() (fileio.FileIO, error) {
	fs, _, err := fileio.Open(f.from)
	if err != nil {
		return nil, usageError{fmt.Errorf("--from %q: %w (pass a local file or glob, or s3://bucket/prefix/*.parquet)", f.from, err)}
	}
	return fs, nil
}
