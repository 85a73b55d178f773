package manifest

import (
	"encoding/binary"
	"fmt"
	"strconv"
)

// SimpleStats holds min/max rows and per-column null counts (Java SimpleStats).
// MinValues and MaxValues are serialized BinaryRows of the same arity; NullCounts has one entry per
// stats column, nil element = unknown. Writers store a nil NullCounts as the empty array (never null).
type SimpleStats struct {
	MinValues, MaxValues []byte
	NullCounts           []*int64
}

// EmptyRow is the serialized arity-0 BinaryRow: 4-byte arity 0 and an 8-byte null-bit header.
var EmptyRow = []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}

// EmptyStats is Java's SimpleStats.EMPTY_STATS: arity-0 rows and no null counts. Treat it as read-only.
var EmptyStats = SimpleStats{MinValues: EmptyRow, MaxValues: EmptyRow, NullCounts: []*int64{}}

// checkRow verifies that b is long enough to be a serialized BinaryRow of its declared arity
// (4-byte big-endian arity, null-bit words, 8 bytes per field). It does not decode the row.
func checkRow(what string, b []byte) error {
	if len(b) < 4 {
		return fmt.Errorf("manifest: %s: serialized BinaryRow has %d bytes, want at least 4", what, len(b))
	}
	arity := int64(int32(binary.BigEndian.Uint32(b)))
	if arity < 0 {
		return fmt.Errorf("manifest: %s: negative BinaryRow arity %d", what, arity)
	}
	fixed := (arity+63+8)/64*8 + 8*arity
	if int64(len(b)-4) < fixed {
		return fmt.Errorf("manifest: %s: BinaryRow of arity %d needs %d fixed bytes, has %d", what, arity, fixed, len(b)-4)
	}
	return nil
}

func checkStats(what string, s SimpleStats) error {
	if err := checkRow(what+" min values", s.MinValues); err != nil {
		return err
	}
	return checkRow(what+" max values", s.MaxValues)
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
