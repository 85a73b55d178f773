package s3test_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/lakeload/lakeload/internal/s3test"
)

// TestRecompleteSameUpload records what the server does when a client retries the
// CompleteMultipartUpload of an upload that already completed (its first response lost): versitygw,
// like S3, answers 200 again even with If-None-Match, since the object is that upload's own result.
// fileio/s3 also handles the other answers a store may give here (412, NoSuchUpload) by read-back.
func TestRecompleteSameUpload(t *testing.T) {
	srv := s3test.Start(t)
	c, ctx, key := srv.Client(), context.Background(), "x"
	up, err := c.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: &srv.Bucket, Key: &key})
	if err != nil {
		t.Fatal(err)
	}
	n := int32(1)
	part, err := c.UploadPart(ctx, &s3.UploadPartInput{Bucket: &srv.Bucket, Key: &key, UploadId: up.UploadId, PartNumber: &n, Body: bytes.NewReader([]byte("abc"))})
	if err != nil {
		t.Fatal(err)
	}
	in := &s3.CompleteMultipartUploadInput{Bucket: &srv.Bucket, Key: &key, UploadId: up.UploadId, IfNoneMatch: aws.String("*"),
		MultipartUpload: &types.CompletedMultipartUpload{Parts: []types.CompletedPart{{ETag: part.ETag, PartNumber: &n}}}}
	if _, err := c.CompleteMultipartUpload(ctx, in); err != nil {
		t.Fatalf("first complete: %v", err)
	}
	if _, err := c.CompleteMultipartUpload(ctx, in); err != nil {
		t.Fatalf("re-complete of the same upload: %v (status %d); fileio/s3 would resolve it by read-back, but versitygw %s answered 200 so far", err, status(err), s3test.Version)
	}
	if got := get(t, c, srv.Bucket, key); string(got) != "abc" {
		t.Fatalf("content = %q", got)
	}
}
