// Package bench measures lakeload's table writer against an arrow-go Parquet "ceiling" on the same
// generated input in the same process (see README.md). It holds benchmarks only: no timing assertions.
package bench
