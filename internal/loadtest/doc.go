// Package loadtest holds shared fixtures for the load-job tests (job and cmd/lakeload): three
// tables — an append table, an aggregation (sum) primary-key table and a partitioned deduplicate
// primary-key table loaded with upserts and deletes through an op column — their input files in
// Parquet, CSV and JSON Lines, the expected table state computed independently of lakeload, table
// inspection (canonical lines, a window's marker snapshots), CrashFS (a file system that "kills the
// process" on a chosen write) and TempDir (RAM-backed test directories).
//
// Invariants:
//   - The expected state is computed by a deliberately naive model (the approach of
//     internal/compat's model): the input is applied in file order, then row order, to a map keyed
//     by the primary key. It shares no code with lakeload's source, writer, merge or reader.
//   - Inputs are deterministic for a given seed, so every test run sees the same rows.
//   - This package is imported by tests only; it may fail the calling test through testing.TB.
package loadtest
