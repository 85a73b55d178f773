package mem

import (
	"bytes"
	"errors"
	"fmt"
)

// writer buffers a Create until Close.
type writer struct {
	fs   *FS
	key  string
	path string
	buf  bytes.Buffer
	done bool
}

var errWriterDone = errors.New("writer already closed or aborted")

// Write appends to the buffered content.
func (w *writer) Write(p []byte) (int, error) {
	if w.done {
		return 0, fmt.Errorf("fileio/mem: write %s: %w", w.path, errWriterDone)
	}
	return w.buf.Write(p)
}

// Close publishes the content, replacing any existing file.
func (w *writer) Close() error {
	if w.done {
		return fmt.Errorf("fileio/mem: close %s: %w", w.path, errWriterDone)
	}
	w.done = true
	data := bytes.Clone(w.buf.Bytes())
	if data == nil {
		data = []byte{}
	}
	w.fs.mu.Lock()
	defer w.fs.mu.Unlock()
	return w.fs.putLocked("create", w.path, w.key, data)
}

// Abort discards the content. Abort after Close is a no-op.
func (w *writer) Abort() error {
	w.done = true
	w.buf = bytes.Buffer{}
	return nil
}
