package manifest

import (
	"crypto/rand"
	"fmt"
	"io"
	"sync"

	"github.com/hamba/avro/v2"
	"github.com/hamba/avro/v2/ocf"
)

// rowsPerBlock is how many rows writeOCF puts in one data block (ocf.Encoder's default).
const rowsPerBlock = 100

// headerSchemas caches the header JSON of the package's write schemas (ocf.FullSchemaMarshaler
// output, which keeps "default": null and logicalType), keyed by schema identity.
var headerSchemas sync.Map // avro.Schema -> []byte

func schemaHeaderJSON(schema avro.Schema) ([]byte, error) {
	if b, ok := headerSchemas.Load(schema); ok {
		return b.([]byte), nil
	}
	b, err := ocf.FullSchemaMarshaler(schema)
	if err != nil {
		return nil, err
	}
	switch schema {
	case manifestSchema, manifestListSchema, indexManifestSchema:
		headerSchemas.Store(schema, b)
	}
	return b, nil
}

// writeOCF writes rows as an Avro object container file with the zstandard codec: the header
// ocf.Encoder writes (magic, avro.schema and avro.codec metadata, random sync marker), then blocks
// of rowsPerBlock rows compressed by the shared zstd encoder. The file reaches w in one Write.
func writeOCF[T any](w io.Writer, schema avro.Schema, rows []T) error {
	schemaJSON, err := schemaHeaderJSON(schema)
	if err != nil {
		return fmt.Errorf("manifest: marshal avro schema: %w", err)
	}
	enc, _, err := zstdCodec()
	if err != nil {
		return fmt.Errorf("manifest: create zstd encoder: %w", err)
	}
	header := ocf.Header{
		Magic: [4]byte(avroMagic),
		Meta:  map[string][]byte{metaSchema: schemaJSON, metaCodec: []byte(ocf.ZStandard)},
	}
	if _, err := rand.Read(header.Sync[:]); err != nil {
		return fmt.Errorf("manifest: avro sync marker: %w", err)
	}
	out := avro.NewWriter(nil, 0)
	out.WriteVal(ocf.HeaderSchema, header)
	if out.Error != nil {
		return fmt.Errorf("manifest: write avro header: %w", out.Error)
	}

	block := avro.NewWriter(nil, 4096) // avro.DefaultConfig, as ocf.Encoder uses
	var packed []byte
	for start := 0; start < len(rows); start += rowsPerBlock {
		chunk := rows[start:min(start+rowsPerBlock, len(rows))]
		block.Reset(nil)
		for i := range chunk {
			if block.WriteVal(schema, &chunk[i]); block.Error != nil {
				return fmt.Errorf("manifest: encode row %d: %w", start+i, block.Error)
			}
		}
		packed = enc.EncodeAll(block.Buffer(), packed[:0])
		out.WriteLong(int64(len(chunk)))
		out.WriteLong(int64(len(packed)))
		out.Write(packed)
		out.Write(header.Sync[:])
	}
	if _, err := w.Write(out.Buffer()); err != nil {
		return fmt.Errorf("manifest: finish avro file: %w", err)
	}
	return nil
}

// Write-side Avro records. Field tags are Java's field names; pointers encode nullable unions.

type avroStats struct {
	MinValues  []byte    `avro:"_MIN_VALUES"`
	MaxValues  []byte    `avro:"_MAX_VALUES"`
	NullCounts *[]*int64 `avro:"_NULL_COUNTS"`
}

