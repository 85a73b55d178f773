package orcfile

import (
	"errors"
	"testing"
)

func checkErr(t *testing.T, err error) {
	t.Helper()
	if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
		t.Fatalf("error wraps neither ErrCorrupt nor ErrUnsupported: %v", err)
	}
}

// FuzzORC: arbitrary bytes never panic, and errors are classified. Seeds: every Java-written ORC
// fixture, the synthetic file (uncompressed and chunked), and truncations.
func FuzzORC(f *testing.F) {
	for _, fx := range orcFixtures(f) {
		f.Add(fx.data)
		f.Add(fx.data[:len(fx.data)/2])
	}
	for _, c := range []Compression{None, Zstd} {
		s := syntheticSpec()
		s.compression = c
		f.Add(s.build())
	}
	f.Add([]byte("ORC"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := ReadRows(data)
		checkErr(t, err)
	})
}

// TestCorruptedFixtures: every truncation and every single-byte change (to 0xff, or the
// complement) of a small Java manifest list and of the synthetic file is rejected cleanly or
// still decodes; nothing panics.
func TestCorruptedFixtures(t *testing.T) {
	var smallest []byte
	for _, fx := range orcFixtures(t) {
		if smallest == nil || len(fx.data) < len(smallest) {
			smallest = fx.data
		}
	}
	s := syntheticSpec()
	for _, orig := range [][]byte{smallest, s.build()} {
		for cut := range len(orig) {
			_, err := ReadRows(orig[:cut])
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("truncated to %d of %d bytes: %v", cut, len(orig), err)
			}
		}
		data := make([]byte, len(orig))
		for i := range orig {
			for _, b := range []byte{0xff, ^orig[i]} {
				copy(data, orig)
				data[i] = b
				_, err := ReadRows(data)
				checkErr(t, err)
			}
		}
	}
}
