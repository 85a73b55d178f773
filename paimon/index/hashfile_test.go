package index_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/spec"
)

func TestHashFileRoundTrip(t *testing.T) {
	hs := []int32{0, 1, -1, 260196596, -2066620165, 1 << 30}
	b := index.EncodeHashes(hs)
	if len(b) != 4*len(hs) || b[4] != 0 || b[7] != 1 || b[8] != 0xff {
		t.Fatalf("not int32 big-endian: % x", b)
	}
	got, err := index.DecodeHashes(b)
	if err != nil || !slices.Equal(got, hs) {
		t.Fatalf("decode: %v %v", got, err)
	}
	if _, err := index.DecodeHashes(b[:5]); !errors.Is(err, spec.ErrCorrupt) {
		t.Errorf("5 bytes: %v, want ErrCorrupt", err)
	}
}

func FuzzDecodeHashes(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0, 1})
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		hs, err := index.DecodeHashes(b)
		if err != nil {
			if !errors.Is(err, spec.ErrCorrupt) {
				t.Fatalf("error does not wrap ErrCorrupt: %v", err)
			}
			return
		}
		if !slices.Equal(index.EncodeHashes(hs), b) {
			t.Fatal("re-encoding differs")
		}
	})
}
