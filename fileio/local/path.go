package local

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/lakeload/lakeload/fileio"
)

func init() {
	fileio.RegisterScheme("file", openURI)
}

// openURI is the fileio.Open backend for local paths and file: URIs; relative paths are made
// absolute against the working directory.
func openURI(uri string) (fileio.FileIO, string, error) {
	p := uri
	if hasFileScheme(uri) {
		var err error
		if p, err = ParseFileURI(uri); err != nil {
			return nil, "", err
		}
	} else if strings.Contains(uri, "://") {
		return nil, "", fmt.Errorf("fileio/local: %q is not a local path", uri)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, "", fmt.Errorf("fileio/local: resolve %q: %w", uri, err)
	}
	return New(), filepath.ToSlash(abs), nil
}

// ParseFileURI converts a file: URI (file:///abs, file://localhost/abs or Hadoop's file:/abs) to an
// absolute OS path. Percent escapes are decoded.
func ParseFileURI(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("fileio/local: bad file URI %q: %w", uri, err)
	}
	if !strings.EqualFold(u.Scheme, "file") {
		return "", fmt.Errorf("fileio/local: %q is not a file: URI", uri)
	}
	if u.Host != "" && u.Host != "localhost" {
		return "", fmt.Errorf("fileio/local: file URI %q names remote host %q", uri, u.Host)
	}
	if u.Opaque != "" || !strings.HasPrefix(u.Path, "/") {
		return "", fmt.Errorf("fileio/local: file URI %q has no absolute path", uri)
	}
	return u.Path, nil
}

func hasFileScheme(p string) bool {
	return len(p) >= 5 && strings.EqualFold(p[:5], "file:")
}

// osPath checks ctx and maps a FileIO path (absolute OS path or file: URI) to a clean OS path.
func osPath(ctx context.Context, path string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("fileio/local: %s: %w", path, err)
	}
	p := path
	if hasFileScheme(path) {
		var err error
		if p, err = ParseFileURI(path); err != nil {
			return "", err
		}
	} else if strings.Contains(path, "://") {
		return "", fmt.Errorf("fileio/local: %q is not a local path", path)
	}
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("fileio/local: path %q is not absolute", path)
	}
	return filepath.Clean(p), nil
}
