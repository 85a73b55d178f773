package orcmeta

import (
	"errors"
	"fmt"

	"github.com/lakeload/lakeload/paimon/spec"
)

// ErrUnsupported is returned (wrapped) for well-formed ORC features this reader does not
// implement: LZO compression, encrypted columns, UNION and DECIMAL columns, deep nesting.
var ErrUnsupported = errors.New("orcmeta: unsupported ORC feature")

// corruptf returns an error wrapping spec.ErrCorrupt.
func corruptf(format string, args ...any) error {
	return fmt.Errorf("%w: orc: %s", spec.ErrCorrupt, fmt.Sprintf(format, args...))
}

// unsupportedf returns an error wrapping ErrUnsupported.
func unsupportedf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}
