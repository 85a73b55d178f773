package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/lakeload/lakeload/metrics"
)

// metricsLimits bound what clients of the metrics server can hold (docs/metrics.md): a load must
// not run out of file descriptors or goroutines because scrapers (or anyone who can connect) keep
// connections open.
type metricsLimits struct {
	readHeader, read, write, idle time.Duration
	maxConns                      int // connections served at once; more wait in the kernel's backlog
}

// metricsDefaults are the limits of `load --metrics-addr`. A scrape is one small GET.
var metricsDefaults = metricsLimits{readHeader: 5 * time.Second, read: 10 * time.Second, write: 10 * time.Second,
	idle: 30 * time.Second, maxConns: 16}

// metricsListenAddr is addr with an empty host made the loopback: ":9464" serves 127.0.0.1:9464 only,
// and every interface must be asked for ("0.0.0.0:9464", "[::]:9464").
func metricsListenAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || host != "" {
		return addr // net.Listen reports a malformed address
	}
	return net.JoinHostPort("127.0.0.1", port)
}

// serveMetrics serves reg on GET http://addr/metrics until stop is called, within metricsDefaults.
// It prints the address it listens on (useful with port 0) to stderr.
func serveMetrics(addr string, reg *metrics.Registry, stderr io.Writer) (stop func(), err error) {
	return serveMetricsWith(addr, reg, stderr, metricsDefaults)
}

func serveMetricsWith(addr string, reg *metrics.Registry, stderr io.Writer, lim metricsLimits) (stop func(), err error) {
	ln, err := net.Listen("tcp", metricsListenAddr(addr))
	if err != nil {
		return nil, usageError{fmt.Errorf("--metrics-addr %q: %w: use a free HOST:PORT, e.g. 127.0.0.1:9464", addr, err)}
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", reg.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: lim.readHeader, ReadTimeout: lim.read, WriteTimeout: lim.write,
		IdleTimeout: lim.idle, MaxHeaderBytes: 8 << 10, ErrorLog: log.New(stderr, "lakeload: metrics server: ", 0)}
	go func() {
		if err := srv.Serve(newLimitListener(ln, lim.maxConns)); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(stderr, "lakeload: metrics server: %v\n", err)
		}
	}()
	fmt.Fprintf(stderr, "lakeload: metrics on http://%s/metrics\n", ln.Addr())
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}, nil
}

// limitListener accepts a connection only while fewer than cap(slots) accepted ones are open; until
// then further connections stay in the kernel's backlog and cost this process nothing.
type limitListener struct {
	net.Listener
	slots     chan struct{}
	closed    chan struct{}
	closeOnce sync.Once
}

func newLimitListener(ln net.Listener, n int) *limitListener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, n), closed: make(chan struct{})}
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.closed:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitConn{Conn: c, release: sync.OnceFunc(func() { <-l.slots })}, nil
}

func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

// limitConn gives its slot back when it is closed (once).
type limitConn struct {
	net.Conn
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.release()
	return err
}
