package s3test_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/lakeload/lakeload/fileio"
	s3fs "github.com/lakeload/lakeload/fileio/s3"
	"github.com/lakeload/lakeload/internal/s3test"
)

// TestCreateMultipart: a Create larger than a part streams parts as they fill, shows nothing
// before Close, and an aborted one leaves neither an object nor an open upload.
func TestCreateMultipart(t *testing.T) {
	srv := s3test.Start(t)
	tc := &tracingClient{base: &http.Client{}}
	fs := newFS(t, srv, func(o *s3fs.Options) { o.HTTPClient = tc; o.PartSize = s3fs.MinPartSize })
	root := freshRoot(srv)
	p := fileio.Join(root, "data.parquet")
	data := bytes.Repeat([]byte("lakeload-multipart-"), (2*s3fs.MinPartSize+12345)/19)
	w, err := fs.Create(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	for off := 0; off < len(data); off += 777_777 { // odd chunk sizes cross part boundaries
		if _, err := w.Write(data[off:min(off+777_777, len(data))]); err != nil {
			t.Fatal(err)
		}
	}
	if n := tc.count("PUT", "partNumber="); n != 2 {
		t.Fatalf("%d parts sent before Close, want 2 (memory bounded by one part); requests:\n%s", n, tc.log())
	}
	if ok, err := fileio.Exists(ctx, fs, p); ok || err != nil {
		t.Fatalf("object visible before Close: %v, %v", ok, err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := fs.ReadFile(ctx, p)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("stored %d bytes, %v; want %d", len(got), err, len(data))
	}

	q := fileio.Join(root, "aborted.parquet")
	w, err = fs.Create(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	if ok, _ := fileio.Exists(ctx, fs, q); ok {
		t.Fatal("aborted object exists")
	}
	ups, err := srv.Client().ListMultipartUploads(ctx, &s3.ListMultipartUploadsInput{Bucket: &srv.Bucket})
	if err != nil {
		t.Fatal(err)
	}
	if len(ups.Uploads) != 0 {
		t.Fatalf("%d multipart uploads left open after Close/Abort", len(ups.Uploads))
	}
}

// TestRangedReads: ReadAt (a Parquet footer read) is one ranged GET of exactly the bytes asked
// for, and an object replaced after Open fails the read instead of mixing versions.
func TestRangedReads(t *testing.T) {
	srv := s3test.Start(t)
	tc := &tracingClient{base: &http.Client{}}
	fs := newFS(t, srv, func(o *s3fs.Options) { o.HTTPClient = tc })
	p := fileio.Join(freshRoot(srv), "f.parquet")
	data := bytes.Repeat([]byte("0123456789"), 100_000)
	if err := fileio.WriteFile(ctx, fs, p, data); err != nil {
		t.Fatal(err)
	}
	f, err := fs.Open(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	footer := make([]byte, 8)
	if _, err := f.ReadAt(footer, f.Size()-8); err != nil || !bytes.Equal(footer, data[len(data)-8:]) {
		t.Fatalf("footer = %q, %v", footer, err)
	}
	if tc.count("GET", "Range=bytes=999992-999999") != 1 || tc.count("GET") != 1 {
		t.Fatalf("want exactly one GET with Range bytes=999992-999999; requests:\n%s", tc.log())
	}
	if err := fileio.WriteFile(ctx, fs, p, []byte("replaced")); err != nil {
		t.Fatal(err)
	}
	_, err = f.ReadAt(footer, 0)
	if err == nil || !strings.Contains(err.Error(), "replaced") {
		t.Fatalf("ReadAt after the object was replaced: err = %v, want a 'replaced' error", err)
	}
	if _, err := io.ReadAll(f); err == nil {
		t.Fatal("sequential read of a replaced object succeeded")
	}
}
