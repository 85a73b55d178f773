package manifest

import (
	"errors"
	"fmt"
	"io"

	"github.com/hamba/avro/v2/ocf"

	"github.com/lakeload/lakeload/paimon/spec"
)

// ErrUnsupportedFormat is returned (wrapped) when a metadata file is well formed but uses a
// format feature this package cannot decode, e.g. an ORC file (manifest.format=orc) with a codec
// or column type orcfile does not implement.
var ErrUnsupportedFormat = errors.New("manifest: unsupported metadata file format")

// maxRowsHint caps the row count readOCF passes to grow: block row counts are only checked
// against the decompressed block, after the hint is used.
const maxRowsHint = 1 << 16

// corruptf returns an error wrapping spec.ErrCorrupt.
func corruptf(format string, args ...any) error {
	return fmt.Errorf("%w: manifest: %s", spec.ErrCorrupt, fmt.Sprintf(format, args...))
}

// readOCF decodes every row of an Avro object container file and hands each one, with unions
// unwrapped (see valueDecoder), to fn as a map from field name to value. The container framing
// is validated up front (parseContainer), the parsed and compiled writer schema comes from
// writerSchemas, and zstandard blocks are inflated by the shared decoder.
//
// Before the first row, readOCF calls grow with the number of rows the file declares, capped
// at maxRowsHint, so callers can size their result once.
func readOCF(r io.Reader, what string, grow func(n int), fn func(i int, rec row) error) (err error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("manifest: read %s: %w", what, err)
	}
	if isORC(data) {
		return readORC(data, what, grow, fn)
	}
	c, err := parseContainer(data)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer func() {
		// Last-resort guard: neither schema parsing nor decoding may turn bad input into a crash.
		if p := recover(); p != nil {
			err = corruptf("%s: avro decoder failed: %v", what, p)
		}
	}()
	ws, err := writerSchemas.writerSchema(c.schemaJSON)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	declared := int64(0)
	for _, b := range c.blocks {
		declared = min(declared+b.count, maxRowsHint) // counts are non-negative (parseContainer)
	}
	grow(int(declared))
	var buf []byte
	i := 0
	for bi, b := range c.blocks {
		if b.count == 0 {
			continue
		}
		raw, err := decompressBlock(c.codec, b.data, buf)
		if err != nil {
			return fmt.Errorf("%s block %d: %w", what, bi, err)
		}
		if string(c.codec) == string(ocf.ZStandard) {
			buf = raw // reuse the inflate buffer; decoded values never alias it
		}
		if ws.rowsNeedBytes && b.count > int64(len(raw)) {
			return corruptf("%s block %d: %d rows in %d bytes", what, bi, b.count, len(raw))
		}
		r := &valueReader{varintReader: varintReader{b: raw}}
		for n := int64(0); n < b.count; n, i = n+1, i+1 {
			v, err := ws.decode(r)
			if err != nil {
				return corruptf("%s row %d: %v", what, i, err)
			}
			m, ok := v.(map[string]any)
			if !ok {
				return corruptf("%s row %d: not a record (%T)", what, i, v)
			}
			if err := fn(i, row{m: m, what: what + " row " + itoa(int64(i))}); err != nil {
				return err
			}
		}
	}
	return nil
}
