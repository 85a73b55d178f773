// Package plan is the input side of a load job (package job): the splits its files are cut into
// (Parquet row-group runs, text byte ranges at record boundaries), how many sequence numbers and rows
// each holds, the fingerprints that tell a file changed, the re-plan of a file replaced before any
// of its splits was assigned (Revise), the new files of an incremental generation (Diff), the columns
// an input file brings to schema evolution (InputColumns), the dry-run report, and the splits as the
// checkpoint store keeps them (EncodeSplits, DecodeSplits, Stored: opaque JSON with the record format
// version each needs; a byte range read from a record older than it needs is refused as corrupt).
//
// It reads input files and the checkpoint store's state and writes nothing: the driver records the
// plan revisions and generations it returns. It starts no goroutine and imports neither job nor
// job/task.
package plan
