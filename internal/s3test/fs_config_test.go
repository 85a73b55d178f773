package s3test_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/lakeload/lakeload/fileio"
	s3fs "github.com/lakeload/lakeload/fileio/s3"
	"github.com/lakeload/lakeload/internal/s3test"
)

// TestErrorsHideSecret: failing operations (bad signature, missing object, missing bucket) name
// the operation and the s3:// location but never the secret key.
func TestErrorsHideSecret(t *testing.T) {
	srv := s3test.Start(t)
	const wrongSecret = "WRONG-secret-0123456789abcdefXYZ"
	bad := newFS(t, srv, func(o *s3fs.Options) {
		o.Credentials = credentials.NewStaticCredentialsProvider(srv.AccessKey, wrongSecret, "")
		o.MaxAttempts = 1
	})
	good := newFS(t, srv, nil)
	p := fileio.Join(freshRoot(srv), "dir", "file-x")
	var errs []error
	errs = append(errs, bad.WriteIfAbsent(ctx, p, []byte("x")), fileio.WriteFile(ctx, bad, p, []byte("x")))
	_, err := bad.ReadFile(ctx, p)
	errs = append(errs, err)
	_, err = bad.List(ctx, p)
	errs = append(errs, err)
	_, err = good.ReadFile(ctx, p)
	errs = append(errs, err)
	_, err = good.Stat(ctx, "s3://no-such-bucket-here/k")
	errs = append(errs, err)
	for i, err := range errs {
		if err == nil {
			t.Fatalf("operation %d succeeded", i)
		}
		msg := err.Error()
		for _, secret := range []string{wrongSecret, srv.SecretKey} {
			if strings.Contains(msg, secret) {
				t.Fatalf("error %d leaks a secret key: %s", i, msg)
			}
		}
		if !strings.Contains(msg, "s3://") {
			t.Errorf("error %d does not name the location: %s", i, msg)
		}
	}
	if !strings.Contains(errs[0].Error(), "file-x") || !strings.Contains(errs[0].Error(), "write-if-absent") {
		t.Errorf("error does not name key and operation: %v", errs[0])
	}
	if !errors.Is(errs[4], fileio.ErrNotExist) {
		t.Errorf("missing object: %v, want ErrNotExist", errs[4])
	}
	if errors.Is(errs[5], fileio.ErrNotExist) || !strings.Contains(errs[5].Error(), "no-such-bucket-here") {
		t.Errorf("missing bucket: %v, want a bucket error (not ErrNotExist) naming it", errs[5])
	}
}

func TestOpenURI(t *testing.T) {
	srv := s3test.Start(t)
	srv.Setenv(t)
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/none")
	root := freshRoot(srv)
	fs, p, err := fileio.Open(root + "/wh/")
	if err != nil || p != root+"/wh" {
		t.Fatalf("Open = %v, %q, %v", fs, p, err)
	}
	if err := fs.WriteIfAbsent(ctx, fileio.Join(p, "a"), []byte("a")); err != nil {
		t.Fatal(err)
	}
	if got, err := srv.Client().HeadObject(ctx, headInput(srv.Bucket, strings.TrimPrefix(p, "s3://"+srv.Bucket+"/")+"/a")); err != nil || *got.ContentLength != 1 {
		t.Fatalf("object not on the server: %v", err)
	}
	for _, bad := range []string{"s3://", "s3:///key", "s3://b/a//c"} {
		if _, _, err := fileio.Open(bad); err == nil || !strings.Contains(err.Error(), "s3://") {
			t.Errorf("Open(%q) err = %v, want a location error", bad, err)
		}
	}
}
