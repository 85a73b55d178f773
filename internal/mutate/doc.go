// Package mutate is lakeload's mutation-testing harness (`make mutate`, docs/testing.md): it applies
// each mutant of a checked-in list to one source file and runs the tests that must kill it.
//
// A mutant is never written into the tree. Its file is written to a temporary directory and handed
// to `go test -overlay`, so an interrupted run leaves nothing behind and several mutants can run at
// once. Outcomes:
//   - killed: the mutant's tests fail (a panic or a timeout is a failure too), and the test the
//     list names as its killer is among the failures;
//   - SURVIVED: the tests pass;
//   - ERROR: the list is wrong — an original snippet does not occur exactly once, the mutant does
//     not build (a mutant must be a program the compiler accepts, or it proves nothing), or it was
//     killed, but not by the test the list names.
//
// Before any mutant runs, the same tests run on the unmutated tree and must pass; otherwise every
// mutant would count as killed.
//
// The lists are the *.txt files of mutants/ (format in mutants/README.md). Invariants: a run
// never modifies the source tree; every mutant's snippets are checked against the file as it is in
// the tree at run time, so a list that no longer matches the code fails loudly instead of testing
// nothing.
package mutate
