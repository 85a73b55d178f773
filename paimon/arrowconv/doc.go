// Package arrowconv maps Paimon to Arrow, lakeload's in-memory form of rows: each Paimon type to
// the one Arrow type lakeload uses for it (ArrowType, ArrowSchema) and each Datum
// (paimon/spec/types.go) to and from an Arrow value (DatumAt, AppendDatum).
//
// It sits beside paimon/format, just above paimon/spec, and imports nothing else of lakeload:
// the Parquet layer, the table readers and writers, and source (which shapes input batches like
// the table) all use the same mapping without depending on one another.
//
// Invariants:
//   - ArrowType is the only place a Paimon type is given an Arrow type; every batch lakeload builds
//     has the types of ArrowSchema, so it feeds the Parquet writer unchanged.
//   - DatumAt accepts the Arrow types of ArrowType and the common alternatives a file may decode to
//     (any timestamp unit or zone, Decimal256, large/view strings, ...); it never panics on them.
//   - Timestamps convert exactly or fail: a value outside int64 units is an error, never a wrong value.
package arrowconv
