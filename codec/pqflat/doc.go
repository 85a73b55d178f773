// Package pqflat decodes flat Parquet columns straight into Arrow arrays: a leaf beside
// arrow-go's pqarrow that turns each column chunk's pages (decompressed by arrow-go's public page
// reader) into the final Arrow buffers, without per-value builder appends.
//
// Invariants:
//   - A column takes the fast path only when NewRecordReader has checked it: top level, max
//     repetition level 0, max definition level 0 or 1, not encrypted, its chunks' declared
//     encodings among PLAIN, PLAIN_DICTIONARY, RLE_DICTIONARY, RLE and BIT_PACKED (levels), and a
//     (physical type, logical type, Arrow type) triple whose values pqarrow would copy or narrow
//     (supported.go). If any projected column is not such a column, NewRecordReader returns
//     ok=false and the caller reads the file through pqarrow; the decision is per file.
//   - The arrays are those pqarrow produces: the Arrow type of pqarrow's schema, the same values
//     and nulls, the same batch boundaries (batches of the batch size across row groups).
//   - Malformed input is an error, never a panic: every length, count, index and level read from
//     the file is checked against the page that holds it, and a page may not hold more rows than
//     its row group declares left. Allocations are bounded by the rows of a batch and the bytes
//     of the pages decoded.
//   - Pages that contradict the chunk's declared encodings (an encoding not handled here) are an
//     error (ErrUnsupported), not a silent fallback.
//
// It imports arrow-go only; nothing of lakeload.
package pqflat
