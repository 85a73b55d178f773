package file

import (
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/lakeload/lakeload/source"
)

// checkRegular refuses a local input that is not a regular file or a directory (a character device
// such as /dev/zero, a FIFO, a socket; symlinks are followed) unless lim allows it: such an input
// may never end, and cannot be read again with the same rows when a window is recomputed, which
// exactly-once needs. Object-store paths are always regular; a path the OS cannot stat is left to
// the FileIO's own error.
func checkRegular(path string, lim source.Limits) error {
	if lim.AllowNonRegular || isRemote(path) {
		return nil
	}
	st, err := os.Stat(strings.TrimPrefix(path, "file://"))
	if err != nil || st.Mode().IsRegular() || st.IsDir() {
		return nil
	}
	return fmt.Errorf("input file %s is not a regular file (%s): it may never end and cannot be read again when a window is recomputed; "+
		"copy it to a regular file, or pass --allow-non-regular-input (MappingOptions.Limits.AllowNonRegular) if it gives the same bytes every time it is opened",
		path, kindOf(st.Mode()))
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.String()
}
