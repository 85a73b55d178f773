package orcfile

import (
	"bytes"
	"math"
)

// Magic starts every ORC file and ends its postscript.
const Magic = "ORC"

// maxBlockSize bounds the compression block size a file may declare: no chunk decompresses to
// more. Java ORC defaults to 256 KiB; Paimon writes 128 or 256 KiB.
const maxBlockSize = 8 << 20

// maxDepth bounds the nesting of the type tree (Paimon metadata nests three levels deep).
const maxDepth = 32

// IsORC reports whether data starts with the ORC magic.
func IsORC(data []byte) bool { return bytes.HasPrefix(data, []byte(Magic)) }

// File is the decoded tail of an ORC file: postscript, footer and stripe statistics. Open
// validates every offset in it against the file, so reading stripes only bounds-checks streams.
type File struct {
	Compression   Compression
	BlockSize     uint64   // compression chunk size; chunks never decompress to more
	Version       []uint32 // file format version, e.g. [0 12]
	WriterVersion uint64
	Software      string // writer software version, if recorded
	NumRows       uint64
	Schema        *Type
	Stripes       []StripeInfo
	Stats         []ColumnStats   // file statistics, indexed by column id (may be empty)
	StripeStats   [][]ColumnStats // per stripe, from the metadata section (may be empty)
	Metadata      map[string][]byte

	data    []byte
	types   []*Type // by column id
	content uint64  // end of the stripes (start of the metadata section)
	budget  *budget
}

