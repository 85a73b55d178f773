package s3test_test

import (
	"bytes"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	s3fs "github.com/lakeload/lakeload/fileio/s3"
	"github.com/lakeload/lakeload/internal/s3test"
)

// faultFS returns an FS whose HTTP client loses the first response matching match.
func faultFS(t *testing.T, srv s3test.Server, match func(*http.Request) bool, extra func(*s3fs.Options)) (*s3fs.FS, *tracingClient) {
	tc := &tracingClient{base: &http.Client{}, lose: loseFirst(match)}
	return newFS(t, srv, func(o *s3fs.Options) {
		o.HTTPClient = tc
		if extra != nil {
			extra(o)
		}
	}), tc
}

// TestConditionalPutLostResponse: our conditional PUT lands, its response is lost, the SDK retries
// and gets 412. WriteIfAbsent must read the object back, see our bytes and report success.
func TestConditionalPutLostResponse(t *testing.T) {
	srv := s3test.Start(t)
	fs, tc := faultFS(t, srv, isConditionalPut, nil)
	p := fileio.Join(freshRoot(srv), "snapshot", "snapshot-1")
	data := []byte(`{"id":1,"commitUser":"ours"}`)
	if err := fs.WriteIfAbsent(ctx, p, data); err != nil {
		t.Fatalf("WriteIfAbsent after a lost response: %v\nrequests:\n%s", err, tc.log())
	}
	if tc.lost != 1 || tc.count("PUT", "If-None-Match=*") != 2 || tc.count("GET") != 1 {
		t.Fatalf("want 1 lost response, 2 conditional PUTs and 1 read-back GET; requests:\n%s", tc.log())
	}
	got, err := fs.ReadFile(ctx, p)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("stored %q, %v; want ours", got, err)
	}
}

// TestConditionalPutLostResponseOtherWinner: the key already holds another writer's bytes; the
// lost first response and the retry both say 412, and the read-back must not mistake it for ours.
func TestConditionalPutLostResponseOtherWinner(t *testing.T) {
	srv := s3test.Start(t)
	p := fileio.Join(freshRoot(srv), "snapshot-1")
	if err := newFS(t, srv, nil).WriteIfAbsent(ctx, p, []byte("theirs")); err != nil {
		t.Fatal(err)
	}
	fs, tc := faultFS(t, srv, isConditionalPut, nil)
	err := fs.WriteIfAbsent(ctx, p, []byte("ours"))
	if !errors.Is(err, fileio.ErrExist) || !strings.Contains(err.Error(), "snapshot-1") {
		t.Fatalf("err = %v, want ErrExist naming the key; requests:\n%s", err, tc.log())
	}
	if tc.lost != 1 || tc.count("GET") != 1 {
		t.Fatalf("want the retried 412 read back once; requests:\n%s", tc.log())
	}
}

// TestPlain412NotReadBack: a 412 on the first attempt is a plain loss, decided without a GET.
func TestPlain412NotReadBack(t *testing.T) {
	srv := s3test.Start(t)
	tc := &tracingClient{base: &http.Client{}}
	fs := newFS(t, srv, func(o *s3fs.Options) { o.HTTPClient = tc })
	p := fileio.Join(freshRoot(srv), "k")
	if err := fs.WriteIfAbsent(ctx, p, []byte("same")); err != nil {
		t.Fatal(err)
	}
	// Identical bytes: a read-back would wrongly call this a win.
	if err := fs.WriteIfAbsent(ctx, p, []byte("same")); !errors.Is(err, fileio.ErrExist) {
		t.Fatalf("second WriteIfAbsent = %v, want ErrExist", err)
	}
	if tc.count("GET") != 0 {
		t.Fatalf("a first-attempt 412 was read back; requests:\n%s", tc.log())
	}
}

// TestMultipartWriteIfAbsent: above the threshold WriteIfAbsent is a multipart upload completed
// with If-None-Match; a second one loses, and a lost complete response is resolved by read-back.
func TestMultipartWriteIfAbsent(t *testing.T) {
	srv := s3test.Start(t)
	small := func(o *s3fs.Options) { o.PartSize = s3fs.MinPartSize; o.MultipartThreshold = 1 << 20 }
	fs, tc := faultFS(t, srv, isComplete, small)
	root := freshRoot(srv)
	data := bytes.Repeat([]byte("0123456789abcdef"), (s3fs.MinPartSize+(1<<20))/16) // two parts
	p := fileio.Join(root, "big")
	if err := fs.WriteIfAbsent(ctx, p, data); err != nil {
		t.Fatalf("WriteIfAbsent with a lost complete response: %v\nrequests:\n%s", err, tc.log())
	}
	if tc.lost != 1 || tc.count("POST", "uploadId=", "If-None-Match=*") != 2 || tc.count("PUT", "partNumber=") != 2 || tc.count("PUT", "If-None-Match") != 0 {
		t.Fatalf("want 2 parts and 2 conditional completes (1 lost), no single PUT; requests:\n%s", tc.log())
	}
	got, err := fs.ReadFile(ctx, p)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("stored %d bytes, %v; want our %d", len(got), err, len(data))
	}
	other := newFS(t, srv, small)
	if err := other.WriteIfAbsent(ctx, p, bytes.ToUpper(data)); !errors.Is(err, fileio.ErrExist) {
		t.Fatalf("second multipart WriteIfAbsent = %v, want ErrExist", err)
	}
	if got, _ := fs.ReadFile(ctx, p); !bytes.Equal(got, data) {
		t.Fatal("the losing multipart upload replaced the object")
	}
}
