package s3

import (
	"bytes"
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// ifNoneMatchAny is the If-None-Match value that makes a write create-only.
const ifNoneMatchAny = "*"

// WriteIfAbsent creates path with data only if no object exists there: a PutObject with
// If-None-Match: * (data above the multipart threshold: a multipart upload completed with
// If-None-Match: *). The store arbitrates, so exactly one of any number of concurrent writers, in
// any process, succeeds; the others get an error wrapping fileio.ErrExist that names path.
//
// Lost responses: if the SDK retried the request (throttling, 5xx, a dropped connection) and the
// retry got 412, our first attempt may be the one that landed. Only in that case the object is read
// back: identical bytes mean our write landed (success), different bytes mean another writer won
// (ErrExist), a failed read-back is returned as an error with unknown outcome (neither nil nor
// ErrExist). Two writers with byte-identical content are indistinguishable, which is harmless since
// what they publish is the same.
func (s *FS) WriteIfAbsent(ctx context.Context, path string, data []byte) error {
	loc, err := s.loc(ctx, path)
	if err != nil {
		return err
	}
	if loc.key == "" {
		return fmt.Errorf("fileio/s3: write-if-absent %s: is a bucket, not an object", loc)
	}
	if s.omitCond {
		return s.checkThenPut(ctx, loc, data)
	}
	if int64(len(data)) > s.threshold {
		return s.writeIfAbsentMultipart(ctx, loc, data)
	}
	var a attempts
	_, err = s.client.PutObject(ctx, &s3.PutObjectInput{
		Bucket: &loc.bucket, Key: &loc.key, IfNoneMatch: aws.String(ifNoneMatchAny),
		Body: bytes.NewReader(data), ContentLength: aws.Int64(int64(len(data))),
	}, a.option)
	if err == nil {
		return nil
	}
	if a.retried() && isPreconditionFailed(err) {
		return s.confirmOwn(ctx, loc, data)
	}
	return opError(ctx, "write-if-absent", loc, err)
}

// writeIfAbsentMultipart uploads data in parts and completes the upload with If-None-Match: *.
func (s *FS) writeIfAbsentMultipart(ctx context.Context, loc location, data []byte) error {
	c := s.client
	up, err := c.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: &loc.bucket, Key: &loc.key})
	if err != nil {
		return opError(ctx, "write-if-absent (start multipart upload)", loc, err)
	}
	id := up.UploadId
	abort := func() {
		_, _ = c.AbortMultipartUpload(context.WithoutCancel(ctx), &s3.AbortMultipartUploadInput{Bucket: &loc.bucket, Key: &loc.key, UploadId: id})
	}
	var parts []types.CompletedPart
	for off := int64(0); off < int64(len(data)); off += s.partSize {
		chunk := data[off:min(off+s.partSize, int64(len(data)))]
		num := int32(len(parts) + 1)
		out, err := c.UploadPart(ctx, &s3.UploadPartInput{
			Bucket: &loc.bucket, Key: &loc.key, UploadId: id, PartNumber: &num,
			Body: bytes.NewReader(chunk), ContentLength: aws.Int64(int64(len(chunk))),
		})
		if err != nil {
			abort()
			return opError(ctx, fmt.Sprintf("write-if-absent (upload part %d)", num), loc, err)
		}
		parts = append(parts, types.CompletedPart{ETag: out.ETag, PartNumber: &num})
	}
	var a attempts
	_, err = c.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{
		Bucket: &loc.bucket, Key: &loc.key, UploadId: id, IfNoneMatch: aws.String(ifNoneMatchAny),
		MultipartUpload: &types.CompletedMultipartUpload{Parts: parts},
	}, a.option)
	if err == nil {
		return nil
	}
	if a.retried() && (isPreconditionFailed(err) || isNoSuchUpload(err)) {
		// The first complete may have landed (then the upload is gone: NoSuchUpload, or the
		// object exists: 412). Abort in case it did not; a completed upload ignores it.
		abort()
		return s.confirmOwn(ctx, loc, data)
	}
	abort()
	return opError(ctx, "write-if-absent (complete multipart upload)", loc, err)
}

// confirmOwn decides a retried conditional write that ended in 412: the write is ours iff the
// stored bytes equal data.
func (s *FS) confirmOwn(ctx context.Context, loc location, data []byte) error {
	got, err := s.readAll(ctx, "write-if-absent (read back after a retried conditional write)", loc)
	if err != nil {
		return fmt.Errorf("%w: outcome unknown: the conditional write was retried and got 412, so it may have landed", err)
	}
	if bytes.Equal(got, data) {
		return nil
	}
	return existError("write-if-absent", loc)
}

// checkThenPut is the broken protocol behind Options.OmitIfNoneMatch (tests only): HEAD, then an
// unconditional PUT. Concurrent writers can all pass the check and overwrite each other.
func (s *FS) checkThenPut(ctx context.Context, loc location, data []byte) error {
	_, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &loc.bucket, Key: &loc.key})
	if err == nil {
		return existError("write-if-absent", loc)
	}
	if !isNotFound(err) {
		return opError(ctx, "write-if-absent", loc, err)
	}
	_, err = s.client.PutObject(ctx, &s3.PutObjectInput{
		Bucket: &loc.bucket, Key: &loc.key, Body: bytes.NewReader(data), ContentLength: aws.Int64(int64(len(data))),
	})
	if err != nil {
		return opError(ctx, "write-if-absent", loc, err)
	}
	return nil
}