// Open parses the tail of an ORC file held in data. data is kept (not copied) for reading rows.
func Open(data []byte) (*File, error) {
	if !IsORC(data) {
		return nil, corruptf("not an ORC file (bad magic)")
	}
	if len(data) < len(Magic)+2 {
		return nil, corruptf("file of %d bytes is too short", len(data))
	}
	f := &File{data: data, budget: newBudget(len(data))}
	psLen := int(data[len(data)-1])
	psEnd := len(data) - 1
	if psLen == 0 || psLen > psEnd-len(Magic) {
		return nil, corruptf("postscript length %d in a file of %d bytes", psLen, len(data))
	}
	var footerLen, metaLen, stripeStatsLen uint64
	err := eachField(data[psEnd-psLen:psEnd], "postscript", func(fl pbField) (err error) {
		switch fl.num {
		case 1:
			footerLen, err = fl.varint("postscript footerLength")
		case 2:
			var c uint64
			c, err = fl.varint("postscript compression")
			f.Compression = Compression(min(c, math.MaxInt32))
		case 3:
			f.BlockSize, err = fl.varint("postscript compressionBlockSize")
		case 4:
			f.Version, err = fl.uint32s("postscript version", f.Version)
		case 5:
			metaLen, err = fl.varint("postscript metadataLength")
		case 6:
			f.WriterVersion, err = fl.varint("postscript writerVersion")
		case 7:
			stripeStatsLen, err = fl.varint("postscript stripeStatisticsLength")
		case 8000:
			var m []byte
			if m, err = fl.bytes("postscript magic"); err == nil && string(m) != Magic {
				err = corruptf("postscript magic %q", m)
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := f.checkCodec(); err != nil {
		return nil, err
	}
	// Tail layout: [stripes][encrypted stripe stats][metadata][footer][postscript][psLen].
	footerEnd := uint64(psEnd - psLen)
	tail := footerLen + metaLen
	if footerLen > footerEnd || tail < footerLen || tail+stripeStatsLen < tail ||
		tail+stripeStatsLen > footerEnd-uint64(len(Magic)) {
		return nil, corruptf("footer (%d bytes), metadata (%d) and stripe statistics (%d) exceed the file of %d bytes",
			footerLen, metaLen, stripeStatsLen, len(data))
	}
	f.content = footerEnd - tail - stripeStatsLen
	footer, err := f.decompress(data[footerEnd-footerLen:footerEnd], "footer")
	if err != nil {
		return nil, err
	}
	if err := f.parseFooter(footer); err != nil {
		return nil, err
	}
	meta, err := f.decompress(data[footerEnd-tail:footerEnd-footerLen], "metadata")
	if err != nil {
		return nil, err
	}
	if err := f.parseMetadata(meta); err != nil {
		return nil, err
	}
	return f, nil
}

func (f *File) checkCodec() error {
	switch f.Compression {
	case None:
		return nil
	case Zlib, Snappy, LZ4, Zstd:
		if f.BlockSize == 0 {
			f.BlockSize = 256 << 10 // the documented default when the field is absent
		}
		if f.BlockSize > maxBlockSize {
			return unsupportedf("compression block size %d exceeds %d", f.BlockSize, maxBlockSize)
		}
		return nil
	case LZO:
		return unsupportedf("LZO compression")
	}
	return corruptf("unknown compression kind %d", int(f.Compression))
}

func (f *File) parseFooter(b []byte) error {
	var rawTypes [][]byte
	err := eachField(b, "footer", func(fl pbField) (err error) {
		switch fl.num {
		case 3:
			var m []byte
			if m, err = fl.bytes("footer stripe"); err == nil {
				err = f.parseStripeInfo(m)
			}
		case 4:
			var m []byte
			if m, err = fl.bytes("footer type"); err == nil {
				rawTypes = append(rawTypes, m)
			}
		case 5:
			var m []byte
			if m, err = fl.bytes("footer user metadata"); err == nil {
				err = f.parseUserMetadata(m)
			}
		case 6:
			f.NumRows, err = fl.varint("footer numberOfRows")
		case 7:
			var m []byte
			if m, err = fl.bytes("footer statistics"); err == nil {
				var s ColumnStats
				if s, err = parseColumnStats(m); err == nil {
					f.Stats = append(f.Stats, s)
				}
			}
		case 10:
			err = unsupportedf("encrypted columns")
		case 12:
			var m []byte
			if m, err = fl.bytes("footer softwareVersion"); err == nil {
				f.Software = string(m)
			}
		}
		return err
	})
	if err != nil {
		return err
	}
	if err := f.buildTypes(rawTypes); err != nil {
		return err
	}
	var rows uint64
	for _, s := range f.Stripes {
		rows += s.NumRows // no overflow: each is at most the file size (checked in parseStripeInfo)
	}
	if rows != f.NumRows {
		return corruptf("footer says %d rows, stripes hold %d", f.NumRows, rows)
	}
	return nil
}

func (f *File) parseStripeInfo(b []byte) error {
	var s StripeInfo
	err := eachField(b, "stripe information", func(fl pbField) (err error) {
		switch fl.num {
		case 1:
			s.Offset, err = fl.varint("stripe offset")
		case 2:
			s.IndexLength, err = fl.varint("stripe indexLength")
		case 3:
			s.DataLength, err = fl.varint("stripe dataLength")
		case 4:
			s.FooterLength, err = fl.varint("stripe footerLength")
		case 5:
			s.NumRows, err = fl.varint("stripe numberOfRows")
		}
		return err
	})
	if err != nil {
		return err
	}
	n := len(f.Stripes)
	end, ok := addAll(s.Offset, s.IndexLength, s.DataLength, s.FooterLength)
	if !ok || s.Offset < uint64(len(Magic)) || end > f.content {
		return corruptf("stripe %d (offset %d, index %d, data %d, footer %d) outside the %d content bytes",
			n, s.Offset, s.IndexLength, s.DataLength, s.FooterLength, f.content)
	}
	if n > 0 {
		prev := f.Stripes[n-1]
		if s.Offset < prev.Offset+prev.IndexLength+prev.DataLength+prev.FooterLength {
			return corruptf("stripe %d overlaps stripe %d", n, n-1)
		}
	}
	// Cheap early rejection; the value budget enforces the real cap while decoding.
	if s.NumRows > f.budget.maxValues {
		return corruptf("stripe %d claims %d rows, more than a %d-byte file can hold", n, s.NumRows, len(f.data))
	}
	f.Stripes = append(f.Stripes, s)
	return nil
}

func (f *File) parseUserMetadata(b []byte) error {
	var name, value []byte
	err := eachField(b, "user metadata", func(fl pbField) (err error) {
		switch fl.num {
		case 1:
			name, err = fl.bytes("user metadata name")
		case 2:
			value, err = fl.bytes("user metadata value")
		}
		return err
	})
	if err != nil {
		return err
	}
	if f.Metadata == nil {
		f.Metadata = map[string][]byte{}
	}
	f.Metadata[string(name)] = value
	return nil
}

// addAll sums its arguments, reporting false on uint64 overflow.
func addAll(vs ...uint64) (uint64, bool) {
	var s uint64
	for _, v := range vs {
		if s+v < s {
			return 0, false
		}
		s += v
	}
	return s, true
}
