package file

import (
	"fmt"

	pqfile "github.com/apache/arrow-go/v18/parquet/file"

	"github.com/lakeload/lakeload/fileio"
)

// openFooter parses the footer of the open Parquet file f; a failure is a footerError naming the
// byte range at fault. Closing the returned reader would close f, which the caller owns.
func openFooter(path string, f fileio.File) (*pqfile.Reader, error) {
	pf, err := pqfile.NewParquetReader(f)
	if err != nil {
		return nil, footerError(path, f, err)
	}
	return pf, nil
}

// recoverFooter, deferred directly by a function that reads f's footer, turns a decoder panic
// (arrow-go may panic on a corrupt footer) into a footerError in *err.
func recoverFooter(path string, f fileio.File, err *error) {
	if p := recover(); p != nil {
		*err = footerError(path, f, fmt.Errorf("decoder failed: %v", p))
	}
}
