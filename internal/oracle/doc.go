// Package oracle drives the reference Paimon implementations from Go tests: the Java oracle
// (oracle/java, Java Paimon) and the pypaimon oracle (oracle/py). Both print tables in the canonical
// JSON row form of internal/canon, so a test compares lakeload's canon.Rows output with
// Java(t).Read(...) or Py(t).Read(...) line by line.
//
// Invariants: each oracle runs as ONE long-lived child process per test binary (its `batch` mode,
// one JSON request and one JSON reply per line), started lazily on first use and shared by all
// tests; requests are serialised. A missing oracle makes the test skip (or fail when the CI
// environment variable is set) with a hint to run `make oracles`. Oracle-side errors are returned
// by the Try* methods and turned into t.Fatal by the others; they never crash the oracle process.
//
// Discovery: LAKELOAD_JAVA_ORACLE is the jar path (run with `java -jar`) or a whole command line;
// default <repo>/oracle/java/target/paimon-oracle.jar. LAKELOAD_PY is the python interpreter with
// pypaimon; default the first existing of <repo>/.venv/bin/python,
// ${LAKELOAD_CACHE:-$HOME/.cache/lakeload}/venv/bin/python and $HOME/.cache/lakeload-venv/bin/python.
package oracle
