package binrow

import (
	"testing"
	"time"

	"github.com/lakeload/lakeload/paimon/spec"
)

func tsOf(y int, mo time.Month, d, h, mi, s, nanos int) spec.TimestampValue {
	tm := time.Date(y, mo, d, h, mi, s, nanos, time.UTC)
	return spec.TimestampValue{Millis: tm.UnixMilli(), NanoOfMilli: int32(tm.Nanosecond() % 1e6)}
}

// TestHashJavaTable checks the Java-generated hashes of paimon-format §5.3/§5.4.
func TestHashJavaTable(t *testing.T) {
	cases := []struct {
		name   string
		types  []spec.DataType
		values []any
		want   int32
	}{
		{"(INT 5, STRING ab)", []spec.DataType{ty(spec.Int), strT()}, []any{int32(5), "ab"}, 236764286},
		{"STRING hello", []spec.DataType{strT()}, []any{"hello"}, 243722546},
		{"STRING hello-java", []spec.DataType{strT()}, []any{"hello-java"}, -201703277},
		{"(STRING hello-java, BIGINT 42)", []spec.DataType{strT(), ty(spec.BigInt)}, []any{"hello-java", int64(42)}, -2066620165},
		{"DECIMAL(10,2) 12345.67", []spec.DataType{decT(10, 2)}, []any{dec(t, "1234567")}, 754928256},
		{"DECIMAL(25,2)", []spec.DataType{decT(25, 2)}, []any{dec(t, "1234567890123456789012345")}, 1388205002},
		{"TIMESTAMP(3)", []spec.DataType{tsT(3)}, []any{tsOf(2026, 1, 2, 3, 4, 5, 123000000)}, -1766746798},
		{"TIMESTAMP(6)", []spec.DataType{tsT(6)}, []any{tsOf(2026, 1, 2, 3, 4, 5, 123456000)}, 1245041971},
		{"BYTES 00 01 ff 7f", []spec.DataType{bytesT()}, []any{[]byte{0, 1, 0xff, 0x7f}}, 586821318},
		{"BYTES 00..09", []spec.DataType{bytesT()}, []any{[]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}, 1822312655},
	}
	for _, c := range cases {
		row, err := Encode(c.types, c.values)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := Hash(row); got != c.want {
			t.Errorf("%s: hash %d, Java %d", c.name, got, c.want)
		}
	}
}

// TestBucketExamples checks the fixed-bucket examples of paimon-format §6.8.
func TestBucketExamples(t *testing.T) {
	cases := []struct {
		name    string
		typ     spec.DataType
		value   any
		hash    int32
		buckets map[int]int
	}{
		{"INT 5", ty(spec.Int), int32(5), 260196596, map[int]int{4: 0, 10: 6}},
		{"BIGINT 1", ty(spec.BigInt), int64(1), 1465514398, map[int]int{4: 2}},
		{"STRING hello world!", strT(), "hello world!", 609810467, map[int]int{4: 3}},
	}
	for _, c := range cases {
		row, err := Encode([]spec.DataType{c.typ}, []any{c.value})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		h := Hash(row)
		if h != c.hash {
			t.Errorf("%s: hash %d, want %d", c.name, h, c.hash)
		}
		for n, want := range c.buckets {
			if got := Bucket(h, n); got != want {
				t.Errorf("%s: bucket(n=%d) %d, want %d", c.name, n, got, want)
			}
		}
	}
}

// TestBucketNegativeHash checks Java's abs(hash % n) with truncated remainder.
func TestBucketNegativeHash(t *testing.T) {
	cases := []struct {
		hash int32
		n    int
		want int
	}{
		{-7, 4, 3}, {7, 4, 3}, {-8, 4, 0}, {-2147483648, 12345, 2147483648 % 12345}, {2147483647, 10, 7},
	}
	for _, c := range cases {
		if got := Bucket(c.hash, c.n); got != c.want {
			t.Errorf("Bucket(%d, %d) = %d, want %d", c.hash, c.n, got, c.want)
		}
	}
}

// TestHashMurmurReference checks published MurmurHash3 x86_32 reference values on aligned inputs.
func TestHashMurmurReference(t *testing.T) {
	cases := []struct {
		in   []byte
		seed uint32
		want uint32
	}{
		{nil, 0, 0},
		{nil, 1, 0x514E28B7},
		{nil, 0xffffffff, 0x81F16F39},
		{[]byte{0, 0, 0, 0}, 0, 0x2362F9DE},
		{[]byte{0x21, 0x43, 0x65, 0x87}, 0, 0xF55B516B},
		{[]byte{0x21, 0x43, 0x65, 0x87}, 0x5082EDEE, 0x2362F9DE},
	}
	for _, c := range cases {
		if got := uint32(hashSeeded(c.in, c.seed)); got != c.want {
			t.Errorf("murmur3(%x, seed %#x) = %#x, want %#x", c.in, c.seed, got, c.want)
		}
	}
	if Hash([]byte("abcdefgh")) != hashSeeded([]byte("abcdefgh"), 42) {
		t.Errorf("Hash does not use seed 42")
	}
}

// HashBigInt must be Hash of the one-field BIGINT row for every value (the bucket of a row by a
// BIGINT bucket key): the edges, and a deterministic sweep of bit patterns.
func TestHashBigIntIsHashOfRow(t *testing.T) {
	vals := []int64{0, 1, -1, 42, 1 << 31, -1 << 31, 1<<32 - 1, 1 << 32, -1 << 63, 1<<63 - 1}
	x := uint64(0x9e3779b97f4a7c15)
	for i := 0; i < 10000; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		vals = append(vals, int64(x), int64(x>>uint(i%64)))
	}
	var b Builder
	for _, v := range vals {
		b.Reset(1)
		b.SetInt64(0, v)
		if got, want := HashBigInt(v), Hash(b.Bytes()); got != want {
			t.Fatalf("HashBigInt(%d) = %d, Hash of the row = %d", v, got, want)
		}
	}
}
