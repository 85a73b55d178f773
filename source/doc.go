// Package source turns input files into Arrow record batches shaped exactly like a Paimon table.
//
// The package holds the format-independent half of input reading: the serializable Split, the
// Reader/Batch contract, name-based column mapping onto table fields, safe widening casts of
// typed (Arrow) input, and row-kind parsing for an op column. Format readers live in
// source/file.
//
// Invariants:
//   - A Batch's record has exactly one column per table field, in schema order, named like the
//     field, typed per ArrowType, nullable like the field; a NOT NULL field never holds a null.
//   - No input value is ever dropped, rounded or truncated silently: a value that cannot be
//     represented exactly is an error naming the file, the line or row, the column, the value and
//     the expected form (*ValueError). Its Row is the 0-based data row; messages show it 1-based.
//   - With MappingOptions.SkipBadRows a row failing row-level validation is left out and reported in
//     Batch.Rejected (never dropped silently); a rejected row ends its batch, so a batch's rows are
//     always consecutive input rows. File-level problems still fail.
//   - CHAR(n)/VARCHAR(n)/BINARY(n)/VARBINARY(n) values longer than n are errors, never truncated, and
//     text columns hold valid UTF-8 only (Parquet input included).
//   - Mapping problems (missing NOT NULL column, extra column, unsafe cast, ambiguous names) are
//     errors naming the file and the column and saying what to do.
package source
