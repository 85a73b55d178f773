package orcfile

import (
	"errors"
	"math"
	"reflect"
	"testing"
	"time"
)

// Stream kinds and encodings as numbered on disk, for the test files.
const (
	kPresent, kData, kLength, kDict, kSecondary = 0, 1, 2, 3, 5
	eDirect, eDictionary                        = 0, 1
)

var syntheticTimes = []time.Time{
	time.Date(2025, 8, 21, 14, 37, 44, 77_000_000, time.UTC),
	time.Date(1969, 12, 31, 23, 59, 58, 500_000_000, time.UTC), // ORC-763 adjustment
	time.Date(2015, 1, 1, 0, 0, 0, 123_456_789, time.UTC),
}

// syntheticSpec is a three-row file with every column kind the reader supports, RLE v1
// encodings (the Java fixtures cover RLE v2), PRESENT streams and a dictionary column.
func syntheticSpec() orcSpec {
	var secs, nanos []int64
	for _, ts := range syntheticTimes {
		s, n := ts.Unix(), int64(ts.Nanosecond())
		if s < 0 && n > 999_999 { // what the Java writer does (ORC-763)
			s++
		}
		secs, nanos = append(secs, s-orcEpoch), append(nanos, encodeNanos(n))
	}
	return orcSpec{
		types: [][]byte{
			typ(Struct, []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 16},
				"b", "t", "s", "d", "f", "x", "ts", "str", "vc", "bin", "l", "m", "n"),
			typ(Boolean, nil), typ(Byte, nil), typ(Short, nil), typ(Date, nil), typ(Float, nil), typ(Double, nil),
			typ(Timestamp, nil), typ(String, nil), typ(Varchar, nil), typ(Binary, nil),
			typ(List, []uint64{12}), typ(Int, nil),
			typ(Map, []uint64{14, 15}), typ(String, nil), typ(Long, nil),
			typ(Int, nil),
		},
		encodings: []uint64{eDirect, eDirect, eDirect, eDirect, eDirect, eDirect, eDirect, eDirect, eDictionary,
			eDirect, eDirect, eDirect, eDirect, eDirect, eDirect, eDirect, eDirect},
		dictSizes: map[int]uint64{8: 2},
		streams: []testStream{
			{1, kData, bools(true, false, true)},
			{2, kData, byteLits(0xff, 7, 0)},
			{3, kData, rle1(true, 300, -2, 0)},
			{4, kData, rle1(true, 19000, -1, 0)},
			{5, kData, float32s(1.5, 0, float32(math.Inf(-1)))},
			{6, kData, float64s(-2.25, 1e100, 0)},
			{7, kData, rle1(true, secs...)},
			{7, kSecondary, rle1(false, nanos...)},
			{8, kPresent, bools(true, true, false)},
			{8, kDict, []byte("ab")},
			{8, kLength, rle1(false, 1, 1)},
			{8, kData, rle1(false, 1, 0)},
			{9, kData, []byte("helloé")},
			{9, kLength, rle1(false, 5, 0, 2)},
			{10, kData, []byte{1, 2, 0xff}},
			{10, kLength, rle1(false, 2, 0, 1)},
			{11, kPresent, bools(true, true, false)},
			{11, kLength, rle1(false, 3, 0)},
			{12, kData, rle1(true, 1, 2, 3)},
			{13, kPresent, bools(true, true, false)},
			{13, kLength, rle1(false, 1, 0)},
			{14, kData, []byte("k")},
			{14, kLength, rle1(false, 1)},
			{15, kData, rle1(true, -5)},
			{16, kPresent, bools(false, true, false)},
			{16, kData, rle1(true, 42)},
		},
		rows: 3,
	}
}

func syntheticRows() []map[string]any {
	return []map[string]any{
		{"b": true, "t": int8(-1), "s": int16(300), "d": int32(19000), "f": float32(1.5), "x": -2.25,
			"ts": syntheticTimes[0], "str": "b", "vc": "hello", "bin": []byte{1, 2}, "l": []any{int32(1), int32(2), int32(3)},
			"m": []KeyValue{{"k", int64(-5)}}, "n": nil},
		{"b": false, "t": int8(7), "s": int16(-2), "d": int32(-1), "f": float32(0), "x": 1e100,
			"ts": syntheticTimes[1], "str": "a", "vc": "", "bin": []byte{}, "l": []any{},
			"m": []KeyValue{}, "n": int32(42)},
		{"b": true, "t": int8(0), "s": int16(0), "d": int32(0), "f": float32(math.Inf(-1)), "x": 0.0,
			"ts": syntheticTimes[2], "str": nil, "vc": "é", "bin": []byte{0xff}, "l": nil, "m": nil, "n": nil},
	}
}

