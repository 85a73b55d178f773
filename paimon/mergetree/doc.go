// Package mergetree implements the merge semantics of Paimon primary-key tables on Datum rows
// (spec.Datum): the merge engines (deduplicate, partial-update, aggregation, first-row), the
// order of records of one key, the k-way merge of sorted runs used by merge-on-read, the
// writer-side fold of a write buffer, and the interval partition of data files into sections.
// It follows Java Paimon release-2.0.0 (paimon-core mergetree/compact, PrimaryKeyTableUtils,
// SortMergeReaderWithMinHeap, SortBufferWriteBuffer, IntervalPartition).
//
// Invariants and caller obligations:
//   - A KeyValue's Key holds the trimmed primary key (primary keys minus partition keys, in
//     primaryKeys order) and Value holds all table columns in schema order. Datums are never
//     mutated; results may share Datums with the inputs.
//   - Records of one key are merged in the order of Config.Less: sequence.field values (nulls
//     first, descending if sequence.field.sort-order=descending) then the sequence number.
//   - Like Java's ReducerMergeFunctionWrapper, a key with a single record yields that record
//     unchanged; the merge engine only sees keys with two or more records.
//   - Merge input runs must be sorted by key with at most one record per key (as Paimon data
//     files are); a violation is reported as an error wrapping spec.ErrCorrupt. Merge emits rows
//     in key order and drops results whose kind is a retract (-U/-D), as Java's DropDeleteReader.
//   - Fold keeps retract results (a trailing -D must shadow older files), as Java's
//     MergeTreeWriter flush does.
//   - Table options this package does not implement (sequence groups, snapshot ordering,
//     unsupported aggregate functions) make NewConfig fail with an error naming the option.
package mergetree
