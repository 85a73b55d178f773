package binrow

import (
	"bytes"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

// fuzzSchemas are the row types FuzzDeserialize decodes against: the three vector schemas and
// allTypes.
func fuzzSchemas() [][]spec.DataType {
	var s [][]spec.DataType
	for _, vf := range vectorFiles {
		s = append(s, vf.types)
	}
	return append(s, allTypes)
}

// FuzzDeserialize checks that Deserialize never panics and that whatever decodes re-encodes,
// decodes to equal values, and reaches a fixed point of the encoding. Seeds are real rows from
// the Java bucket vectors and the all-types rows.
func FuzzDeserialize(f *testing.F) {
	schemas := fuzzSchemas()
	for k, vf := range vectorFiles {
		for _, r := range loadVectors(f, vf.name, vf.types, 25) {
			ser, err := Serialize(vf.types, r.values)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uint8(k), ser)
		}
	}
	for _, vals := range allTypeRows(f) {
		ser, err := Serialize(allTypes, vals)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(len(schemas)-1), ser)
	}
	f.Add(uint8(0), EmptyRow)
	f.Fuzz(func(t *testing.T, schema uint8, data []byte) {
		types := schemas[int(schema)%len(schemas)]
		vals, err := Deserialize(types, data)
		if err != nil {
			return
		}
		ser, err := Serialize(types, vals)
		if err != nil {
			t.Fatalf("decoded values do not re-encode: %v", err)
		}
		again, err := Deserialize(types, ser)
		if err != nil {
			t.Fatalf("re-encoded row does not decode: %v", err)
		}
		if i := sameRow(types, vals, again); i >= 0 {
			t.Fatalf("field %d: %#v after round trip, was %#v", i, again[i], vals[i])
		}
		ser2, err := Serialize(types, again)
		if err != nil || !bytes.Equal(ser, ser2) {
			t.Fatalf("encoding not a fixed point (%v)", err)
		}
	})
}
