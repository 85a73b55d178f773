package orcfile

import (
	"errors"
	"reflect"
	"testing"
)

func readInts(t *testing.T, r intReader, n int) []int64 {
	t.Helper()
	out := make([]int64, n)
	for i := range out {
		v, err := r.next()
		if err != nil {
			t.Fatalf("value %d: %v", i, err)
		}
		out[i] = v
	}
	return out
}

func seq(from, to, step int64) []int64 {
	var out []int64
	for v := from; (step > 0 && v <= to) || (step < 0 && v >= to); v += step {
		out = append(out, v)
	}
	return out
}

// TestIntRLE decodes the examples of the ORC v1 specification (RLE v1, and all four RLE v2
// sub-encodings) plus signed and decreasing variants.
func TestIntRLE(t *testing.T) {
	rep := func(v int64, n int) []int64 {
		out := make([]int64, n)
		for i := range out {
			out[i] = v
		}
		return out
	}
	cases := []struct {
		name       string
		v2, signed bool
		in         []byte
		want       []int64
	}{
		{"v1 run", false, false, []byte{0x61, 0x00, 0x07}, rep(7, 100)},
		{"v1 decreasing run", false, false, []byte{0x61, 0xff, 0x64}, seq(100, 1, -1)},
		{"v1 literals", false, false, []byte{0xfb, 0x02, 0x03, 0x04, 0x07, 0x0b}, []int64{2, 3, 4, 7, 11}},
		{"v1 signed literals", false, true, []byte{0xfd, 0x01, 0x04, 0x80, 0x01}, []int64{-1, 2, 64}},
		{"v2 short repeat", true, false, []byte{0x0a, 0x27, 0x10}, rep(10000, 5)},
		{"v2 short repeat signed", true, true, []byte{0x00, 0x03}, []int64{-2, -2, -2}},
		{"v2 direct", true, false, []byte{0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef},
			[]int64{23713, 43806, 57005, 48879}},
		{"v2 direct signed 2-bit", true, true, []byte{0x42, 0x03, 0x1b}, []int64{0, -1, 1, -2}},
		{"v2 patched base", true, false, []byte{0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70, 0x28,
			0x32, 0x3c, 0x46, 0x50, 0x5a, 0x64, 0x6e, 0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8},
			[]int64{2030, 2000, 2020, 1000000, 2040, 2050, 2060, 2070, 2080, 2090, 2100, 2110, 2120, 2130,
				2140, 2150, 2160, 2170, 2180, 2190}},
		// The same run with a negative base: byte 3 of the header keeps 2 base bytes, the base
		// has its sign bit set (-2000 = 0x87d0) and the result is shifted down by 4000.
		{"v2 patched base negative", true, true, []byte{0x8e, 0x13, 0x2b, 0x21, 0x87, 0xd0, 0x1e, 0x00, 0x14, 0x70,
			0x28, 0x32, 0x3c, 0x46, 0x50, 0x5a, 0x64, 0x6e, 0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8},
			[]int64{-1970, -2000, -1980, 996000, -1960, -1950, -1940, -1930, -1920, -1910, -1900, -1890,
				-1880, -1870, -1860, -1850, -1840, -1830, -1820, -1810}},
		{"v2 delta", true, false, []byte{0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46},
			[]int64{2, 3, 5, 7, 11, 13, 17, 19, 23, 29}},
		// Decreasing: base 29, delta base -6 (zigzag 11), then the same magnitudes reversed.
		{"v2 delta decreasing", true, false, []byte{0xc6, 0x09, 0x1d, 0x0b, 0x42, 0x42, 0x42, 0x21},
			[]int64{29, 23, 19, 17, 13, 11, 7, 5, 3, 2}},
		{"v2 fixed delta signed", true, true, []byte{0xc0, 0x04, 0x13, 0x03}, []int64{-10, -12, -14, -16, -18}},
		{"v2 runs back to back", true, false, []byte{0x0a, 0x27, 0x10, 0xc0, 0x02, 0x05, 0x02}, append(rep(10000, 5), 5, 6, 7)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &stream{b: c.in, what: c.name}
			r := newIntReader(s, c.v2, c.signed)
			if got := readInts(t, r, len(c.want)); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got  %v\nwant %v", got, c.want)
			}
			if s.remaining() != 0 {
				t.Errorf("%d bytes left unread", s.remaining())
			}
			if _, err := r.next(); !errors.Is(err, ErrCorrupt) {
				t.Errorf("read past the end: %v", err)
			}
			for cut := range len(c.in) { // every truncation fails cleanly
				r := newIntReader(&stream{b: c.in[:cut]}, c.v2, c.signed)
				var err error
				for range len(c.want) {
					if _, err = r.next(); err != nil {
						break
					}
				}
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("truncated to %d bytes: %v", cut, err)
				}
			}
		})
	}
}

func TestIntRLEv2RejectsBadRuns(t *testing.T) {
	for name, in := range map[string][]byte{
		"patch past the run":       {0x8e, 0x00, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0xfc, 0xe8},
		"patch wider than 64 bits": {0x8e, 0x00, 0x3f, 0xe1, 0x07, 0xd0},
		"delta of one value":       {0xc6, 0x00, 0x02, 0x02},
	} {
		if _, err := newIntReader(&stream{b: in}, true, false).next(); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestByteAndBoolRLE(t *testing.T) {
	r := &byteRLE{s: &stream{b: []byte{0x61, 0x00, 0xfe, 0x44, 0x45}}}
	for i := range 102 {
		b, err := r.next()
		want := byte(0)
		if i == 100 {
			want = 0x44
		} else if i == 101 {
			want = 0x45
		}
		if err != nil || b != want {
			t.Fatalf("byte %d: %#x, %v", i, b, err)
		}
	}
	if _, err := r.next(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("past the end: %v", err)
	}
	bits := newBoolRLE(&stream{b: []byte{0xfe, 0xff, 0x80}})
	for i := range 16 {
		v, err := bits.next()
		if err != nil || v != (i < 9) {
			t.Fatalf("bit %d: %v, %v", i, v, err)
		}
	}
}

func TestWidthTables(t *testing.T) {
	want := []uint{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 26, 28, 30, 32, 40, 48, 56, 64}
	for code, w := range want {
		if got := decodeWidth(byte(code)); got != w {
			t.Errorf("decodeWidth(%d) = %d, want %d", code, got, w)
		}
	}
	for n, w := range map[uint]uint{0: 1, 1: 1, 14: 14, 24: 24, 25: 26, 27: 28, 31: 32, 33: 40, 41: 48, 50: 56, 57: 64, 64: 64} {
		if got := closestFixedBits(n); got != w {
			t.Errorf("closestFixedBits(%d) = %d, want %d", n, got, w)
		}
	}
}
