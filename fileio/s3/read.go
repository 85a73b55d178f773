package s3

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/lakeload/lakeload/fileio"
)

// Open opens an object for random reads: Size comes from a HEAD, every ReadAt is one ranged GET
// (so a Parquet footer costs one small request) and sequential Reads stream one GET from the current
// offset. All GETs carry If-Match with the ETag seen at open, so an object replaced meanwhile fails
// the read instead of mixing two versions. Reads use ctx.
func (s *FS) Open(ctx context.Context, path string) (fileio.File, error) {
	loc, err := s.loc(ctx, path)
	if err != nil {
		return nil, err
	}
	if loc.key == "" {
		return nil, fmt.Errorf("fileio/s3: open %s: is a bucket, not an object", loc)
	}
	head, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &loc.bucket, Key: &loc.key})
	if err != nil {
		return nil, opError(ctx, "open", loc, err)
	}
	return &file{fs: s, ctx: ctx, loc: loc, size: aws.ToInt64(head.ContentLength), etag: aws.ToString(head.ETag)}, nil
}

// ReadFile reads a whole object with one GET.
func (s *FS) ReadFile(ctx context.Context, path string) ([]byte, error) {
	loc, err := s.loc(ctx, path)
	if err != nil {
		return nil, err
	}
	if loc.key == "" {
		return nil, fmt.Errorf("fileio/s3: read %s: is a bucket, not an object", loc)
	}
	return s.readAll(ctx, "read", loc)
}

func (s *FS) readAll(ctx context.Context, op string, loc location) ([]byte, error) {
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &loc.bucket, Key: &loc.key})
	if err != nil {
		return nil, opError(ctx, op, loc, err)
	}
	defer out.Body.Close()
	b, err := io.ReadAll(out.Body)
	if err != nil {
		return nil, opError(ctx, op, loc, err)
	}
	return b, nil
}

// loc checks ctx and parses path.
func (s *FS) loc(ctx context.Context, path string) (location, error) {
	if err := ctx.Err(); err != nil {
		return location{}, fmt.Errorf("fileio/s3: %s: %w", path, err)
	}
	return parse(path)
}

// file is an open object. ReadAt is safe for concurrent use; Read and Seek share a position.
type file struct {
	fs   *FS
	ctx  context.Context
	loc  location
	size int64
	etag string

	mu      sync.Mutex
	closed  bool
	pos     int64         // Read/Seek position
	body    io.ReadCloser // open stream for sequential reads, at bodyPos
	bodyPos int64
}

var errClosed = errors.New("file already closed")

// Size returns the object size at open time.
func (f *file) Size() int64 { return f.size }

// get issues a ranged GET of [off, end) (end = -1: to the end of the object).
func (f *file) get(off, end int64) (io.ReadCloser, error) {
	rng := fmt.Sprintf("bytes=%d-", off)
	if end >= 0 {
		rng = fmt.Sprintf("bytes=%d-%d", off, end-1)
	}
	in := &s3.GetObjectInput{Bucket: &f.loc.bucket, Key: &f.loc.key, Range: &rng}
	if f.etag != "" {
		in.IfMatch = &f.etag
	}
	out, err := f.fs.client.GetObject(f.ctx, in)
	if err != nil {
		if isPreconditionFailed(err) {
			return nil, fmt.Errorf("fileio/s3: read %s: the object was replaced after it was opened (ETag %s no longer matches): reopen it", f.loc, f.etag)
		}
		return nil, opError(f.ctx, "read", f.loc, err)
	}
	return out.Body, nil
}

// ReadAt reads len(p) bytes at off with one ranged GET; fewer bytes only at the end (with io.EOF).
func (f *file) ReadAt(p []byte, off int64) (int, error) {
	f.mu.Lock()
	closed := f.closed
	f.mu.Unlock()
	if closed {
		return 0, fmt.Errorf("fileio/s3: read %s: %w", f.loc, errClosed)
	}
	if off < 0 {
		return 0, fmt.Errorf("fileio/s3: read %s: negative offset %d", f.loc, off)
	}
	if off >= f.size {
		return 0, io.EOF
	}
	n := min(int64(len(p)), f.size-off)
	if n == 0 {
		return 0, nil
	}
	body, err := f.get(off, off+n)
	if err != nil {
		return 0, err
	}
	defer body.Close()
	got, err := io.ReadFull(body, p[:n])
	if err != nil {
		return got, fmt.Errorf("fileio/s3: read %s at %d: %w", f.loc, off, fileio.RedactErr(err))
	}
	if n < int64(len(p)) {
		return got, io.EOF
	}
	return got, nil
}

// Read reads sequentially from the current position, reusing one streaming GET while reads stay
// sequential.
func (f *file) Read(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return 0, fmt.Errorf("fileio/s3: read %s: %w", f.loc, errClosed)
	}
	if f.pos >= f.size {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	if f.body == nil || f.bodyPos != f.pos {
		f.dropBody()
		body, err := f.get(f.pos, -1)
		if err != nil {
			return 0, err
		}
		f.body, f.bodyPos = body, f.pos
	}
	n, err := f.body.Read(p[:min(int64(len(p)), f.size-f.pos)])
	f.pos += int64(n)
	f.bodyPos += int64(n)
	if err == io.EOF {
		f.dropBody()
		if f.pos < f.size {
			return n, fmt.Errorf("fileio/s3: read %s: stream ended at %d of %d bytes", f.loc, f.pos, f.size)
		}
		err = nil
	}
	if err != nil {
		f.dropBody()
		return n, fmt.Errorf("fileio/s3: read %s: %w", f.loc, fileio.RedactErr(err))
	}
	return n, nil
}

// Seek sets the position for Read.
func (f *file) Seek(offset int64, whence int) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return 0, fmt.Errorf("fileio/s3: seek %s: %w", f.loc, errClosed)
	}
	var abs int64
	switch whence {
	case io.SeekStart:
		abs = offset
	case io.SeekCurrent:
		abs = f.pos + offset
	case io.SeekEnd:
		abs = f.size + offset
	default:
		return 0, fmt.Errorf("fileio/s3: seek %s: bad whence %d", f.loc, whence)
	}
	if abs < 0 {
		return 0, fmt.Errorf("fileio/s3: seek %s: negative position %d", f.loc, abs)
	}
	f.pos = abs
	return abs, nil
}

// Close releases the open stream; the file is unusable afterwards.
func (f *file) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return fmt.Errorf("fileio/s3: close %s: %w", f.loc, errClosed)
	}
	f.closed = true
	f.dropBody()
	return nil
}

func (f *file) dropBody() {
	if f.body != nil {
		_ = f.body.Close()
		f.body = nil
	}
}
