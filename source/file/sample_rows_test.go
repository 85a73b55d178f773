package file

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/source"
)

// TestSampleRowsEstimatesCompressedText: a compressed text file is one split whose rows planning does
// not count; its estimate comes from a sample of its text, scaled by the compressed bytes the sample
// took — not from its compressed size at 64 bytes a row, which on compressible rows was several times
// too low (issue 15 finding 2: progress estimates off).
func TestSampleRowsEstimatesCompressedText(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	const rows = 60000
	for i := range rows {
		fmt.Fprintf(&b, "{\"id\":%d,\"name\":\"customer-%d\",\"note\":\"%s\"}\n", i, i%977, strings.Repeat("ab", i%7))
	}
	text := b.String()
	for name, content := range map[string]string{
		"x.jsonl.gz":  gzipText(t, text),
		"x.jsonl.zst": zstdText(t, text),
		"x.jsonl.lz4": lz4Text(t, text),
		"x.jsonl":     text,
	} {
		p := writeFile(t, dir, name, content)
		s := split(t, p)
		s.Format = source.FormatJSONL
		n, err := SampleRows(t.Context(), osFS{}, s, 1<<18)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if n < rows*3/4 || n > rows*5/4 {
			t.Errorf("%s: sampled estimate %d rows, want within 25%% of %d (the size rule says %d)", name, n, rows, s.Size/64)
		}
	}
	// Text shorter than the sample is counted whole; a last line without newline counts.
	p := writeFile(t, dir, "short.csv", "a,b\n1,2\n3,4")
	s := split(t, p)
	s.Format = source.FormatCSV
	if n, err := SampleRows(t.Context(), osFS{}, s, 1<<18); err != nil || n != 3 {
		t.Fatalf("short file: %d lines, %v; want 3", n, err)
	}
	// Splits that are not whole uncounted text files are refused.
	s.RowCount = 2
	if _, err := SampleRows(t.Context(), osFS{}, s, 1<<18); err == nil {
		t.Fatal("a counted split was sampled")
	}
}
