package dv

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

// FuzzReadDeletionVector: arbitrary index bytes and ranges never panic; errors wrap ErrCorrupt.
func FuzzReadDeletionVector(f *testing.F) {
	var buf bytes.Buffer
	metas, _, _ := WriteIndexFile(&buf, sampleVectors())
	for _, m := range metas {
		f.Add(buf.Bytes(), m.Offset, m.Length)
	}
	f.Add(append([]byte{1}, javaBitmap64Frame([]*roaring.Bitmap{roaring.BitmapOf(3)})...), int32(1), int32(0))
	if raw, err := os.ReadFile(fixtureRoot + "/pk_09.db/pk_09/index/index-ff7801ad-df90-49b2-9619-586eab9c68e3-0"); err == nil {
		f.Add(raw, int32(31), int32(22))
	}
	f.Fuzz(func(t *testing.T, data []byte, offset, length int32) {
		m := manifest.DeletionVectorMeta{DataFileName: "d", Offset: offset, Length: length}
		if length == 0 && len(data) > 5 { // let the fuzzer reach 64-bit vectors too
			m.Length = int32(len(data) - 1)
		}
		v, err := ReadDeletionVector(bytes.NewReader(data), m)
		if err != nil {
			if !errors.Is(err, spec.ErrCorrupt) {
				t.Fatalf("error does not wrap ErrCorrupt: %v", err)
			}
			return
		}
		_ = v.IsDeleted(0)
		_ = v.Cardinality()
	})
}
