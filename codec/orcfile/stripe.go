package orcfile

import (
	"strconv"
	"time"
)

// Stream kinds (orc_proto.proto Stream.Kind) this reader uses.
const (
	streamPresent        = 0
	streamData           = 1
	streamLength         = 2
	streamDictionaryData = 3
	streamSecondary      = 5
)

var streamNames = map[uint64]string{streamPresent: "PRESENT", streamData: "DATA", streamLength: "LENGTH",
	streamDictionaryData: "DICTIONARY_DATA", streamSecondary: "SECONDARY"}

// Column encodings (orc_proto.proto ColumnEncoding.Kind).
const (
	encDirect       = 0
	encDictionary   = 1
	encDirectV2     = 2
	encDictionaryV2 = 3
)

type streamKey struct {
	column uint64
	kind   uint64
}

type encoding struct {
	kind, dictSize uint64
}

// stripe is one stripe's footer: where each stream lies, each column's encoding, and the writer
// time zone that TIMESTAMP columns are relative to.
type stripe struct {
	f       *File
	index   int
	streams map[streamKey][]byte // still compressed
	enc     []encoding           // by column id
	tz      *time.Location       // nil means UTC
}

func (f *File) openStripe(i int) (*stripe, error) {
	si := f.Stripes[i]
	st := &stripe{f: f, index: i, streams: map[streamKey][]byte{}}
	footerStart := si.Offset + si.IndexLength + si.DataLength
	footer, err := f.decompress(f.data[footerStart:footerStart+si.FooterLength], st.name("footer"))
	if err != nil {
		return nil, err
	}
	pos := si.Offset
	var tzName string
	err = eachField(footer, st.name("footer"), func(fl pbField) error {
		switch fl.num {
		case 1:
			m, err := fl.bytes("stripe stream")
			if err != nil {
				return err
			}
			return st.addStream(m, &pos)
		case 2:
			m, err := fl.bytes("stripe column encoding")
			if err != nil {
				return err
			}
			var e encoding
			err = eachField(m, "column encoding", func(fl pbField) (err error) {
				switch fl.num {
				case 1:
					e.kind, err = fl.varint("column encoding kind")
				case 2:
					e.dictSize, err = fl.varint("column encoding dictionarySize")
				}
				return err
			})
			st.enc = append(st.enc, e)
			return err
		case 3:
			b, err := fl.bytes("stripe writerTimezone")
			tzName = string(b)
			return err
		case 4:
			return unsupportedf("%s: encrypted columns", st.name(""))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(st.enc) < len(f.types) {
		return nil, corruptf("%s: %d column encodings for %d columns", st.name("footer"), len(st.enc), len(f.types))
	}
	if st.tz, err = loadZone(tzName); err != nil {
		return nil, err
	}
	return st, nil
}

// addStream records one stream; streams lie back to back from the stripe's start in the order
// the footer lists them, index streams first.
func (st *stripe) addStream(m []byte, pos *uint64) error {
	var k streamKey
	var length uint64
	err := eachField(m, "stream", func(fl pbField) (err error) {
		switch fl.num {
		case 1:
			k.kind, err = fl.varint("stream kind")
		case 2:
			k.column, err = fl.varint("stream column")
		case 3:
			length, err = fl.varint("stream length")
		}
		return err
	})
	if err != nil {
		return err
	}
	si := st.f.Stripes[st.index]
	end := si.Offset + si.IndexLength + si.DataLength // validated in parseStripeInfo
	if length > end-*pos {
		return corruptf("%s: stream %s of column %d (%d bytes) overruns the stripe", st.name(""), kindName(k.kind), k.column, length)
	}
	if _, dup := st.streams[k]; dup {
		return corruptf("%s: duplicate stream %s of column %d", st.name(""), kindName(k.kind), k.column)
	}
	st.streams[k] = st.f.data[*pos : *pos+length]
	*pos += length
	return nil
}

// stream returns the decompressed stream, or nil if the stripe has none (an error if required).
func (st *stripe) stream(column int, kind uint64, required bool) (*stream, error) {
	what := st.name("column " + strconv.Itoa(column) + " " + kindName(kind))
	raw, ok := st.streams[streamKey{uint64(column), kind}]
	if !ok {
		if required {
			return nil, corruptf("%s: missing stream", what)
		}
		return nil, nil
	}
	b, err := st.f.decompress(raw, what)
	if err != nil {
		return nil, err
	}
	return &stream{b: b, what: what}, nil
}

// ints returns a reader of an integer stream, RLE v1 or v2 by the column's encoding.
func (st *stripe) ints(column int, kind uint64, signed bool) (intReader, error) {
	s, err := st.stream(column, kind, true)
	if err != nil {
		return nil, err
	}
	e := st.enc[column].kind
	return newIntReader(s, e == encDirectV2 || e == encDictionaryV2, signed), nil
}

func (st *stripe) name(part string) string {
	s := "stripe " + strconv.Itoa(st.index)
	if part != "" {
		s += " " + part
	}
	return s
}

func kindName(k uint64) string {
	if n, ok := streamNames[k]; ok {
		return n
	}
	return "kind " + strconv.FormatUint(k, 10)
}
