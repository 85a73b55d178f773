package oracle

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"
)

// Client is a test's handle on a shared oracle process; failures are reported through its testing.TB.
type Client struct {
	t testing.TB
	p *process
}

// ReadOpts selects what Read returns. Zero value: all columns of the latest snapshot.
type ReadOpts struct {
	Snapshot   int64             // snapshot id for time travel (scan.snapshot-id); 0 = latest
	Filter     Filter            // exact row filter (see Eq, And, ...); nil = none
	Projection []string          // output columns; nil = all
	Options    map[string]string // extra table options for the read (e.g. deletion-vectors.merge-on-read)
}

type entry struct {
	once sync.Once
	p    *process
	err  error
}

var (
	javaEntry entry
	pyEntry   entry
)

// Java returns the Java Paimon oracle, skipping (or, with CI set, failing) the test when it is not built.
func Java(t testing.TB) *Client {
	t.Helper()
	return get(t, &javaEntry, "java", javaCommand)
}

// Py returns the pypaimon oracle, skipping (or, with CI set, failing) the test when it is not installed.
func Py(t testing.TB) *Client {
	t.Helper()
	return get(t, &pyEntry, "py", pyCommand)
}

func get(t testing.TB, e *entry, name string, resolve func() ([]string, error)) *Client {
	t.Helper()
	e.once.Do(func() {
		argv, err := resolve()
		if err != nil {
			e.err = err
			return
		}
		e.p = &process{name: name, argv: argv}
		e.p.mu.Lock()
		defer e.p.mu.Unlock()
		e.err = e.p.start()
	})
	if e.err != nil {
		msg := fmt.Sprintf("%s oracle unavailable: %v (build it with `make oracles`; see oracle/README.md)", name, e.err)
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return &Client{t: t, p: e.p}
}

// StartupTime is how long the last start of the oracle process took (spawn until first reply).
func (c *Client) StartupTime() time.Duration {
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	return c.p.started
}

func (r ReadOpts) request(table string) map[string]any {
	req := map[string]any{"cmd": "read", "table": table}
	if r.Snapshot != 0 {
		req["snapshot"] = r.Snapshot
	}
	if r.Filter != nil {
		req["filter"] = r.Filter
	}
	if r.Projection != nil {
		req["projection"] = r.Projection
	}
	if len(r.Options) > 0 {
		req["options"] = r.Options
	}
	return req
}

// TryRead returns the table's canonical lines (sorted) or the oracle's error.
func (c *Client) TryRead(table string, opts ReadOpts) ([]string, error) {
	var reply struct {
		Rows []string `json:"rows"`
	}
	if err := c.p.call(opts.request(table), &reply); err != nil {
		return nil, err
	}
	if reply.Rows == nil {
		reply.Rows = []string{}
	}
	return reply.Rows, nil
}

// Read returns the table's canonical lines (sorted); an oracle error fails the test.
func (c *Client) Read(table string, opts ReadOpts) []string {
	c.t.Helper()
	rows, err := c.TryRead(table, opts)
	if err != nil {
		c.t.Fatalf("read %s %+v: %v", table, opts, err)
	}
	return rows
}

// TrySnapshots lists the table's snapshots in ascending id order as JSON objects with keys id,
// schemaId, commitUser, commitIdentifier, commitKind, totalRecordCount, deltaRecordCount and
// properties (nil or map[string]any of strings). Integers are int64.
func (c *Client) TrySnapshots(table string) ([]map[string]any, error) {
	var reply struct {
		Snapshots []map[string]any `json:"snapshots"`
	}
	if err := c.p.call(map[string]any{"cmd": "snapshots", "table": table}, &reply); err != nil {
		return nil, err
	}
	for _, s := range reply.Snapshots {
		for k, v := range s {
			if n, ok := v.(json.Number); ok {
				if i, err := n.Int64(); err == nil {
					s[k] = i
				}
			}
		}
	}
	return reply.Snapshots, nil
}

// Snapshots is TrySnapshots that fails the test on error.
func (c *Client) Snapshots(table string) []map[string]any {
	c.t.Helper()
	s, err := c.TrySnapshots(table)
	if err != nil {
		c.t.Fatalf("snapshots %s: %v", table, err)
	}
	return s
}

// SelfTest runs the oracle's canonical-form check over a vectors file (internal/canon/testdata/vectors.jsonl).
func (c *Client) SelfTest(vectors string) (passed int, failed []string, err error) {
	var reply struct {
		Passed int      `json:"passed"`
		Failed []string `json:"failed"`
	}
	if err := c.p.call(map[string]any{"cmd": "selftest", "vectors": vectors}, &reply); err != nil {
		return 0, nil, err
	}
	return reply.Passed, reply.Failed, nil
}
