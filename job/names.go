package job

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// ErrBadJobName is wrapped by CheckName's error.
var ErrBadJobName = errors.New("invalid job name")

// MaxNameBytes bounds a job name: it becomes a directory name and part of the Paimon consumer file
// name (consumer-lakeload-<name>), which must fit a file system's 255 bytes.
const MaxNameBytes = 200

// NameRule says which job names are allowed (docs/cli.md "Names").
const NameRule = "use 1 to 200 bytes of letters, digits, '_', '-', '.', '+', '@', ':', '=' and spaces, " +
	"not starting with '.' or a space and not ending with a space"

// CheckName checks a job name. A job name is a directory of the checkpoint store, a Paimon consumer
// id, a Temporal workflow id, a metrics label and a column of `jobs list`, so it is kept to a safe
// set: no '/', '\', quotes, control or format characters (newlines, bidi overrides such as U+202E)
// that could leave the store's directory or forge a line or hide text in a listing. The error names
// the name quoted (%q: control characters visible) and says what is allowed.
func CheckName(n string) error {
	ok := n != "" && len(n) <= MaxNameBytes && !strings.HasPrefix(n, ".") && strings.TrimSpace(n) == n
	for _, r := range n {
		ok = ok && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) ||
			strings.ContainsRune("_-.+@:= ", r))
	}
	if !ok {
		return fmt.Errorf("%w %q: %s", ErrBadJobName, n, NameRule)
	}
	return nil
}
