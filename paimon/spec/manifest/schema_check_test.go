package manifest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hamba/avro/v2/ocf"

	"github.com/lakeload/lakeload/paimon/spec"
)

// containerWithBlock builds an Avro container with the given schema (null codec) and one raw block.
func containerWithBlock(t *testing.T, schema string, count int64, block []byte) []byte {
	t.Helper()
	sync := [16]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	var buf bytes.Buffer
	enc, err := ocf.NewEncoder(schema, &buf, ocf.WithSyncBlock(sync))
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	buf.Write(binary.AppendVarint(nil, count))
	buf.Write(binary.AppendVarint(nil, int64(len(block))))
	buf.Write(block)
	buf.Write(sync[:])
	return buf.Bytes()
}

// TestRejectsAmplifyingSchemas: a few KB with a nested array of nulls would decode a billion
// elements, and a recursive record nests as deep as the input is long; both are refused quickly.
func TestRejectsAmplifyingSchemas(t *testing.T) {
	var bomb []byte
	bomb = binary.AppendVarint(bomb, 1000) // outer array: 1000 inner arrays
	for range 1000 {
		bomb = binary.AppendVarint(bomb, 1<<20) // each with 2^20 nulls
		bomb = binary.AppendVarint(bomb, 0)
	}
	bomb = binary.AppendVarint(bomb, 0)
	deep := bytes.Repeat([]byte{2}, 100000) // union branch 1 ("r") again and again
	cases := map[string][]byte{
		"nested null arrays": containerWithBlock(t,
			`{"type":"record","name":"r","fields":[{"name":"a","type":{"type":"array","items":{"type":"array","items":"null"}}}]}`, 1, bomb),
		"recursive record": containerWithBlock(t,
			`{"type":"record","name":"r","fields":[{"name":"next","type":["null","r"]}]}`, 1, deep),
	}
	for name, data := range cases {
		start := time.Now()
		_, err := ReadManifest(bytes.NewReader(data))
		if !errors.Is(err, spec.ErrCorrupt) || !strings.Contains(err.Error(), "unsupported writer schema") {
			t.Errorf("%s: got %v", name, err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: took %v", name, d)
		}
	}
}
