// Package lint holds repository-wide static checks that run as ordinary tests
// (go test ./internal/lint): the import-direction rules between lakeload's packages and the
// no-cgo rule. It has no non-test code besides this doc.
package lint
