// Package orcfile is a minimal pure-Go Apache ORC reader: a codec leaf that knows nothing of Paimon,
// inputs or storage (it imports the standard library and compression libraries only), so that
// both the Paimon readers (ORC metadata files in paimon/spec/manifest, ORC data files in
// paimon/format/orc) and the input reader (ORC input files in source/file) decode with it without
// the input side knowing the sink. It began as the reader of the metadata files (manifests,
// manifest lists, index manifests) that Java Paimon writes with manifest.format=orc.
//
// It decodes the file tail (postscript, footer, stripe statistics) from the protobuf wire format
// by hand, then every stripe: PRESENT streams; byte, boolean and integer run-length encodings
// (RLE v1, and v2 with short repeat, direct, patched base and delta runs); DECIMAL (varint data
// and scale streams); DIRECT and DICTIONARY string encodings (v1 and v2); codecs NONE, ZLIB,
// SNAPPY, LZ4 and ZSTD. It also reads Paimon's ORC data files (paimon/format/orc).
//
// Rows come back as map[string]any keyed by struct field name, with these Go values: BOOLEAN
// bool, TINYINT int8, SMALLINT int16, INT int32, BIGINT int64, DATE int32 (days since 1970),
// FLOAT float32, DOUBLE float64, STRING/VARCHAR/CHAR string, BINARY []byte, TIMESTAMP time.Time
// (the writer's wall clock, in UTC), TIMESTAMP_INSTANT time.Time (the instant, in UTC), DECIMAL
// DecimalValue, STRUCT map[string]any, LIST []any, MAP []KeyValue; null is nil.
//
// Invariants:
//   - Decoding never panics: malformed input gives an error wrapping ErrCorrupt (which the Paimon
//     readers wrap in spec.ErrCorrupt), and
//     well-formed input using a feature this reader lacks (LZO, UNION, column
//     encryption, unknown writer time zone) gives one wrapping ErrUnsupported.
//   - Every offset, length and count read from the file is checked before use. What one file
//     may make the reader allocate is capped in proportion to its size: decompressed bytes
//     (1 MiB + 512 per file byte, and one compression block of at most 8 MiB per chunk) and
//     decoded values (4096 + 64 per file byte, counting nulls and nested elements).
//   - A TIMESTAMP column is interpreted in its stripe's writer time zone (2015-01-01 in that
//     zone is second 0), so values read back as the wall clock the writer stored, which is how
//     Paimon's TIMESTAMP(3) _CREATION_TIME is meant; time zones come from the embedded tzdata.
package orcfile