// TestSyntheticFile decodes a hand-built file, uncompressed and framed in stored chunks.
func TestSyntheticFile(t *testing.T) {
	for _, c := range []Compression{None, Zstd} {
		s := syntheticSpec()
		s.compression = c
		f, err := Open(s.build())
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		wantSchema := "struct<b:boolean,t:tinyint,s:smallint,d:date,f:float,x:double,ts:timestamp,str:string," +
			"vc:varchar,bin:binary,l:array<int>,m:map<string,bigint>,n:int>"
		if got := f.Schema.String(); got != wantSchema || f.Compression != c || f.NumRows != 3 {
			t.Fatalf("%s: schema %s, compression %s, %d rows", c, got, f.Compression, f.NumRows)
		}
		rows, err := f.Rows()
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		if want := syntheticRows(); !reflect.DeepEqual(rows, want) {
			t.Errorf("%s:\ngot  %v\nwant %v", c, rows, want)
		}
	}
}

// TestSyntheticFileErrors: malformed variants of the synthetic file fail with ErrCorrupt or
// ErrUnsupported, and never allocate what they claim.
func TestSyntheticFileErrors(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(s *orcSpec)
		want   error
	}{
		{"missing stream", func(s *orcSpec) { s.streams = s.streams[1:] }, ErrCorrupt},
		{"short stream", func(s *orcSpec) { s.streams[9].data = []byte("a") }, ErrCorrupt},
		{"dictionary index", func(s *orcSpec) { s.streams[11].data = rle1(false, 2, 0) }, ErrCorrupt},
		{"huge list", func(s *orcSpec) { s.streams[17].data = rle1(false, 1<<40, 0) }, ErrCorrupt},
		{"huge dictionary", func(s *orcSpec) { s.dictSizes[8] = 1 << 40 }, ErrCorrupt},
		{"huge row count", func(s *orcSpec) { s.rows = 1 << 40 }, ErrCorrupt},
		{"more rows than streams hold", func(s *orcSpec) { s.rows = 4 }, ErrCorrupt},
		{"int out of range", func(s *orcSpec) { s.streams[len(s.streams)-1].data = rle1(true, 1<<31) }, ErrCorrupt},
		{"bad nanos", func(s *orcSpec) { s.streams[7].data = rle1(false, 1_000_000_000<<3, 0, 0) }, ErrCorrupt},
		{"missing encodings", func(s *orcSpec) { s.encodings = s.encodings[:3] }, ErrCorrupt},
		{"dictionary binary", func(s *orcSpec) { s.encodings[10] = eDictionary }, ErrCorrupt},
		{"type cycle", func(s *orcSpec) { s.types[11] = typ(List, []uint64{11}) }, ErrCorrupt},
		{"shared subtype", func(s *orcSpec) { s.types[11] = typ(List, []uint64{10}) }, ErrCorrupt},
		{"unknown time zone", func(s *orcSpec) { s.tz = "Mars/Olympus_Mons" }, ErrUnsupported},
		{"union column", func(s *orcSpec) { s.types[16] = typ(Union, nil) }, ErrUnsupported},
		{"LZO", func(s *orcSpec) { s.compression = LZO }, ErrUnsupported},
	}
	for _, c := range cases {
		s := syntheticSpec()
		c.mutate(&s)
		if _, err := ReadRows(s.build()); !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
}

// TestTimestampWriterZone: a TIMESTAMP is relative to 2015-01-01 in the writer's zone and reads
// back as the writer's wall clock, across daylight saving time.
func TestTimestampWriterZone(t *testing.T) {
	for _, zone := range []string{"Asia/Shanghai", "America/New_York"} {
		loc, err := loadZone(zone)
		if err != nil {
			t.Fatal(err)
		}
		for _, wall := range []time.Time{
			time.Date(2025, 7, 1, 12, 0, 0, 5_000_000, time.UTC),
			time.Date(2025, 1, 15, 23, 30, 0, 0, time.UTC),
			time.Date(1960, 3, 1, 1, 2, 3, 0, time.UTC),
		} {
			instant := time.Date(wall.Year(), wall.Month(), wall.Day(), wall.Hour(), wall.Minute(), wall.Second(), wall.Nanosecond(), loc)
			secs := instant.Unix() - time.Date(2015, 1, 1, 0, 0, 0, 0, loc).Unix()
			got, ok := timestampValue(secs, uint64(encodeNanos(int64(wall.Nanosecond()))), loc, false)
			if !ok || !got.Equal(wall) {
				t.Errorf("%s %s: got %s", zone, wall, got)
			}
			// TIMESTAMP_INSTANT ignores the writer zone: seconds are relative to UTC 2015-01-01.
			inst, ok := timestampValue(instant.Unix()-orcEpoch, uint64(encodeNanos(int64(wall.Nanosecond()))), loc, true)
			if !ok || !inst.Equal(instant) {
				t.Errorf("%s %s instant: got %s", zone, wall, inst)
			}
		}
	}
}
