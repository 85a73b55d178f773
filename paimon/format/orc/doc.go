// Package orc reads Paimon data files in ORC format (Java's OrcFileFormat, 'file.format'='orc',
// the default before Paimon 0.9) into Arrow record batches of lakeload's Arrow types, decoding with
// the pure-Go ORC reader of codec/orcfile (every RLE, DIRECT and DICTIONARY
// encoding, codecs NONE, ZLIB, SNAPPY, LZ4, ZSTD).
//
// Java's Paimon → ORC type mapping (OrcTypeUtil) read back: BOOLEAN boolean, TINYINT tinyint,
// SMALLINT smallint, INT int, BIGINT bigint, FLOAT float, DOUBLE double, DECIMAL decimal(p,s),
// CHAR char, VARCHAR/STRING varchar/string, BINARY/VARBINARY binary, DATE date, TIME int (millis
// of day), TIMESTAMP timestamp (the writer's wall clock), TIMESTAMP_LTZ timestamp with local time
// zone (an instant), ARRAY array, MAP map, MULTISET map<element, int>, ROW struct.
//
// Invariants:
//   - Decoding never panics: a damaged file gives an error wrapping spec.ErrCorrupt; a well-formed
//     file using an ORC feature orcfile lacks (LZO, UNION, encryption) or a column whose ORC type
//     does not hold its Paimon type gives one wrapping datafile.ErrUnsupported.
//   - A file is read into memory whole (at most MaxFileSize bytes, larger files are refused with
//     datafile.ErrUnsupported) and decoded one stripe at a time; what a stripe's decoding may
//     allocate is capped in proportion to the file's size (orcfile's budget).
package orc
