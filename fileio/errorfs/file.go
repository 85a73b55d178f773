package errorfs

import (
	"bytes"

	"github.com/lakeload/lakeload/fileio"
)

// errFile counts and fails the reads, seeks and close of an opened file.
type errFile struct {
	fs   *FS
	f    fileio.File
	path string
}

func (e *errFile) Read(p []byte) (int, error) {
	if _, ie := e.fs.step(OpFileRead, e.path); ie != nil {
		return 0, ie
	}
	return e.f.Read(p)
}

func (e *errFile) ReadAt(p []byte, off int64) (int, error) {
	if _, ie := e.fs.step(OpFileRead, e.path); ie != nil {
		return 0, ie
	}
	return e.f.ReadAt(p, off)
}

func (e *errFile) Seek(off int64, whence int) (int64, error) {
	if _, ie := e.fs.step(OpFileSeek, e.path); ie != nil {
		return 0, ie
	}
	return e.f.Seek(off, whence)
}

// Close closes the inner file even when the fault is injected (no leak), then reports the fault.
func (e *errFile) Close() error {
	_, ie := e.fs.step(OpFileClose, e.path)
	err := e.f.Close()
	if ie != nil {
		return ie
	}
	return err
}

func (e *errFile) Size() int64 { return e.f.Size() }

// errWriter buffers the bytes of a new file and hands them to the inner writer on Close.
type errWriter struct {
	fs   *FS
	w    fileio.Writer
	path string
	buf  bytes.Buffer
}

func (e *errWriter) Write(p []byte) (int, error) {
	if _, ie := e.fs.step(OpWrite, e.path); ie != nil {
		return 0, ie
	}
	return e.buf.Write(p)
}

// Close publishes the buffered bytes; an error fault aborts the inner writer, a torn fault
// publishes the first half of them and a landed fault all of them, then reports the fault.
func (e *errWriter) Close() error {
	_, ie := e.fs.step(OpWriterClose, e.path)
	data := e.buf.Bytes()
	if ie != nil {
		switch ie.Mode {
		case ModeTorn:
			data = data[:len(data)/2]
		case ModeLanded:
		default:
			_ = e.w.Abort()
			return ie
		}
	}
	if _, err := e.w.Write(data); err != nil {
		_ = e.w.Abort()
		if ie != nil {
			return ie
		}
		return err
	}
	err := e.w.Close()
	if ie != nil {
		return ie
	}
	return err
}

// Abort discards the file; an injected fault still aborts the inner writer.
func (e *errWriter) Abort() error {
	_, ie := e.fs.step(OpWriterAbort, e.path)
	err := e.w.Abort()
	if ie != nil {
		return ie
	}
	return err
}
