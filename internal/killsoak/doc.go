// Package killsoak is the real `kill -9` soak of `lakeload load` (issue 3, "Real kill -9"). It has no
// non-test code besides this doc; run it with `go test ./internal/killsoak` (short mode, about a dozen
// kills over three small tables) or `make soak` (LAKELOAD_SOAK=long: ≥ 30 kills over ≥ 1M rows per
// table).
//
// The harness builds the lakeload binary once, generates deterministic Parquet input for three tables
// (an append table, a sum-aggregation primary-key table and a partitioned deduplicate primary-key
// table fed with +I/-U/+U/-D rows), and runs `lakeload load` as a child process, killing it with
// SIGKILL again and again: half of the kills at random moments, half at named points of the load
// protocol (LAKELOAD_PAUSE_AT makes the child stop there and say so), so kills land inside commits and
// publishes. After every kill it starts the same command again, until the job finishes.
//
// Invariants checked at the end, for every table:
//   - the expected final state is computed by the harness from the generated rows alone (apply in file
//     order, then row order), never by lakeload's reader;
//   - the Java Paimon oracle and pypaimon both read exactly the expected rows as multisets of canonical
//     lines (internal/canon): 0 lost, 0 duplicated, 0 wrong;
//   - every window of the job is exactly one APPEND snapshot per (commit user, commit identifier), and
//     the identifiers are 1..W without gaps;
//   - running the command once more says the job already finished.
//
// TestKillSoakFeatures soaks the load features the same way, one table per entry of features (a new
// feature is one entry: its table, load flags, kills, the points aimed at first, and its checks):
//   - dynbucket: a dynamic-bucket (bucket = -1) deduplicate table; the latest HASH index has one
//     file per (partition, bucket), no key hash in two buckets of a partition, every live key of the
//     model indexed, and every live data file's min and max keys indexed in that file's bucket;
//   - evolve: --evolve-schema add-columns with the second half of the files carrying a new column;
//     exactly schema-0 and schema-1 exist whatever the kills (first kill at schema-evolved);
//   - quarantine: --bad-rows=quarantine over CSV and JSON Lines files with bad rows; status
//     --output json counts every bad row, and the committed attempts' quarantine files list each bad
//     row (file, row) exactly once and nothing else;
//   - overwrite: --overwrite partitions over old rows loaded by another job; exactly one OVERWRITE
//     snapshot (identifier = last window + 1), and at every snapshot, read by Java, each partition
//     the new input touches holds exactly its old rows or exactly its new rows;
//   - incremental: a first generation loaded without faults, then the second one (--incremental)
//     killed, first at generation-started.
//
// Environment: LAKELOAD_SOAK=long selects the long run; LAKELOAD_SOAK_SEED fixes the random delays;
// LAKELOAD_SOAK_BIN runs a prebuilt binary instead of building one (e.g. a mutant built with
// `go build -overlay`, to see the soak fail). Like every oracle test it skips when the oracles are not
// built, and fails instead under CI.
package killsoak
