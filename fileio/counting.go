package fileio

import "io"

// CountingWriter passes writes through to W and counts the bytes W accepted in N. It deliberately
// has no Close method: wrapping a file in it never lets the wrapper's user close the file.
type CountingWriter struct {
	W io.Writer
	N int64
}

// Write writes p to W and adds the bytes written to N.
func (c *CountingWriter) Write(p []byte) (int, error) {
	n, err := c.W.Write(p)
	c.N += int64(n)
	return n, err
}
