package file

import (
	"encoding/binary"
	"fmt"

	pqfile "github.com/apache/arrow-go/v18/parquet/file"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/source"
)

// openFooter parses the footer of the open Parquet file f; a failure is a footerError naming the
// byte range at fault. Before decoding, it refuses a footer longer than lim.FooterBytes() (read from
// the 8-byte tail) or declaring more than lim.Columns() schema elements (read from the schema list's
// header): decoding such a footer takes about a hundred times its size in memory (a 14 MB footer of
// a million columns took 1.6 GB). Closing the returned reader would close f, which the caller owns.
func openFooter(path string, f fileio.File, lim source.Limits, opts ...pqfile.ReadOption) (*pqfile.Reader, error) {
	if err := checkFooterSize(path, f, lim); err != nil {
		return nil, err
	}
	pf, err := pqfile.NewParquetReader(f, opts...)
	if err != nil {
		return nil, footerError(path, f, err)
	}
	return pf, nil
}

// footerAdvice ends the errors of a footer over a limit.
const footerAdvice = "re-export the file with fewer columns or larger row groups, or raise the limit if the file is trusted (MappingOptions.Limits)"

// checkFooterSize applies lim to f's footer; a file too small or without the end marker is left to
// the decoder (footerError explains it).
func checkFooterSize(path string, f fileio.File, lim source.Limits) error {
	size := f.Size()
	var tail [8]byte
	if size < 12 {
		return nil
	}
	if _, err := f.ReadAt(tail[:], size-8); err != nil || string(tail[4:]) != "PAR1" {
		return nil
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 {
		return nil
	}
	if n > lim.FooterBytes() {
		return fmt.Errorf("file %s (%d bytes): Parquet footer of %d bytes (bytes %d..%d), more than the limit of %d bytes: %s",
			path, size, n, size-8-n, size-8, lim.FooterBytes(), footerAdvice)
	}
	head := make([]byte, min(n, 64))
	if _, err := f.ReadAt(head, size-8-n); err != nil {
		return nil
	}
	if cols, ok := schemaLength(head); ok && cols > int64(lim.Columns()) {
		return fmt.Errorf("file %s (%d bytes): the Parquet footer declares %d columns (schema elements), more than the limit of %d: %s",
			path, size, cols, lim.Columns(), footerAdvice)
	}
	return nil
}

// schemaLength reads the element count of the schema list (field 2) from the start of a Thrift
// compact-encoded FileMetaData, skipping the fields before it (the version, field 1). ok is false
// when the bytes do not start that way; the decoder then judges them.
func schemaLength(b []byte) (n int64, ok bool) {
	var id int64
	for len(b) > 0 {
		h := b[0]
		b = b[1:]
		typ := h & 0x0f
		if typ == 0 { // end of the struct
			return 0, false
		}
		if delta := int64(h >> 4); delta != 0 {
			id += delta
		} else { // long form: a zigzag varint field id
			v, k := binary.Uvarint(b)
			if k <= 0 {
				return 0, false
			}
			b, id = b[k:], int64(v>>1)^-int64(v&1)
		}
		switch {
		case id == 2 && typ == 9: // schema: list<SchemaElement>
			if len(b) == 0 {
				return 0, false
			}
			if size := int64(b[0] >> 4); size != 15 {
				return size, true
			}
			v, k := binary.Uvarint(b[1:])
			return int64(v), k > 0
		case id >= 2:
			return 0, false
		case typ == 1 || typ == 2: // a boolean field has no payload
		case typ >= 4 && typ <= 6: // i16, i32, i64: a varint
			_, k := binary.Uvarint(b)
			if k <= 0 {
				return 0, false
			}
			b = b[k:]
		default:
			return 0, false
		}
	}
	return 0, false
}

// recoverFooter, deferred directly by a function that reads f's footer, turns a decoder panic
// (arrow-go may panic on a corrupt footer) into a footerError in *err.
func recoverFooter(path string, f fileio.File, err *error) {
	if p := recover(); p != nil {
		*err = footerError(path, f, fmt.Errorf("decoder failed: %v", p))
	}
}
