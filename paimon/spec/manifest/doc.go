// Package manifest reads and writes Paimon's Avro metadata files: manifest files (ManifestEntry
// rows), manifest lists (ManifestFileMeta rows) and index manifests (IndexManifestEntry rows), as
// described in paimon-format.md §4 and Appendix A.
//
// Invariants:
//   - Writers emit Java's schemas (every field of release-2.0.0 except the index manifest's
//     _GLOBAL_INDEX), nullable fields as unions ["null", T] with default null, codec zstandard, and
//     the row versions Java expects (_VERSION 2 for manifests and manifest lists, 1 for index
//     manifests). Every emitted file is readable by Java 1.x/2.x and pypaimon 2.x.
//   - Readers look fields up by name, as Java does: optional fields missing from older files
//     (Java 0.9/1.x) read as null, unknown fields are ignored, and records or rows that older
//     writers wrapped in ["null", record] unions are accepted.
//   - Partition, key and statistics rows stay opaque serialized BinaryRow bytes (4-byte big-endian
//     arity + row); writers only check that they are structurally long enough for their arity.
//   - Readers also accept ORC metadata files (manifest.format=orc), decoded by package codec/orcfile
//     into the same rows and mapped by the same field names; writers always emit Avro.
//   - Avro files are framed and decoded here (container.go, value_decode.go): writer schemas are
//     parsed once per distinct header JSON (a bounded, concurrency-safe cache; each parse has its
//     own name scope) and compiled to a decoder; one shared zstd encoder and decoder serve all
//     goroutines. Output is byte-for-byte what hamba's ocf.Encoder writes (100-row blocks).
//   - Decoders never panic: malformed input gives an error wrapping spec.ErrCorrupt; an ORC file
//     using features orcfile does not implement gives ErrUnsupportedFormat.
package manifest
