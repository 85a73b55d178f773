package main

import (
	"fmt"

	"github.com/lakeload/lakeload/fileio"
)

// fileIO returns the FileIO that reads --from, chosen by its own location (not the warehouse's),
// so a local input loads into an s3:// warehouse. Input on an object store is refused for now: the
// input planner (source/file.Plan) expands globs on the local file system only.
func (f *inputFlags) fileIO() (fileio.FileIO, error) {
	if s := fileio.Scheme(f.from); s != "file" {
		return nil, usageError{fmt.Errorf("--from %q: reading input from %s:// is not supported yet (input globs are expanded on the local file system): copy the files to a local directory and pass that path", f.from, s)}
	}
	fs, _, err := fileio.Open(f.from)
	if err != nil {
		return nil, usageError{fmt.Errorf("--from: %w", err)}
	}
	return fs, nil
}
