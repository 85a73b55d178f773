package file

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"github.com/lakeload/lakeload/source"
)

func gzipText(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write([]byte(s)); err != nil || w.Close() != nil {
		t.Fatal("gzip")
	}
	return b.String()
}

func zstdText(t *testing.T, s string) string {
	t.Helper()
	w, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	return string(w.EncodeAll([]byte(s), nil))
}

func lz4Text(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	w := lz4.NewWriter(&b)
	if _, err := w.Write([]byte(s)); err != nil || w.Close() != nil {
		t.Fatal("lz4")
	}
	return b.String()
}

// TestCompressedTextIsDecompressed: compressed CSV and JSON Lines files are recognised by their
// magic bytes, whatever their name, and read like the plain file (issue 15, finding 4: a gzip file
// under --format csv was reported as malformed CSV).
func TestCompressedTextIsDecompressed(t *testing.T) {
	tbl := table(t, "a STRING", "b STRING")
	dir := t.TempDir()
	csvText := "a,b\n1,\"x\ny\"\n2,z\n"
	jsonText := "{\"a\":\"1\",\"b\":\"x\\ny\"}\n{\"a\":\"2\",\"b\":\"z\"}\n"
	for name, c := range map[string]struct{ format, content, plain string }{
		"gz.csv":      {"csv", gzipText(t, csvText), csvText},
		"data.csv":    {"csv", zstdText(t, csvText), csvText}, // the name says nothing
		"lz4.csv":     {"csv", lz4Text(t, csvText), csvText},
		"x.jsonl.gz":  {"jsonl", gzipText(t, jsonText), jsonText},
		"x.jsonl.zst": {"jsonl", zstdText(t, jsonText), jsonText},
	} {
		p := writeFile(t, dir, name, c.content)
		plain := writeFile(t, dir, "plain-"+name+"."+c.format, c.plain)
		want := readSplits(t, []source.Split{split(t, plain)}, tbl, source.MappingOptions{})
		ss, err := PlanWith(t.Context(), osFS{}, p, c.format, source.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		got := readSplits(t, ss, tbl, source.MappingOptions{})
		if d := diffOut(want, got); d != "" || len(want.rows) != 2 {
			t.Errorf("%s: %s (%d rows)", name, d, len(want.rows))
		}
	}
}

// TestCompressedExtensionsImplyFormat: without --format, .csv.gz and .jsonl.zst name their format.
func TestCompressedExtensionsImplyFormat(t *testing.T) {
	for name, want := range map[string]string{"a.csv.gz": "csv", "a.jsonl.zst": "jsonl", "a.ndjson.bz2": "jsonl",
		"a.csv.lz4": "csv", "a.gz": "", "a.parquet.gz": ""} {
		if got := FormatOf(name); got != want {
			t.Errorf("FormatOf(%s) = %q, want %q", name, got, want)
		}
	}
}

func TestCompressedTextErrors(t *testing.T) {
	tbl := table(t, "a STRING", "b STRING")
	dir := t.TempDir()
	gz := gzipText(t, strings.Repeat("a,b\n1,x\n", 1000))
	for name, c := range map[string]struct {
		content string
		want    []string
	}{
		"truncated gzip": {gz[:len(gz)/2], []string{"truncated.csv", "gzip-compressed data is damaged"}},
		"xz":             {"\xfd7zXZ\x00\x00\x04garbage", []string{"xz.csv is xz-compressed", "decompress it first"}},
		"zip":            {"PK\x03\x04garbage", []string{"zip.csv is zip-compressed"}},
	} {
		p := writeFile(t, dir, strings.Fields(name)[0]+".csv", c.content)
		out := readSplits(t, []source.Split{split(t, p)}, tbl, source.MappingOptions{})
		if out.err == "" {
			t.Errorf("%s: no error", name)
			continue
		}
		if strings.Contains(out.err, "malformed CSV") {
			t.Errorf("%s: reported as malformed CSV: %s", name, out.err)
		}
		for _, w := range c.want {
			if !strings.Contains(out.err, w) {
				t.Errorf("%s: error %q does not contain %q", name, out.err, w)
			}
		}
	}
}
