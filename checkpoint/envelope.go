package checkpoint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"strconv"
	"strings"
)

// Envelope format, version 1 — one header line, then the JSON body:
//
//	LLCKPT 1 <kind> <crc32c of body, 8 lower-case hex digits> <body length in bytes>\n<body>
//
// The length catches torn (short) writes, the CRC32C catches bit rot, the kind catches a record
// copied to the wrong name, and the version refuses records of an unknown layout.
//
// Version 2 is version 1 whose body may hold a byte-range text split (a split with byteStart,
// byteEnd and firstLine: a plan, plan revision or generation record of a job whose text files were
// cut). Only such records are written as version 2, so every other record stays readable by a
// lakeload that knows version 1 only, and one that does refuses a cut plan by its version instead
// of as a damaged record. Splits are opaque to this package: the job says which version a split
// needs (NewOpaque) and refuses a byte range read from a version 1 record (Opaque.Require).
const (
	envelopeMagic      = "LLCKPT"
	envelopeVersion    = 1 // the base layout
	maxEnvelopeVersion = 2
	maxHeaderLen       = 128
)

// versionOf is the envelope version of record v: the highest version of the opaque values it
// holds (opaque.go), else the base version.
func versionOf(v any) int {
	if h, ok := v.(holder); ok {
		return opaqueVersion(h)
	}
	return envelopeVersion
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// encodeRecord wraps v's JSON in an envelope of kind.
func encodeRecord(kind string, v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: encode %s: %w", kind, err)
	}
	header := fmt.Sprintf("%s %d %s %08x %d\n", envelopeMagic, versionOf(v), kind,
		crc32.Checksum(body, castagnoli), len(body))
	return append([]byte(header), body...), nil
}

// decodeRecord checks the envelope of data read from path and decodes its body into v. Unknown
// JSON fields are refused: a newer layout must bump the version. Errors wrap ErrCorrupt.
func decodeRecord(path, kind string, data []byte, v any) error {
	nl := bytes.IndexByte(data, '\n')
	if nl < 0 || nl > maxHeaderLen {
		return corruptf(path, "no record header (torn or foreign file, %d bytes)", len(data))
	}
	f := strings.Split(string(data[:nl]), " ")
	if len(f) != 5 || f[0] != envelopeMagic {
		return corruptf(path, "bad record header %q", data[:nl])
	}
	ver, err := strconv.Atoi(f[1])
	if err != nil || ver < envelopeVersion || ver > maxEnvelopeVersion {
		return corruptf(path, "record format version %q is not supported (this lakeload reads versions %d to %d)", f[1], envelopeVersion, maxEnvelopeVersion)
	}
	if f[2] != kind {
		return corruptf(path, "record kind %q where %q belongs", f[2], kind)
	}
	sum, err := strconv.ParseUint(f[3], 16, 32)
	if err != nil || len(f[3]) != 8 {
		return corruptf(path, "bad checksum field %q", f[3])
	}
	n, err := strconv.Atoi(f[4])
	if err != nil || n < 0 {
		return corruptf(path, "bad length field %q", f[4])
	}
	body := data[nl+1:]
	if len(body) != n {
		return corruptf(path, "torn record: body has %d bytes, header says %d", len(body), n)
	}
	if got := crc32.Checksum(body, castagnoli); got != uint32(sum) {
		return corruptf(path, "checksum mismatch: body %08x, header %08x", got, sum)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return corruptf(path, "%s body: %v", kind, err)
	}
	if dec.More() {
		return corruptf(path, "%s body: trailing data", kind)
	}
	if h, ok := v.(holder); ok {
		stampOpaque(h, ver, path) // the job checks the version its values need (Opaque.Require)
	}
	return nil
}
