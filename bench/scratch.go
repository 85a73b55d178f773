package bench

import "os"

// ScratchDir returns work when it is set (kept afterwards), else a new temporary directory named
// after prefix that cleanup removes.
func ScratchDir(work, prefix string) (dir string, cleanup func(), err error) {
	if work != "" {
		return work, func() {}, nil
	}
	d, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", nil, err
	}
	return d, func() { os.RemoveAll(d) }, nil
}
