package local_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/fiotest"
	"github.com/lakeload/lakeload/fileio/local"
)

func TestConformance(t *testing.T) {
	fiotest.Run(t, func(t *testing.T) (fileio.FileIO, string) { return local.New(), t.TempDir() })
}

func TestCreateStagesInHiddenTempFile(t *testing.T) {
	dir := t.TempDir()
	final := filepath.Join(dir, "snapshot-7")
	w, err := local.New().Create(context.Background(), final)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 {
		t.Fatalf("ReadDir = %v, %v; want one temp file", entries, err)
	}
	name := entries[0].Name()
	if !strings.HasPrefix(name, ".snapshot-7.") || !strings.HasSuffix(name, ".tmp") {
		t.Fatalf("temp name %q, want .snapshot-7.<uuid>.tmp (hidden from snapshot-* listing)", name)
	}
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("Abort left %v", entries)
	}
}

func TestPathForms(t *testing.T) {
	ctx := context.Background()
	f := local.New()
	dir := t.TempDir()
	if err := fileio.WriteFile(ctx, f, "file://"+dir+"/u", []byte("uri")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "u")); err != nil || string(b) != "uri" {
		t.Fatalf("file:// write landed wrong: %q, %v", b, err)
	}
	infos, err := f.List(ctx, "file://"+dir)
	if err != nil || len(infos) != 1 || infos[0].Path != "file://"+dir+"/u" {
		t.Fatalf("List(file://) = %+v, %v; want paths in the caller's form", infos, err)
	}
	for _, bad := range []string{"relative/x", "s3://bucket/x", "file://otherhost/x", ""} {
		if _, err := f.Stat(ctx, bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("Stat(%q) err = %v, want an error naming the path", bad, err)
		}
	}
}

func TestParseFileURI(t *testing.T) {
	for in, want := range map[string]string{
		"file:///tmp/wh":          "/tmp/wh",
		"file:/tmp/wh":            "/tmp/wh",
		"file://localhost/tmp/wh": "/tmp/wh",
		"FILE:///tmp/a%20b":       "/tmp/a b",
	} {
		if got, err := local.ParseFileURI(in); err != nil || got != want {
			t.Errorf("ParseFileURI(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"file://host/x", "file:rel", "s3://b/k", "file://%zz"} {
		if got, err := local.ParseFileURI(bad); err == nil {
			t.Errorf("ParseFileURI(%q) = %q, want error", bad, got)
		}
	}
}

func benchFile(b *testing.B) (string, []byte) {
	return b.TempDir(), bytes.Repeat([]byte("0123456789abcdef"), 4096/16)
}

func BenchmarkWriteIfAbsent4KiB(b *testing.B) {
	dir, data := benchFile(b)
	f, ctx := local.New(), context.Background()
	b.SetBytes(int64(len(data)))
	for i := 0; b.Loop(); i++ {
		if err := f.WriteIfAbsent(ctx, filepath.Join(dir, strconv.Itoa(i)), data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCreateClose4KiB(b *testing.B) {
	dir, data := benchFile(b)
	f, ctx := local.New(), context.Background()
	b.SetBytes(int64(len(data)))
	for i := 0; b.Loop(); i++ {
		w, err := f.Create(ctx, filepath.Join(dir, strconv.Itoa(i)))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			b.Fatal(err)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
