//go:build !linux

package local

import (
	"errors"
	"os"
)

var errNoRenameNoReplace = errors.New("renameat2(RENAME_NOREPLACE) is only available on Linux")

// renameNoReplace is unavailable off Linux; WriteIfAbsent then relies on link(2) alone.
func renameNoReplace(tmp, final string) error {
	return &os.LinkError{Op: "rename-noreplace", Old: tmp, New: final, Err: errNoRenameNoReplace}
}

// linkUnsupported reports false: without a no-replace rename there is nothing to fall back to.
func linkUnsupported(error) bool { return false }
