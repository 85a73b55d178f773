// Package metrics is a small Prometheus registry written with the standard library only: counters,
// gauges and histograms with constant labels, exposed in the Prometheus text format 0.0.4.
//
// Invariants: every metric is safe for concurrent use and updating one is a few atomic operations
// (callers add per batch, not per row); a registry writes families in registration order, each with
// one HELP and one TYPE line, samples with labels sorted by name and values escaped per the format.
// Load is the set of metrics `lakeload load` exposes; its methods are nil-safe so the job calls them
// whether metrics are on or off.
package metrics
