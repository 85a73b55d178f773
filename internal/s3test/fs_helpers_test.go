package s3test_test

// Tests of fileio/s3 against versitygw live here because the fileio layer may import nothing
// outside fileio (internal/lint).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	s3fs "github.com/lakeload/lakeload/fileio/s3"
	"github.com/lakeload/lakeload/internal/s3test"
)

var ctx = context.Background()

// newFS returns an FS on srv; extra adjusts the options (fault clients, part sizes).
func newFS(t *testing.T, srv s3test.Server, extra func(*s3fs.Options)) *s3fs.FS {
	t.Helper()
	o := s3fs.Options{
		Endpoint: srv.Endpoint, PathStyle: true, Region: s3test.Region,
		Credentials: credentials.NewStaticCredentialsProvider(srv.AccessKey, srv.SecretKey, ""),
	}
	if extra != nil {
		extra(&o)
	}
	fs, err := s3fs.New(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

var rootSeq atomic.Int64

// freshRoot returns an unused prefix in srv's bucket.
func freshRoot(srv s3test.Server) string {
	return srv.URI(fmt.Sprintf("t%03d", rootSeq.Add(1)))
}

// tracingClient forwards requests to the server, records them, and can lose the response of
// chosen requests after the server processed them (as a dropped connection would).
type tracingClient struct {
	base *http.Client
	// lose reports whether to drop the response of req; called once per request.
	lose func(req *http.Request) bool

	mu   sync.Mutex
	reqs []string // "METHOD path?query [If-None-Match=…] [Range=…]"
	lost int
}

func (c *tracingClient) Do(req *http.Request) (*http.Response, error) {
	line := req.Method + " " + req.URL.Path + "?" + req.URL.RawQuery
	if v := req.Header.Get("If-None-Match"); v != "" {
		line += " If-None-Match=" + v
	}
	if v := req.Header.Get("Range"); v != "" {
		line += " Range=" + v
	}
	c.mu.Lock()
	c.reqs = append(c.reqs, line)
	c.mu.Unlock()
	resp, err := c.base.Do(req)
	if err != nil {
		return resp, err
	}
	if c.lose != nil && c.lose(req) {
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		c.mu.Lock()
		c.lost++
		c.mu.Unlock()
		return nil, errors.New("injected fault: connection reset after the server answered")
	}
	return resp, nil
}

// count returns how many recorded requests contain all of parts.
func (c *tracingClient) count(parts ...string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
outer:
	for _, r := range c.reqs {
		for _, p := range parts {
			if !strings.Contains(r, p) {
				continue outer
			}
		}
		n++
	}
	return n
}

func (c *tracingClient) log() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.reqs, "\n")
}

// loseFirst returns a lose func dropping the response of the first request matching match.
func loseFirst(match func(*http.Request) bool) func(*http.Request) bool {
	var done atomic.Bool
	return func(req *http.Request) bool {
		return match(req) && done.CompareAndSwap(false, true)
	}
}

func isConditionalPut(req *http.Request) bool {
	return req.Method == http.MethodPut && req.Header.Get("If-None-Match") == "*" && !req.URL.Query().Has("uploadId")
}

func isComplete(req *http.Request) bool {
	return req.Method == http.MethodPost && req.URL.Query().Has("uploadId")
}

func headInput(bucket, key string) *s3.HeadObjectInput {
	return &s3.HeadObjectInput{Bucket: &bucket, Key: &key}
}
