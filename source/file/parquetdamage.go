package file

import (
	"encoding/binary"
	"fmt"

	pqfile "github.com/apache/arrow-go/v18/parquet/file"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
)

// reExport is the advice every damaged-Parquet error ends with.
const reExport = "the file is damaged or truncated: re-export or re-copy it, then run the same command again"

// footerError explains a Parquet file whose footer cannot be read, naming the byte range at fault:
// a Parquet file ends with the footer (Thrift metadata), its 4-byte little-endian length and "PAR1".
// The result wraps cause, and spec.ErrCorrupt when the file's structure is wrong (too small, no end
// marker, a footer length beyond the file); an unreadable footer may also be an I/O error (cause).
func footerError(path string, f fileio.File, cause error) error {
	size := f.Size()
	where := ""
	corrupt := true
	var tail [8]byte
	switch {
	case size < 12:
		where = fmt.Sprintf("the file has %d bytes, fewer than the 12 of the smallest Parquet file", size)
	default:
		if _, err := f.ReadAt(tail[:], size-8); err != nil {
			where = fmt.Sprintf("bytes %d..%d (footer length and magic) cannot be read: %v", size-8, size, err)
			break
		}
		n := int64(binary.LittleEndian.Uint32(tail[:4]))
		switch {
		case string(tail[4:]) != "PAR1":
			where = fmt.Sprintf("bytes %d..%d are %q, not the Parquet end marker \"PAR1\"", size-4, size, tail[4:])
		case n > size-12:
			where = fmt.Sprintf("the footer length at byte %d says %d bytes, more than the file's %d", size-8, n, size)
		default:
			where = fmt.Sprintf("the footer at bytes %d..%d cannot be read or decoded", size-8-n, size-8)
			corrupt = false
		}
	}
	if corrupt {
		return fmt.Errorf("file %s (%d bytes): %w: not a readable Parquet file: %s (%w); %s", path, size, spec.ErrCorrupt, where, cause, reExport)
	}
	return fmt.Errorf("file %s (%d bytes): not a readable Parquet file: %s (%w); if the file is damaged or truncated, re-export or re-copy it, then run the same command again",
		path, size, where, cause)
}

// rowGroupBytes names the row group holding a file row and its byte range, for errors decoding it.
func rowGroupBytes(pf *pqfile.Reader, row int64) string {
	md := pf.MetaData()
	var first int64
	for g := 0; g < md.NumRowGroups(); g++ {
		rg := md.RowGroup(g)
		if row >= first+rg.NumRows() {
			first += rg.NumRows()
			continue
		}
		lo, hi := int64(-1), int64(0)
		for c := 0; c < rg.NumColumns(); c++ {
			cc, err := rg.ColumnChunk(c)
			if err != nil {
				continue
			}
			start := cc.DataPageOffset()
			if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 {
				start = min(start, cc.DictionaryPageOffset())
			}
			if lo < 0 || start < lo {
				lo = start
			}
			hi = max(hi, start+cc.TotalCompressedSize())
		}
		return fmt.Sprintf("row group %d (rows %d..%d, bytes %d..%d)", g, first+1, first+rg.NumRows(), lo, hi)
	}
	return fmt.Sprintf("row %d", row+1)
}
