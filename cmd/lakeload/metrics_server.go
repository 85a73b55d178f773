package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/lakeload/lakeload/metrics"
)

// serveMetrics serves reg on GET http://addr/metrics until stop is called. It prints the address it
// listens on (useful with port 0) to stderr.
func serveMetrics(addr string, reg *metrics.Registry, stderr io.Writer) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, usageError{fmt.Errorf("--metrics-addr %q: %w: use a free HOST:PORT, e.g. 127.0.0.1:9464", addr, err)}
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", reg.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
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
