// Package lint holds repository-wide static checks that run as ordinary tests
// (go test ./internal/lint): lakeload's package picture and its import rules (rules_test.go:
// every package in one layer, the never-rules, and the shrinking list of today's exceptions),
// that every package loads, and no cgo. A negative control (control_test.go) plants forbidden
// imports and broken packages through `go list -overlay` and proves the check reports them.
// It has no non-test code besides this doc.
package lint
