package main

import (
	"context"
	"net"
	"path/filepath"
	"testing"

	"github.com/lakeload/lakeload/job/temporal"
	"github.com/lakeload/lakeload/source"
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

// TestJobRefIsAbsolute: local locations a driver sends to workers are absolute; object-store and
// file: locations are sent as given.
func TestJobRefIsAbsolute(t *testing.T) {
	t.Chdir(t.TempDir())
	jf := jobFlags{tableFlags: tableFlags{warehouse: "wh", table: "db.t"}, name: "j", checkpoint: "s3://b/ckpt"}
	in := inputFlags{from: "in/*.csv", opColumn: "op"}
	ref, err := jobRef(&jf, &in, "id")
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(ref.Warehouse) || !filepath.IsAbs(ref.From) || filepath.Base(ref.Warehouse) != "wh" {
		t.Fatalf("warehouse %q, from %q: want absolute paths", ref.Warehouse, ref.From)
	}
	if ref.Checkpoint != "s3://b/ckpt" || ref.Job != "j" || ref.Table != "db.t" || ref.OpColumn != "op" || ref.IDColumn != "id" {
		t.Fatalf("ref %+v", ref)
	}
	jf.warehouse = "file:///data/wh"
	if ref, _ = jobRef(&jf, &in, ""); ref.Warehouse != "file:///data/wh" {
		t.Fatalf("warehouse %q: a file: URI must be sent as given", ref.Warehouse)
	}
}

// TestWorkerTaskEnvCarriesBadRows: a driver's --bad-rows=quarantine reaches the workers' input
// mapping through the job reference, so workers leave bad rows out (and list them) as in-process
// tasks do; the default leaves the mapping strict.
func TestWorkerTaskEnvCarriesBadRows(t *testing.T) {
	wh := t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "db.t", "--column", "id BIGINT NOT NULL", "--column", "v STRING",
		"--primary-key", "id", "--option", "bucket=2"))...)
	for _, skip := range []bool{false, true} {
		ref := temporal.JobRef{Job: "j", Warehouse: wh, Table: "db.t", From: filepath.Join(wh, "*.csv"), SkipBadRows: skip}
		env, err := openTaskEnv(context.Background(), ref)
		if err != nil {
			t.Fatal(err)
		}
		if env.Mapping.SkipBadRows != skip {
			t.Fatalf("JobRef.SkipBadRows %v: worker mapping SkipBadRows %v", skip, env.Mapping.SkipBadRows)
		}
	}
}

// TestWorkerTaskEnvCarriesCSVDialect: the job's CSV dialect reaches a worker's input mapping through
// the job reference (a worker registers no input flags), so workers parse CSV splits as the driver
// cut them; a reference without one is RFC 4180 with a header.
func TestWorkerTaskEnvCarriesCSVDialect(t *testing.T) {
	wh := t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "db.t", "--column", "id BIGINT NOT NULL", "--column", "v STRING",
		"--primary-key", "id", "--option", "bucket=2"))...)
	for _, c := range []struct {
		delim, quote string
		noHeader     bool
		want         source.CSVDialect
	}{
		{"", "", false, source.CSVDialect{}},
		{";", "'", true, source.CSVDialect{Delimiter: ';', Quote: '\'', NoHeader: true}},
		{"\t", "", false, source.CSVDialect{Delimiter: '\t'}},
	} {
		ref := temporal.JobRef{Job: "j", Warehouse: wh, Table: "db.t", From: filepath.Join(wh, "*.csv"),
			CSVDelimiter: c.delim, CSVQuote: c.quote, CSVNoHeader: c.noHeader}
		env, err := openTaskEnv(context.Background(), ref)
		if err != nil {
			t.Fatal(err)
		}
		if env.Mapping.CSV != c.want {
			t.Errorf("JobRef %q %q %v: worker dialect %+v, want %+v", c.delim, c.quote, c.noHeader, env.Mapping.CSV, c.want)
		}
	}
}
