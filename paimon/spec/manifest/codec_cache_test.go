package manifest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/hamba/avro/v2"
	"github.com/hamba/avro/v2/ocf"

	"github.com/lakeload/lakeload/paimon/spec"
)

// TestWriterMatchesOCFEncoder: WriteManifest emits exactly what hamba's ocf.Encoder emits with
// the zstandard codec and the full schema marshaler (same header metadata, same 100-row blocks,
// byte-identical compressed payloads); only the random sync marker differs.
func TestWriterMatchesOCFEncoder(t *testing.T) {
	entries := benchEntries(250)
	var ours bytes.Buffer
	if err := WriteManifest(&ours, entries); err != nil {
		t.Fatal(err)
	}
	var ref bytes.Buffer
	enc, err := ocf.NewEncoderWithSchema(manifestSchema, &ref,
		ocf.WithCodec(ocf.ZStandard), ocf.WithSchemaMarshaler(ocf.FullSchemaMarshaler))
	if err != nil {
		t.Fatal(err)
	}
	// Encode what WriteManifest encodes, by decoding our file's rows back into avro records.
	dec, err := ocf.NewDecoder(bytes.NewReader(ours.Bytes()))
	if err != nil {
		t.Fatalf("hamba ocf cannot open WriteManifest output: %v", err)
	}
	n := 0
	for ; dec.HasNext(); n++ {
		var r avroManifestEntry
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		if err := enc.Encode(&r); err != nil {
			t.Fatal(err)
		}
	}
	if err := dec.Error(); err != nil || n != len(entries) {
		t.Fatalf("hamba ocf read %d of %d rows, err %v", n, len(entries), err)
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	a, err := parseContainer(ours.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	b, err := parseContainer(ref.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.schemaJSON, b.schemaJSON) || string(a.codec) != "zstandard" || string(b.codec) != "zstandard" {
		t.Fatalf("header differs: codec %q vs %q, schema\n%s\nvs\n%s", a.codec, b.codec, a.schemaJSON, b.schemaJSON)
	}
	if len(a.blocks) != 3 || len(a.blocks) != len(b.blocks) {
		t.Fatalf("%d blocks, ocf.Encoder wrote %d (want 3)", len(a.blocks), len(b.blocks))
	}
	for i := range a.blocks {
		if a.blocks[i].count != b.blocks[i].count || !bytes.Equal(a.blocks[i].data, b.blocks[i].data) {
			t.Errorf("block %d: %d rows/%d bytes, ocf.Encoder %d rows/%d bytes", i,
				a.blocks[i].count, len(a.blocks[i].data), b.blocks[i].count, len(b.blocks[i].data))
		}
	}
}

// TestConcurrentWriteRead: the shared zstd codec and schema cache serve many goroutines at once.
func TestConcurrentWriteRead(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := benchEntries(50 + 37*g)
			for range 5 {
				var buf bytes.Buffer
				if err := WriteManifest(&buf, in); err != nil {
					errs <- err
					return
				}
				out, err := ReadManifest(&buf)
				if err != nil {
					errs <- err
					return
				}
				if !reflect.DeepEqual(in, out) {
					errs <- fmt.Errorf("goroutine %d: entries changed in a round trip", g)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestSchemaCacheIsBoundedAndIsolated: distinct writer schemas never grow the cache past its
// bound, and a named type parsed from one file never resolves a reference in another.
func TestSchemaCacheIsBoundedAndIsolated(t *testing.T) {
	c := &schemaCache{m: map[string]*writerSchema{}}
	base := []byte(manifestListSchemaJSON)
	for i := range maxCachedSchemas + 10 {
		js := append(bytes.Clone(base), strings.Repeat(" ", i)...) // same schema, distinct bytes
		s, err := c.writerSchema(js)
		if err != nil {
			t.Fatal(err)
		}
		if s.schema.Fingerprint() != manifestListSchema.Fingerprint() {
			t.Fatal("cached schema differs from the parsed one")
		}
		if len(c.m) > maxCachedSchemas {
			t.Fatalf("cache holds %d schemas, bound is %d", len(c.m), maxCachedSchemas)
		}
	}
	s1, _ := c.writerSchema(base)
	s2, _ := c.writerSchema(base)
	if s1 != s2 {
		t.Error("a repeated schema was parsed again instead of served from the cache")
	}
	// record__PARTITION_STATS is defined in the manifest list schema parsed above.
	dangling := `{"type":"record","name":"x","fields":[{"name":"s","type":"record__PARTITION_STATS"}]}`
	if _, err := c.writerSchema([]byte(dangling)); !errors.Is(err, spec.ErrCorrupt) {
		t.Errorf("reference to a type defined only in another file: err %v, want ErrCorrupt", err)
	}
	if _, err := c.writerSchema([]byte(`{"type":"array","items":"null"}`)); !errors.Is(err, spec.ErrCorrupt) {
		t.Errorf("amplifying schema: err %v, want ErrCorrupt", err)
	}
}

// withBlock returns a copy of a one-block Avro file whose codec and block payload are replaced.
func withBlock(t *testing.T, codec string, payload []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	out.Write(avroMagic)
	w := func(v int64) { out.Write(binary.AppendVarint(nil, v)) }
	ws := func(s []byte) { w(int64(len(s))); out.Write(s) }
	w(2)
	ws([]byte(metaSchema))
	ws([]byte(manifestListSchemaJSON))
	ws([]byte(metaCodec))
	ws([]byte(codec))
	w(0)
	sync := bytes.Repeat([]byte{7}, 16)
	out.Write(sync)
	w(1)
	ws(payload)
	out.Write(sync)
	return out.Bytes()
}

// TestOversizedBlocksRejected: blocks declaring more than maxBlockBytes of decoded data fail
// with ErrCorrupt before anything that large is allocated.
func TestOversizedBlocksRejected(t *testing.T) {
	// zstd frame header: single segment, 8-byte content size of 1 GiB, then nothing.
	zframe := []byte{0x28, 0xb5, 0x2f, 0xfd, 0xe0}
	zframe = binary.LittleEndian.AppendUint64(zframe, 1<<30)
	snappy := append(binary.AppendUvarint(nil, 1<<30), 0, 0, 0, 0, 0)
	for name, file := range map[string][]byte{
		"zstandard": withBlock(t, "zstandard", zframe),
		"snappy":    withBlock(t, "snappy", snappy),
		"codec":     withBlock(t, "lz77", []byte{1}),
	} {
		_, err := ReadManifestList(bytes.NewReader(file))
		t.Logf("%s: %v", name, err)
		if !errors.Is(err, spec.ErrCorrupt) {
			t.Errorf("%s: err %v, want ErrCorrupt", name, err)
		}
	}
	// The same framing with a valid null-codec row reads fine, so the rejections above are
	// about the payloads.
	row, err := avro.Marshal(manifestListSchema, &avroManifestFileMeta{Version: 2, FileName: "m", PartitionStats: toAvroStats(EmptyStats)})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadManifestList(bytes.NewReader(withBlock(t, "null", row)))
	if err != nil || len(got) != 1 || got[0].FileName != "m" {
		t.Fatalf("null-codec control file: %+v, %v", got, err)
	}
}
