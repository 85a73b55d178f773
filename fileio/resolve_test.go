package fileio_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/local"
)

func TestOpenLocal(t *testing.T) {
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"/tmp/wh":            "/tmp/wh",
		"file:///tmp/wh":     "/tmp/wh",
		"file:/tmp/wh":       "/tmp/wh",
		"file:///tmp/a%20b/": "/tmp/a b",
		"rel/wh":             filepath.Join(cwd, "rel/wh"),
	} {
		f, p, err := fileio.Open(in)
		if err != nil || p != want {
			t.Errorf("Open(%q) = _, %q, %v; want %q", in, p, err, want)
			continue
		}
		if _, ok := f.(*local.FS); !ok {
			t.Errorf("Open(%q) backend %T, want *local.FS", in, f)
		}
	}
}

func TestOpenRoundTrip(t *testing.T) {
	dir := t.TempDir()
	f, p, err := fileio.Open("file://" + dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := f.WriteIfAbsent(ctx, fileio.Join(p, "x"), []byte("hi")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "x")); err != nil || string(b) != "hi" {
		t.Fatalf("read back %q, %v", b, err)
	}
}

func TestOpenErrors(t *testing.T) {
	for in, want := range map[string]string{
		"s3://bucket/wh":    "scheme s3 not supported yet",
		"OSS://bucket/wh":   "scheme oss not supported yet",
		"file://remote/x":   "remote host",
		"":                  "empty location",
		"weird name://x":    "not a local path",
		"hdfs://nn:8020/wh": "scheme hdfs not supported yet",
	} {
		if _, _, err := fileio.Open(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Open(%q) err = %v, want it to contain %q", in, err, want)
		}
	}
}

func TestScheme(t *testing.T) {
	for in, want := range map[string]string{
		"/a": "file", "a/b": "file", "file:/a": "file", "file:///a": "file", "S3://b/k": "s3",
		"gs://b": "gs", "weird name://x": "file",
	} {
		if got := fileio.Scheme(in); got != want {
			t.Errorf("Scheme(%q) = %q, want %q", in, got, want)
		}
	}
}
