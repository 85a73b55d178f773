package fileio_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/lakeload/lakeload/fileio"
)

// shortWriter accepts at most max bytes per call and then fails.
type shortWriter struct{ max int }

func (s shortWriter) Write(p []byte) (int, error) {
	if len(p) > s.max {
		return s.max, errors.New("short write")
	}
	return len(p), nil
}

// TestCountingWriterCountsAcceptedBytes: N is the sum of what the wrapped writer accepted, short
// writes included, and the bytes arrive unchanged.
func TestCountingWriterCountsAcceptedBytes(t *testing.T) {
	var buf bytes.Buffer
	cw := &fileio.CountingWriter{W: &buf}
	for _, s := range []string{"abc", "", "defgh"} {
		if _, err := cw.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	if cw.N != 8 || buf.String() != "abcdefgh" {
		t.Fatalf("N=%d, bytes %q; want 8, \"abcdefgh\"", cw.N, buf.String())
	}
	short := &fileio.CountingWriter{W: shortWriter{max: 2}}
	if n, err := short.Write([]byte("xyz")); err == nil || n != 2 || short.N != 2 {
		t.Fatalf("short write: n=%d err=%v N=%d; want 2, an error, 2", n, err, short.N)
	}
}
