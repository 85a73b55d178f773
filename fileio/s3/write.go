package s3

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/lakeload/lakeload/fileio"
)

// Create starts writing an object. Bytes are buffered up to the part size; a file that stays below
// it is one PutObject on Close, a larger one becomes a multipart upload whose parts are sent as they
// fill (memory stays at one part) and which Close completes. Nothing is visible under path before
// Close returns nil; an existing object is replaced then. Writes use ctx.
func (s *FS) Create(ctx context.Context, path string) (fileio.Writer, error) {
	loc, err := s.loc(ctx, path)
	if err != nil {
		return nil, err
	}
	if loc.key == "" {
		return nil, fmt.Errorf("fileio/s3: create %s: is a bucket, not an object", loc)
	}
	return &writer{fs: s, ctx: ctx, loc: loc, buf: make([]byte, 0, min(s.partSize, 1<<20))}, nil
}

var errWriterDone = errors.New("writer already closed or aborted")

// writer is an in-progress Create.
type writer struct {
	fs       *FS
	ctx      context.Context
	loc      location
	buf      []byte
	uploadID string // "" until the first part is sent
	parts    []types.CompletedPart
	total    int64
	done     bool
}

// Write buffers p, sending every full part.
func (w *writer) Write(p []byte) (int, error) {
	if w.done {
		return 0, fmt.Errorf("fileio/s3: write %s: %w", w.loc, errWriterDone)
	}
	written := 0
	for len(p) > 0 {
		n := min(len(p), int(w.fs.partSize)-len(w.buf))
		w.buf = append(w.buf, p[:n]...)
		p, written = p[n:], written+n
		if int64(len(w.buf)) == w.fs.partSize {
			if err := w.sendPart(); err != nil {
				return written, err
			}
		}
	}
	return written, nil
}

// sendPart uploads the buffer as the next part, starting the multipart upload if needed.
func (w *writer) sendPart() error {
	c := w.fs.client
	if w.uploadID == "" {
		out, err := c.CreateMultipartUpload(w.ctx, &s3.CreateMultipartUploadInput{Bucket: &w.loc.bucket, Key: &w.loc.key})
		if err != nil {
			return opError(w.ctx, "create (start multipart upload)", w.loc, err)
		}
		w.uploadID = aws.ToString(out.UploadId)
	}
	num := int32(len(w.parts) + 1)
	out, err := c.UploadPart(w.ctx, &s3.UploadPartInput{
		Bucket: &w.loc.bucket, Key: &w.loc.key, UploadId: &w.uploadID, PartNumber: &num,
		Body: bytes.NewReader(w.buf), ContentLength: aws.Int64(int64(len(w.buf))),
	})
	if err != nil {
		return opError(w.ctx, fmt.Sprintf("create (upload part %d)", num), w.loc, err)
	}
	w.parts = append(w.parts, types.CompletedPart{ETag: out.ETag, PartNumber: &num})
	w.total += int64(len(w.buf))
	w.buf = w.buf[:0]
	return nil
}

// Close publishes the object. On failure the multipart upload is aborted and nothing is published.
func (w *writer) Close() error {
	if w.done {
		return fmt.Errorf("fileio/s3: close %s: %w", w.loc, errWriterDone)
	}
	w.done = true
	c := w.fs.client
	if w.uploadID == "" {
		_, err := c.PutObject(w.ctx, &s3.PutObjectInput{
			Bucket: &w.loc.bucket, Key: &w.loc.key,
			Body: bytes.NewReader(w.buf), ContentLength: aws.Int64(int64(len(w.buf))),
		})
		if err != nil {
			return opError(w.ctx, "create", w.loc, err)
		}
		return nil
	}
	if len(w.buf) > 0 {
		if err := w.sendPart(); err != nil {
			w.abortUpload()
			return err
		}
	}
	var a attempts
	_, err := c.CompleteMultipartUpload(w.ctx, &s3.CompleteMultipartUploadInput{
		Bucket: &w.loc.bucket, Key: &w.loc.key, UploadId: &w.uploadID,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: w.parts},
	}, a.option)
	if err == nil {
		return nil
	}
	if a.retried() && isNoSuchUpload(err) {
		// A retried complete whose first response was lost: the upload is gone because it was
		// completed. Confirm by size (the ETag of a multipart object is store-specific).
		head, herr := c.HeadObject(w.ctx, &s3.HeadObjectInput{Bucket: &w.loc.bucket, Key: &w.loc.key})
		if herr == nil && aws.ToInt64(head.ContentLength) == w.total {
			return nil
		}
	}
	w.abortUpload()
	return opError(w.ctx, "create (complete multipart upload)", w.loc, err)
}

// Abort discards the data; it is a no-op after Close.
func (w *writer) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	w.buf = nil
	if w.uploadID != "" {
		if _, err := w.fs.client.AbortMultipartUpload(context.WithoutCancel(w.ctx), &s3.AbortMultipartUploadInput{
			Bucket: &w.loc.bucket, Key: &w.loc.key, UploadId: &w.uploadID,
		}); err != nil && !isNoSuchUpload(err) {
			return opError(w.ctx, "abort multipart upload", w.loc, err)
		}
	}
	return nil
}

// abortUpload aborts the multipart upload after a failure, best effort (a bucket lifecycle rule
// for incomplete multipart uploads cleans up what this misses).
func (w *writer) abortUpload() {
	if w.uploadID != "" {
		_, _ = w.fs.client.AbortMultipartUpload(context.WithoutCancel(w.ctx), &s3.AbortMultipartUploadInput{
			Bucket: &w.loc.bucket, Key: &w.loc.key, UploadId: &w.uploadID,
		})
	}
}
