// Package file reads Parquet, ORC, CSV and JSON Lines input files as source.Readers, plans splits
// from a file, a directory or a glob (with "**"), and reports a split's input columns with the type each would get as a new table
// column (ReadColumns, for schema evolution).
//
// Invariants:
//   - Every row of a split is returned exactly once, in file order; nothing is skipped silently:
//     a malformed record, a value that does not fit its column, or a file that no longer matches
//     its split's fingerprint is an error naming the file, the 1-based data row (and line, for
//     text), the column, the value and the expected form. With SkipBadRows, rows failing row-level
//     validation are reported in Batch.Rejected with their raw text (CSV, JSONL) or values (Parquet).
//   - A damaged Parquet file is an error wrapping spec.ErrCorrupt that names the byte range at fault
//     (the footer, or the row group being decoded).
//   - Text values follow the rules in docs/input-formats.md; Parquet values go through
//     source.ArrowMapping's safe widening casts.
//   - Readers never panic on malformed input, and no input makes them hold memory without bound
//     (source.Limits): JSON nesting and record size are row errors found before the record is
//     buffered or decoded past the limit; a Parquet reader decodes at most the decode budget at once
//     (budget.go), and a footer over its size or column limit is refused before it is decoded.
//   - A text split that is a byte range (CutText) owns exactly the records that start in it; its
//     rows, row numbers, line numbers and errors are those of the same records read from the whole
//     file. Compressed text (told by its magic bytes) is decompressed and never cut.
//   - Planning and Open refuse local inputs that are not regular files unless Limits.AllowNonRegular.
//   - A directory or "**" walk (expand.go) skips hidden names ('.' or '_' first) unless a pattern
//     element names them, never follows a symbolic link to a directory (it is an error naming the
//     link), and plans the files sorted by path.
//   - A CSV file is read and cut in one source.CSVDialect: the cutter and the parser agree on the
//     delimiter, the quote and the header, so a cut is always a record boundary of the reader.
//   - An ORC file is decoded by codec/orcfile (this package never imports the Paimon readers) and
//     mapped like Parquet; its split's row count is exact (from the footer), since an ORC file may
//     hold more rows than bytes.
package file
