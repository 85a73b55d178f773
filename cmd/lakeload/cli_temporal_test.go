package main

import (
	"net"
	"testing"
)

// TestWorkerFlags: the worker needs --temporal and a sane concurrency; an unreachable frontend is
// an error naming the address and saying how to start one.
func TestWorkerFlags(t *testing.T) {
	fails(t, exitUsage, []string{"--temporal is required"}, "worker")
	fails(t, exitUsage, []string{"--concurrency -1"}, "worker", "--temporal", "127.0.0.1:1", "--concurrency", "-1")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	fails(t, exitFailure, []string{"--temporal " + addr, "cannot reach the Temporal service", "temporal server start-dev"},
		"worker", "--temporal", addr)
}
