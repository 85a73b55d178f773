// Package compat holds lakeload's compatibility tests against the real Paimon implementations:
// Java-written fixture tables read back equal to Java's own golden rows, and tables lakeload writes
// read back by Java Paimon and pypaimon (the oracles in internal/oracle). It has no non-test code.
package compat
