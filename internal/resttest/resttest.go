// Package resttest starts a real Paimon REST catalog server for tests: Java Paimon's own
// org.apache.paimon.rest.RESTCatalogServer (paimon-core tests jar) run by the oracle jar's
// lakeload.oracle.RestServer on a free loopback port, with bearer-token auth and data tokens off.
//
// Invariants:
//   - The server keeps its catalog in memory: it is started per test (Start) or once per test process
//     (Shared); tests of one process use distinct database names. It stops when its standard input
//     closes, so a test process that dies takes it along.
//   - The jar is the Java oracle's ($LAKELOAD_JAVA_ORACLE, else oracle/java/target/paimon-oracle.jar).
//     Without it (or java) Start skips the test, or fails it when LAKELOAD_REQUIRE_REST=1 (as CI sets).
package resttest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lakeload/lakeload/internal/oracle"
)

// EnvRequire makes a missing server fatal instead of a skip.
const EnvRequire = "LAKELOAD_REQUIRE_REST"

// Server is a running REST catalog server.
type Server struct {
	URI       string // http://localhost:PORT/
	Token     string // the bearer token it accepts
	Warehouse string // its catalog name (the client's "warehouse" option)
	Dir       string // the directory its tables live in
	stop      func()
}

// Catalog returns the server for the oracles' REST clients.
func (s *Server) Catalog() oracle.RESTCatalog {
	return oracle.RESTCatalog{URI: s.URI, Token: s.Token, Warehouse: s.Warehouse}
}

// Flags returns lakeload's command-line flags that select this catalog.
func (s *Server) Flags() []string {
	return []string{"--catalog", "rest", "--catalog-uri", s.URI, "--catalog-token", s.Token, "--catalog-warehouse", s.Warehouse}
}

// Start runs a server over a new temporary directory and stops it when t ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s, err := start(t.TempDir())
	if err != nil {
		unavailable(t, err)
	}
	t.Cleanup(s.stop)
	return s
}

var shared struct {
	once sync.Once
	s    *Server
	err  error
}

// Shared returns one server for the whole test process (started on first use, never stopped before the
// process exits). Its directory is under os.TempDir and is not removed.
func Shared(t testing.TB) *Server {
	t.Helper()
	shared.once.Do(func() {
		dir, err := os.MkdirTemp("", "lakeload-resttest-")
		if err != nil {
			shared.err = err
			return
		}
		shared.s, shared.err = start(dir)
	})
	if shared.err != nil {
		unavailable(t, shared.err)
	}
	return shared.s
}

func unavailable(t testing.TB, err error) {
	t.Helper()
	msg := fmt.Sprintf("resttest: REST catalog server unavailable: %v (build the Java oracle with `make java-oracle`)", err)
	if os.Getenv(EnvRequire) == "1" {
		t.Fatalf("%s; %s=1 requires it", msg, EnvRequire)
	}
	t.Skip(msg)
}

var seq struct {
	sync.Mutex
	n int
}

// startTimeout bounds a JVM start; generous, for a loaded 2-core machine.
const startTimeout = 5 * time.Minute

func start(dir string) (*Server, error) {
	jar, ok := oracle.JavaJar()
	if !ok {
		return nil, fmt.Errorf("java oracle jar %s not found", jar)
	}
	java, err := exec.LookPath("java")
	if err != nil {
		return nil, errors.New("java not found on PATH")
	}
	seq.Lock()
	seq.n++
	n := seq.n
	seq.Unlock()
	s := &Server{Token: fmt.Sprintf("lakeload-test-token-%d-%d", os.Getpid(), n), Warehouse: fmt.Sprintf("lakeload_test_%d", n),
		Dir: filepath.Join(dir, "rest-warehouse")}
	cmd := exec.Command(java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xlog:disable", "-Xlog:all=warning:stderr",
		"-cp", jar, "lakeload.oracle.RestServer", "--warehouse", s.Dir, "--catalog", s.Warehouse, "--token", s.Token)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var errb syncBuffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", java, err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	s.stop = func() {
		_ = stdin.Close()
		select {
		case <-exited:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	}
	uri := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "uri="); ok {
				uri <- u
				break
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case s.URI = <-uri:
		return s, nil
	case <-exited:
		return nil, fmt.Errorf("RestServer exited before serving (is %s built from this checkout, with lakeload.oracle.RestServer?): %s", jar, errb.String())
	case <-time.After(startTimeout):
		s.stop()
		return nil, fmt.Errorf("RestServer printed no uri within %v: %s", startTimeout, errb.String())
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.b.Len() < 1<<16 {
		b.b.Write(p)
	}
	return len(p), nil
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
