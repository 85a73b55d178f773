package dv

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strconv"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// sampleVectors covers array, bitmap and run containers, an empty vector and large positions.
func sampleVectors() map[string]*roaring.Bitmap {
	dense := roaring.New()
	for i := uint32(0); i < 20000; i += 3 {
		dense.Add(i) // > 4096 values in one container: bitmap container
	}
	run := roaring.New()
	run.AddRange(100, 70000) // run container after RunOptimize
	big := roaring.BitmapOf(0, 1<<31-1, 1<<20)
	return map[string]*roaring.Bitmap{
		"data-b.parquet": dense,
		"data-a.parquet": roaring.BitmapOf(0, 5, 9),
		"data-c.parquet": run,
		"data-d.parquet": roaring.New(),
		"data-e.parquet": big,
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	vectors := sampleVectors()
	runBefore := vectors["data-c.parquet"].HasRunCompression()
	var buf bytes.Buffer
	metas, size, err := WriteIndexFile(&buf, vectors)
	if err != nil {
		t.Fatal(err)
	}
	if size != int64(buf.Len()) || buf.Bytes()[0] != IndexFileVersion {
		t.Fatalf("size %d for %d bytes, version byte %d", size, buf.Len(), buf.Bytes()[0])
	}
	if vectors["data-c.parquet"].HasRunCompression() != runBefore {
		t.Error("WriteIndexFile modified the caller's bitmap")
	}
	next := int32(1)
	for i, m := range metas {
		if i > 0 && metas[i-1].DataFileName >= m.DataFileName {
			t.Errorf("metas not in name order: %s before %s", metas[i-1].DataFileName, m.DataFileName)
		}
		if m.Offset != next {
			t.Errorf("%s at offset %d, want %d", m.DataFileName, m.Offset, next)
		}
		next = m.Offset + 4 + m.Length + 4
		want := vectors[m.DataFileName]
		v, err := ReadDeletionVector(bytes.NewReader(buf.Bytes()), m)
		if err != nil {
			t.Fatalf("%s: %v", m.DataFileName, err)
		}
		if v.Cardinality() != int64(want.GetCardinality()) || *m.Cardinality != v.Cardinality() {
			t.Errorf("%s: cardinality %d, meta %d, want %d", m.DataFileName, v.Cardinality(), *m.Cardinality, want.GetCardinality())
		}
		it := want.Iterator()
		for it.HasNext() {
			p := it.Next()
			if !v.IsDeleted(int64(p)) || (!want.Contains(p+1) && v.IsDeleted(int64(p)+1)) {
				t.Fatalf("%s: position %d or its successor wrong", m.DataFileName, p)
			}
		}
		if v.IsDeleted(-1) || v.IsDeleted(1<<40) {
			t.Errorf("%s: out-of-range positions reported deleted", m.DataFileName)
		}
	}
	if int64(next) != size || len(metas) != len(vectors) {
		t.Errorf("frames end at %d, file is %d bytes; %d metas", next, size, len(metas))
	}
	if _, _, err := WriteIndexFile(&bytes.Buffer{}, map[string]*roaring.Bitmap{"x": nil}); err == nil {
		t.Error("nil bitmap accepted")
	}
}

// TestCorruptionIsDetected: in a one-vector file every flipped byte and every truncation is an
// error wrapping ErrCorrupt, as are metas that disagree with the file.
func TestCorruptionIsDetected(t *testing.T) {
	var buf bytes.Buffer
	metas, _, err := WriteIndexFile(&buf, map[string]*roaring.Bitmap{"data-a.parquet": roaring.BitmapOf(1, 2, 3, 1000, 70000)})
	if err != nil {
		t.Fatal(err)
	}
	good, m := buf.Bytes(), metas[0]
	expectCorrupt := func(what string, data []byte, meta manifest.DeletionVectorMeta) {
		t.Helper()
		if _, err := ReadDeletionVector(bytes.NewReader(data), meta); !errors.Is(err, spec.ErrCorrupt) {
			t.Errorf("%s: got %v, want ErrCorrupt", what, err)
		}
	}
	for i := range good {
		for _, mask := range []byte{0x01, 0x80, 0xff} {
			b := bytes.Clone(good)
			b[i] ^= mask
			expectCorrupt("flip byte "+itoa(int64(i)), b, m)
		}
	}
	for n := range len(good) {
		expectCorrupt("truncate to "+itoa(int64(n)), good[:n], m)
	}
	wrong := m
	wrong.Length++
	expectCorrupt("length", good, wrong)
	wrong = m
	wrong.Offset = 2
	expectCorrupt("offset", good, wrong)
	wrong = m
	wrong.Offset = 0
	expectCorrupt("offset 0", good, wrong)
	wrong = m
	wrong.Cardinality = new(int64)
	expectCorrupt("cardinality", good, wrong)
	wrong = m
	wrong.Length = -5
	expectCorrupt("negative length", good, wrong)
}

// javaBitmap64Frame builds a frame the way Java's Bitmap64DeletionVector.serializeTo does: a
// bitmap for every high key from 0 to the largest (empty ones included).
func javaBitmap64Frame(perKey []*roaring.Bitmap) []byte {
	body := binary.LittleEndian.AppendUint32(nil, uint32(Magic64))
	body = binary.LittleEndian.AppendUint64(body, uint64(len(perKey)))
	for key, bm := range perKey {
		body = binary.LittleEndian.AppendUint32(body, uint32(key))
		b, _ := bm.ToBytes()
		body = append(body, b...)
	}
	frame := binary.BigEndian.AppendUint32(nil, uint32(len(body)))
	frame = append(frame, body...)
	return binary.BigEndian.AppendUint32(frame, crc32.ChecksumIEEE(body))
}

func TestReadBitmap64(t *testing.T) {
	frame := javaBitmap64Frame([]*roaring.Bitmap{roaring.New(), roaring.BitmapOf(5, 7)})
	file := append([]byte{IndexFileVersion}, frame...)
	card := int64(2)
	m := manifest.DeletionVectorMeta{DataFileName: "d", Offset: 1, Length: int32(len(frame)), Cardinality: &card}
	v, err := ReadDeletionVector(bytes.NewReader(file), m)
	if err != nil {
		t.Fatal(err)
	}
	if !v.IsDeleted(1<<32+5) || !v.IsDeleted(1<<32+7) || v.IsDeleted(5) || v.IsDeleted(1<<32+6) || v.Cardinality() != 2 {
		t.Errorf("64-bit vector decoded wrongly")
	}
	short := m
	short.Length -= 8 // the 32-bit convention: must be rejected for a 64-bit vector
	if _, err := ReadDeletionVector(bytes.NewReader(file), short); !errors.Is(err, spec.ErrCorrupt) {
		t.Errorf("length without size+CRC accepted: %v", err)
	}
	// A bitmap count far beyond the bytes present is refused before any allocation.
	huge := bytes.Clone(file)
	binary.LittleEndian.PutUint64(huge[1+4+4:], 1<<40)
	body := huge[5 : 5+len(frame)-8]
	binary.BigEndian.PutUint32(huge[5+len(body):], crc32.ChecksumIEEE(body))
	if _, err := ReadDeletionVector(bytes.NewReader(huge), m); !errors.Is(err, spec.ErrCorrupt) {
		t.Errorf("huge bitmap count: %v", err)
	}
}
