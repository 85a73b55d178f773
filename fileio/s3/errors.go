package s3

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"

	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/lakeload/lakeload/fileio"
)

// errorCode returns the S3 error code and HTTP status of err ("" and 0 if it carries none).
func errorCode(err error) (string, int) {
	code, status := "", 0
	var api smithy.APIError
	if errors.As(err, &api) {
		code = api.ErrorCode()
	}
	var re *smithyhttp.ResponseError
	if errors.As(err, &re) && re.Response != nil {
		status = re.Response.StatusCode
	}
	return code, status
}

func isNotFound(err error) bool {
	code, status := errorCode(err)
	if code == "NoSuchBucket" {
		return false
	}
	return code == "NoSuchKey" || code == "NotFound" || status == http.StatusNotFound
}

func isPreconditionFailed(err error) bool {
	code, status := errorCode(err)
	return code == "PreconditionFailed" || status == http.StatusPreconditionFailed
}

func isNoSuchUpload(err error) bool {
	code, _ := errorCode(err)
	return code == "NoSuchUpload"
}

// opError wraps an SDK error for op on loc. Not-found wraps fileio.ErrNotExist, a failed
// precondition fileio.ErrExist, a canceled context keeps ctx.Err() visible to errors.Is. The
// message names the operation and the location only: the SDK never puts credentials in errors,
// and the URLs it quotes (the request's, the endpoint's) are redacted (fileio.RedactErr).
func opError(ctx context.Context, op string, loc location, err error) error {
	err = fileio.RedactErr(err)
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		return fmt.Errorf("fileio/s3: %s %s: %w (%v)", op, loc, cerr, err)
	}
	switch {
	case isPreconditionFailed(err):
		return existError(op, loc)
	case isNotFound(err):
		return notExistError(op, loc)
	}
	if code, _ := errorCode(err); code == "NoSuchBucket" {
		return fmt.Errorf("fileio/s3: %s %s: bucket %q does not exist: create it or fix the location: %w", op, loc, loc.bucket, err)
	}
	return fmt.Errorf("fileio/s3: %s %s: %w", op, loc, err)
}

func existError(op string, loc location) error {
	return fmt.Errorf("fileio/s3: %w", &fs.PathError{Op: op, Path: loc.String(), Err: fileio.ErrExist})
}

func notExistError(op string, loc location) error {
	return fmt.Errorf("fileio/s3: %w", &fs.PathError{Op: op, Path: loc.String(), Err: fileio.ErrNotExist})
}
