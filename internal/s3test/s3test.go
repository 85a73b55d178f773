// Package s3test starts a real S3 server for tests: versitygw (Apache-2.0) serving a temporary
// POSIX directory on a free loopback port.
//
// Invariants:
//   - Start never reaches beyond 127.0.0.1; every server has its own directory, root keys and one
//     bucket, and is killed at test cleanup.
//   - The binary is $LAKELOAD_VERSITYGW, else $LAKELOAD_CACHE/bin/versitygw, else
//     ~/.cache/lakeload/bin/versitygw (.ci/run installs it there). Without it Start skips the test,
//     or fails it when LAKELOAD_REQUIRE_S3=1 (as CI sets).
package s3test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// Version is the versitygw release .ci/run installs and these tests were written against.
const Version = "v1.8.0"

// Environment variables that locate the server binary or make its absence fatal.
const (
	EnvBinary  = "LAKELOAD_VERSITYGW"
	EnvRequire = "LAKELOAD_REQUIRE_S3"
)

// Region is the region every test server answers for.
const Region = "us-east-1"

// Server is a running versitygw.
type Server struct {
	Endpoint  string // http://127.0.0.1:PORT
	Bucket    string // created empty by Start
	AccessKey string
	SecretKey string
	Dir       string // the POSIX root the server stores buckets in
}

// URI returns s3://<bucket>/<elem...>.
func (s Server) URI(elem ...string) string {
	u := "s3://" + s.Bucket
	for _, e := range elem {
		u += "/" + strings.Trim(e, "/")
	}
	return u
}

// Env returns the environment a process needs to reach the server through the standard AWS chain
// (for lakeload: fileio/s3.FromEnv).
func (s Server) Env() []string {
	return []string{
		"AWS_ENDPOINT_URL_S3=" + s.Endpoint,
		"AWS_ACCESS_KEY_ID=" + s.AccessKey,
		"AWS_SECRET_ACCESS_KEY=" + s.SecretKey,
		"AWS_REGION=" + Region,
		"AWS_EC2_METADATA_DISABLED=true",
	}
}

// Setenv sets Env in the current process for the rest of t.
func (s Server) Setenv(t testing.TB) {
	for _, kv := range s.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

// Client returns a raw SDK client for the server (path-style, static root keys), for tests that
// check what the server itself does.
func (s Server) Client() *s3.Client {
	return s3.New(s3.Options{
		Region:       Region,
		BaseEndpoint: aws.String(s.Endpoint),
		UsePathStyle: true,
		Credentials:  credentials.NewStaticCredentialsProvider(s.AccessKey, s.SecretKey, ""),
		// The newest SDK checksum trailers are not needed to test conditional writes.
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
	})
}

// Binary returns the versitygw binary's path, or an error saying how to install it.
func Binary() (string, error) {
	if p := os.Getenv(EnvBinary); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%s: %w", EnvBinary, p, err)
		}
		return p, nil
	}
	cache := os.Getenv("LAKELOAD_CACHE")
	if cache == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		cache = filepath.Join(home, ".cache", "lakeload")
	}
	p := filepath.Join(cache, "bin", "versitygw")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("versitygw not found at %s: install it with `GOBIN=%s go install github.com/versity/versitygw/cmd/versitygw@%s` or set %s", p, filepath.Dir(p), Version, EnvBinary)
	}
	return p, nil
}

var seq struct {
	sync.Mutex
	n int
}

// Start runs a versitygw on a free loopback port over a temp directory, creates an empty bucket
// and stops the server when t ends. It skips t when the binary is missing, unless
// LAKELOAD_REQUIRE_S3=1.
func Start(t testing.TB) Server {
	t.Helper()
	bin, err := Binary()
	if err != nil {
		if os.Getenv(EnvRequire) == "1" {
			t.Fatalf("s3test: %v (%s=1 requires the S3 test server)", err, EnvRequire)
		}
		t.Skipf("s3test: %v", err)
	}
	seq.Lock()
	seq.n++
	n := seq.n
	seq.Unlock()
	s := Server{
		Bucket:    "lakeload-test",
		AccessKey: fmt.Sprintf("lakeloadroot%d", n),
		SecretKey: fmt.Sprintf("lakeload-test-secret-%d-%d", os.Getpid(), time.Now().UnixNano()),
		Dir:       filepath.Join(t.TempDir(), "gw"),
	}
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ { // a free port can be taken between probe and bind
		if lastErr = s.start(t, bin); lastErr == nil {
			break
		}
	}
	if lastErr != nil {
		t.Fatalf("s3test: %v", lastErr)
	}
	if _, err := s.Client().CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: &s.Bucket}); err != nil {
		t.Fatalf("s3test: create bucket %s: %v", s.Bucket, err)
	}
	return s
}

// start launches the server on a fresh port and waits until it answers S3 requests.
func (s *Server) start(t testing.TB, bin string) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	var out syncBuffer
	cmd := exec.Command(bin, "--port", addr, "--access", s.AccessKey, "--secret", s.SecretKey,
		"--region", Region, "--quiet", "posix", s.Dir)
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY_ID=", "ROOT_SECRET_ACCESS_KEY=")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", bin, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() {
		_ = cmd.Process.Kill()
		<-exited
	}
	s.Endpoint = "http://" + addr
	deadline := time.Now().Add(15 * time.Second)
	for {
		select {
		case err := <-exited:
			return fmt.Errorf("versitygw on %s exited early (%v): %s", addr, err, out.String())
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := s.Client().ListBuckets(ctx, &s3.ListBucketsInput{})
		cancel()
		if err == nil {
			t.Cleanup(stop)
			return nil
		}
		if time.Now().After(deadline) {
			stop()
			return fmt.Errorf("versitygw on %s not ready after 15s (last error %v): %s", addr, err, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	addr, ok := l.Addr().(*net.TCPAddr)
	if !ok {
		return 0, errors.New("s3test: unexpected listener address")
	}
	return addr.Port, nil
}

// syncBuffer collects the server's output.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