type avroDataFile struct {
	FileName          string    `avro:"_FILE_NAME"`
	FileSize          int64     `avro:"_FILE_SIZE"`
	RowCount          int64     `avro:"_ROW_COUNT"`
	MinKey            []byte    `avro:"_MIN_KEY"`
	MaxKey            []byte    `avro:"_MAX_KEY"`
	KeyStats          avroStats `avro:"_KEY_STATS"`
	ValueStats        avroStats `avro:"_VALUE_STATS"`
	MinSequenceNumber int64     `avro:"_MIN_SEQUENCE_NUMBER"`
	MaxSequenceNumber int64     `avro:"_MAX_SEQUENCE_NUMBER"`
	SchemaID          int64     `avro:"_SCHEMA_ID"`
	Level             int32     `avro:"_LEVEL"`
	ExtraFiles        []string  `avro:"_EXTRA_FILES"`
	CreationTime      *int64    `avro:"_CREATION_TIME"`
	DeleteRowCount    *int64    `avro:"_DELETE_ROW_COUNT"`
	EmbeddedIndex     *[]byte   `avro:"_EMBEDDED_FILE_INDEX"`
	FileSource        *int32    `avro:"_FILE_SOURCE"`
	ValueStatsCols    *[]string `avro:"_VALUE_STATS_COLS"`
	ExternalPath      *string   `avro:"_EXTERNAL_PATH"`
	FirstRowID        *int64    `avro:"_FIRST_ROW_ID"`
	WriteCols         *[]string `avro:"_WRITE_COLS"`
}

type avroManifestEntry struct {
	Version      int32        `avro:"_VERSION"`
	Kind         int32        `avro:"_KIND"`
	Partition    []byte       `avro:"_PARTITION"`
	Bucket       int32        `avro:"_BUCKET"`
	TotalBuckets int32        `avro:"_TOTAL_BUCKETS"`
	File         avroDataFile `avro:"_FILE"`
}

type avroManifestFileMeta struct {
	Version         int32     `avro:"_VERSION"`
	FileName        string    `avro:"_FILE_NAME"`
	FileSize        int64     `avro:"_FILE_SIZE"`
	NumAddedFiles   int64     `avro:"_NUM_ADDED_FILES"`
	NumDeletedFiles int64     `avro:"_NUM_DELETED_FILES"`
	PartitionStats  avroStats `avro:"_PARTITION_STATS"`
	SchemaID        int64     `avro:"_SCHEMA_ID"`
	MinBucket       *int32    `avro:"_MIN_BUCKET"`
	MaxBucket       *int32    `avro:"_MAX_BUCKET"`
	MinLevel        *int32    `avro:"_MIN_LEVEL"`
	MaxLevel        *int32    `avro:"_MAX_LEVEL"`
	MinRowID        *int64    `avro:"_MIN_ROW_ID"`
	MaxRowID        *int64    `avro:"_MAX_ROW_ID"`
}

type avroDVMeta struct {
	DataFileName string `avro:"f0"`
	Offset       int32  `avro:"f1"`
	Length       int32  `avro:"f2"`
	Cardinality  *int64 `avro:"_CARDINALITY"`
}

type avroIndexManifestEntry struct {
	Version      int32          `avro:"_VERSION"`
	Kind         int32          `avro:"_KIND"`
	Partition    []byte         `avro:"_PARTITION"`
	Bucket       int32          `avro:"_BUCKET"`
	IndexType    string         `avro:"_INDEX_TYPE"`
	FileName     string         `avro:"_FILE_NAME"`
	FileSize     int64          `avro:"_FILE_SIZE"`
	RowCount     int64          `avro:"_ROW_COUNT"`
	Ranges       *[]*avroDVMeta `avro:"_DELETIONS_VECTORS_RANGES"`
	ExternalPath *string        `avro:"_EXTERNAL_PATH"`
}

func toAvroStats(s SimpleStats) avroStats {
	nc := s.NullCounts
	if nc == nil {
		nc = []*int64{}
	}
	return avroStats{MinValues: s.MinValues, MaxValues: s.MaxValues, NullCounts: &nc}
}

// nullableList maps nil to null and any non-nil slice (even empty) to an array.
func nullableList[T any](s []T) *[]T {
	if s == nil {
		return nil
	}
	return &s
}

func checkKind(k FileKind) error {
	if k != Add && k != Delete {
		return fmt.Errorf("manifest: unknown file kind %d", k)
	}
	return nil
}
