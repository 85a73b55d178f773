// Package bench measures lakeload against its peers and ceilings (see README.md): the Go benchmarks
// (lakeload's table writer against an arrow-go Parquet "ceiling" on the same generated input, in the
// same process), the runner behind `make bench` (lakeload, pypaimon, Ray Data + pypaimon, Java Paimon
// as child processes, interleaved rounds, results in results/), and the Temporal engine's cost
// (`make bench-temporal`). Results are ratios within one invocation; there are no timing assertions:
// the package's tests check only that every measured run produced the expected table.
package bench
