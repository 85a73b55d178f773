package s3test_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/lakeload/lakeload/internal/s3test"
)

func status(err error) int {
	var re *smithyhttp.ResponseError
	if errors.As(err, &re) && re.Response != nil {
		return re.Response.StatusCode
	}
	return 0
}

func get(t *testing.T, c *s3.Client, bucket, key string) []byte {
	t.Helper()
	out, err := c.GetObject(context.Background(), &s3.GetObjectInput{Bucket: &bucket, Key: &key})
	if err != nil {
		t.Fatalf("GetObject %s: %v", key, err)
	}
	defer out.Body.Close()
	b, err := io.ReadAll(out.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPutIfNoneMatch proves the server honours If-None-Match: * on PutObject: the first create
// succeeds, a second gets 412 and leaves the first content, and a PUT without the header overwrites.
func TestPutIfNoneMatch(t *testing.T) {
	srv := s3test.Start(t)
	c, ctx, key := srv.Client(), context.Background(), "snap/snapshot-1"
	put := func(body string, cond bool) error {
		in := &s3.PutObjectInput{Bucket: &srv.Bucket, Key: &key, Body: bytes.NewReader([]byte(body))}
		if cond {
			in.IfNoneMatch = aws.String("*")
		}
		_, err := c.PutObject(ctx, in)
		return err
	}
	if err := put("first", true); err != nil {
		t.Fatalf("first conditional PUT: %v", err)
	}
	err := put("second", true)
	if status(err) != http.StatusPreconditionFailed {
		t.Fatalf("second conditional PUT: err = %v (status %d), want 412", err, status(err))
	}
	if got := get(t, c, srv.Bucket, key); string(got) != "first" {
		t.Fatalf("content after a refused PUT = %q, want first", got)
	}
	if err := put("third", false); err != nil {
		t.Fatalf("unconditional PUT: %v", err)
	}
	if got := get(t, c, srv.Bucket, key); string(got) != "third" {
		t.Fatalf("content after an unconditional PUT = %q, want third (the header is what protects)", got)
	}
}

// TestCompleteMultipartIfNoneMatch proves the server honours If-None-Match: * on
// CompleteMultipartUpload, both when the key existed before the upload started and when another
// upload completed first.
func TestCompleteMultipartIfNoneMatch(t *testing.T) {
	srv := s3test.Start(t)
	c, ctx, key := srv.Client(), context.Background(), "big/object"
	upload := func(body []byte) (complete func(cond bool) error) {
		up, err := c.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: &srv.Bucket, Key: &key})
		if err != nil {
			t.Fatal(err)
		}
		n := int32(1)
		part, err := c.UploadPart(ctx, &s3.UploadPartInput{Bucket: &srv.Bucket, Key: &key, UploadId: up.UploadId, PartNumber: &n, Body: bytes.NewReader(body)})
		if err != nil {
			t.Fatal(err)
		}
		return func(cond bool) error {
			in := &s3.CompleteMultipartUploadInput{Bucket: &srv.Bucket, Key: &key, UploadId: up.UploadId,
				MultipartUpload: &types.CompletedMultipartUpload{Parts: []types.CompletedPart{{ETag: part.ETag, PartNumber: &n}}}}
			if cond {
				in.IfNoneMatch = aws.String("*")
			}
			_, err := c.CompleteMultipartUpload(ctx, in)
			return err
		}
	}
	a, b := upload([]byte("upload-a")), upload([]byte("upload-b")) // both started while the key is absent
	if err := a(true); err != nil {
		t.Fatalf("first conditional complete: %v", err)
	}
	if err := b(true); status(err) != http.StatusPreconditionFailed {
		t.Fatalf("second conditional complete: err = %v (status %d), want 412", err, status(err))
	}
	if got := get(t, c, srv.Bucket, key); string(got) != "upload-a" {
		t.Fatalf("content = %q, want upload-a", got)
	}
	if err := upload([]byte("upload-c"))(true); status(err) != http.StatusPreconditionFailed {
		t.Fatalf("conditional complete over an existing key: err = %v, want 412", err)
	}
	if err := upload([]byte("upload-d"))(false); err != nil {
		t.Fatalf("unconditional complete: %v", err)
	}
	if got := get(t, c, srv.Bucket, key); string(got) != "upload-d" {
		t.Fatalf("content = %q, want upload-d", got)
	}
}
