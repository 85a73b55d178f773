package source

import (
	"fmt"

	"github.com/lakeload/lakeload/fileio"
)

// Split is a serializable unit of input: a file or a row range of one, plus a fingerprint (size,
// modification time and, for Parquet, the footer's row count) so a resumed job can tell that the
// file changed since planning.
type Split struct {
	Path            string `json:"path"`
	Format          string `json:"format"` // "parquet", "csv" or "jsonl"
	Size            int64  `json:"size"`
	ModTimeUnixNano int64  `json:"modTimeUnixNano"` // 0 = unknown: the fingerprint is not checked
	// RowStart is the 0-based index of the first data row to read (header lines excluded).
	RowStart int64 `json:"rowStart"`
	// RowCount is the number of rows to read; -1 reads to the end of the file (whole or unknown).
	// Plan sets it to the footer's row count for Parquet, which is also checked on Open.
	RowCount int64 `json:"rowCount"`
	// ByteStart and ByteEnd bound a text split that is a byte range of its file (ByteEnd > 0): the
	// split owns exactly the records that start in [ByteStart, ByteEnd). Both are record boundaries
	// found by the plan-time scan, so ByteStart is where row RowStart starts, on line FirstLine
	// (1-based, the line of the file: CSV records may span lines). ByteEnd 0 (every split planned
	// before text files were cut, and every compressed or small text file) is the whole file, read
	// from its start; RowStart and RowCount then say which rows, as they always did. A reader that
	// ignores the range and skips RowStart rows from the start reads the same rows.
	ByteStart int64 `json:"byteStart,omitempty"`
	ByteEnd   int64 `json:"byteEnd,omitempty"`
	FirstLine int64 `json:"firstLine,omitempty"`
}

// IsRange reports whether the split is a byte range of a text file (see ByteStart).
func (s Split) IsRange() bool { return s.ByteEnd > 0 }

// Input formats.
const (
	FormatParquet = "parquet"
	FormatCSV     = "csv"
	FormatJSONL   = "jsonl"
	FormatORC     = "orc"
)

// String names the split in messages: its path, plus the row range when it is not the whole file.
func (s Split) String() string {
	if s.RowStart == 0 && s.RowCount < 0 {
		return s.Path
	}
	if s.RowCount < 0 {
		return fmt.Sprintf("%s[rows %d..]", s.Path, s.RowStart)
	}
	return fmt.Sprintf("%s[rows %d..%d)", s.Path, s.RowStart, s.RowStart+s.RowCount)
}

// CheckFingerprint returns an error naming the file when info's size or modification time differ
// from the split's. A split with ModTimeUnixNano 0 carries no fingerprint and always passes.
func (s Split) CheckFingerprint(info fileio.FileInfo) error {
	if s.ModTimeUnixNano == 0 {
		return nil
	}
	if info.Size != s.Size || info.ModTime.UnixNano() != s.ModTimeUnixNano {
		return fmt.Errorf("input file %s changed since it was planned (size %d→%d, mod time %d→%d): "+
			"restore the original file or start a new job", s.Path, s.Size, info.Size, s.ModTimeUnixNano, info.ModTime.UnixNano())
	}
	return nil
}
