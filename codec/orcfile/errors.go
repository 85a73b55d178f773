package orcfile

import (
	"errors"
	"fmt"
)

// ErrCorrupt is returned (wrapped) for malformed ORC data: a bad tail, stream, run or value. The
// Paimon readers wrap it in spec.ErrCorrupt; this package knows nothing of Paimon.
var ErrCorrupt = errors.New("corrupt ORC data")

// ErrUnsupported is returned (wrapped) for well-formed ORC features this reader does not
// implement: LZO compression, encrypted columns, UNION and DECIMAL columns, deep nesting.
var ErrUnsupported = errors.New("orcfile: unsupported ORC feature")

// corruptf returns an error wrapping ErrCorrupt.
func corruptf(format string, args ...any) error {
	return fmt.Errorf("%w: orc: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

// unsupportedf returns an error wrapping ErrUnsupported.
func unsupportedf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}
