package pqflat

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// ErrUnsupported is a page whose encoding the chunk's metadata did not declare and pqflat does
// not decode.
var ErrUnsupported = errors.New("pqflat: unsupported page")

// page is the decoding state of the current data page of a column.
type page struct {
	left       int // rows not yet decoded
	defs       hybrid
	legacy     bool // definition levels in the deprecated BIT_PACKED encoding, at bit legacyAt of legacyBits
	legacyBits []byte
	legacyAt   int
	values     []byte // the value region
	pos        int    // next byte of a PLAIN value region
	dict       bool   // values are dictionary indices (in idx)
	idx        hybrid
}

// setPage prepares p for a data page of n rows of a column with definition levels up to maxDef.
func (p *page) set(pg file.Page, n int, maxDef int16, dictSize int) error {
	data := pg.Data()
	*p = page{left: n}
	switch dp := pg.(type) {
	case *file.DataPageV1:
		if maxDef > 0 {
			switch dp.DefinitionLevelEncoding() {
			case parquet.Encodings.RLE:
				if len(data) < 4 {
					return errors.New("data page too short for its definition levels")
				}
				l := binary.LittleEndian.Uint32(data)
				if uint64(l) > uint64(len(data)-4) {
					return fmt.Errorf("definition levels of %d bytes in a page of %d", l, len(data))
				}
				p.defs.init(data[4:4+l], 1)
				data = data[4+l:]
			case parquet.Encodings.BitPacked:
				nb := (n + 7) / 8
				if nb > len(data) {
					return errors.New("data page too short for its definition levels")
				}
				p.legacy, p.legacyBits = true, data[:nb]
				data = data[nb:]
			default:
				return fmt.Errorf("%w: definition levels encoded %s", ErrUnsupported, dp.DefinitionLevelEncoding())
			}
		}
	case *file.DataPageV2:
		if dp.NumRows() != dp.NumValues() {
			return fmt.Errorf("data page v2 of %d rows holds %d values: not a flat column", dp.NumRows(), dp.NumValues())
		}
		rep, def := int64(dp.RepetitionLevelByteLen()), int64(dp.DefinitionLevelByteLen())
		if rep < 0 || def < 0 || rep+def > int64(len(data)) {
			return fmt.Errorf("data page v2 levels of %d+%d bytes in a page of %d", rep, def, len(data))
		}
		if maxDef > 0 {
			p.defs.init(data[rep:rep+def], 1)
		}
		data = data[rep+def:]
	default:
		return fmt.Errorf("%w: page type %T", ErrUnsupported, pg)
	}
	p.values = data
	switch parquet.Encoding(pg.Encoding()) {
	case parquet.Encodings.Plain:
	case parquet.Encodings.PlainDict, parquet.Encodings.RLEDict:
		if dictSize < 0 {
			return errors.New("dictionary-encoded data page without a dictionary page")
		}
		if len(data) < 1 || data[0] > 32 {
			return errors.New("dictionary-encoded data page without a valid index bit width")
		}
		p.dict = true
		p.idx.init(data[1:], int(data[0]))
	default:
		return fmt.Errorf("%w: values encoded %s", ErrUnsupported, pg.Encoding())
	}
	return nil
}

// levels decodes the validity of the next n rows into bitmap bits off..off+n-1.
func (p *page) levels(bm []byte, off, n int) (int, error) {
	if p.legacy {
		return legacyLevels(p.legacyBits, &p.legacyAt, bm, off, n)
	}
	return p.defs.levels(bm, off, n)
}
