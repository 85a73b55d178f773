// Package killsoak is the real `kill -9` soak of `lakeload load` (issue 3, "Real kill -9") and its
// pause mode (issue 13, "the proof gets time"). It has no non-test code besides this doc; run it with
// `go test ./internal/killsoak` (short mode: about a dozen kills and about two dozen pauses over three
// small tables) or `make soak` (LAKELOAD_SOAK=long: ≥ 30 kills over ≥ 1M rows per table, ≥ 100 pauses).
//
// The harness builds the lakeload binary once, generates deterministic Parquet input for three tables
// (an append table, a sum-aggregation primary-key table and a partitioned deduplicate primary-key
// table fed with +I/-U/+U/-D rows), and runs `lakeload load` as a child process, killing it with
// SIGKILL again and again: half of the kills at random moments, half at named points of the load
// protocol (LAKELOAD_PAUSE_AT makes the child stop itself there and say so), so kills land inside
// commits and publishes. After every kill it starts the same command again, until the job finishes.
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
// TestKillSoakREST is the kill -9 soak with the tables in a Paimon REST catalog (Java's
// RESTCatalogServer, internal/resttest): loads run with --catalog rest through a proxy that holds one
// commit request at a time, so kills land inside the request (dropped, acted on after the client
// died, acted on with the answer lost), at the points around the commit and at random moments; Java's
// RESTCatalog and pypaimon's REST client must read exactly the model.
//
// TestPauseSoak stops runners instead of killing them, and lets the world move on meanwhile. Each
// table is loaded by a series of jobs (soak-1, soak-2, …), each over input files new to the table, in
// rounds until the table had its pauses (8 in `go test`, 36 with LAKELOAD_SOAK=long); the job in
// progress is then resumed to its end with the same command. A round:
//   - a fresh runner A is stopped with SIGSTOP, at the next hook point of the cycle (LAKELOAD_PAUSE_AT:
//     it stops itself) or at a random moment (the harness's kill -STOP), and counts as stopped only
//     when all its threads are in state T (/proc/PID/task/TID/stat);
//   - the world moves on: a takeover (`load --takeover`) that runs to its end, is killed part-way or
//     is itself stopped part-way; up to two commits of another writer (`lakeload write` of rows the
//     model knows: appended rows and deduplicated keys the input never has, sums over the input's
//     keys, so that where they land among the job's commits does not matter); `lakeload expire
//     --retain-min 1 --older-than 0s` (it honours the jobs' pins; the Java oracle has no expire call);
//   - the stopped runners get SIGCONT one at a time, in random order. One that may go on (it holds
//     the lease, or may take it) is then often stopped again at a random moment (another writer and
//     expiry meanwhile, never a takeover) or killed.
//
// A resumed runner must do what the lease says (read from `lakeload status --output json` at each
// stop and resume): one that held the lease and lost it while stopped, or that finds a live
// (stopped) holder without --takeover, exits 6 and adds no snapshot; one that holds the lease never
// exits 6. Exit 7 or any other code fails the soak, except exit 1 on a file of the table that an
// expiry removed while the runner was stopped (counted as vanished-reads: a runner stopped while it
// reads a snapshot nothing pins fails, and the next run goes on). After every step the harness lists
// the snapshots (`lakeload snapshots --output jsonl`) and checks that no id ever names another
// snapshot (commit user, identifier, kind, time), that the latest never moves back, and that no job's
// pin (its consumer file) is below the earliest snapshot or left behind by a finished job. Nothing
// but the harness's expiry removes snapshots and it observes right before each, so the history holds
// every snapshot any runner made. At the end, per table: Java and pypaimon read exactly the model
// (0 lost, 0 duplicated, 0 wrong), every job's windows 1..W are one APPEND snapshot each of its commit
// user over the whole history, each write is one APPEND snapshot of its own user, Java's listing
// agrees with the history, `status --output json` says done with every input row published, and one
// more run says the job already finished. The summary line is `SOAK mode=pause-…` (pauses per table,
// point, role and outcome, and what the world did); TestOvertakenRunnerExits6,
// TestTakeoverGoesOnAfterOvertakenRunnerWakes, TestFirstWindowPinnedBeforeItIsAssigned and
// TestPauseHookStopsAtItsPoint are deterministic forms of what it found (and job's
// TestStoppedCommitKeepsItsBase and TestStoppedPinWriteLeavesNoPin).
//
// Environment: LAKELOAD_SOAK=long selects the long run; LAKELOAD_SOAK_SEED fixes the random delays
// (and the pause soak's schedule, not its timing); LAKELOAD_SOAK_BIN runs a prebuilt binary instead
// of building one (e.g. a mutant built with `go build -overlay`, to see the soak fail). Like every oracle test it skips when the oracles are not
// built, and fails instead under CI.
package killsoak
