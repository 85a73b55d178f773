package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/internal/resttest"
)

// restArgs returns the command line cmd (e.g. "table create") on table name of the REST catalog srv, then more.
func restArgs(srv *resttest.Server, cmd, name string, more ...string) []string {
	out := append(strings.Fields(cmd), srv.Flags()...)
	return append(append(out, "--table", name), more...)
}

// restSnapshot is the server's latest snapshot of db.t (GET …/snapshot), nil when it has none.
func restSnapshot(t *testing.T, srv *resttest.Server, db, tbl string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, srv.URI+"v1/paimon/databases/"+db+"/tables/"+tbl+"/snapshot", nil)
	req.Header.Set("Authorization", "Bearer "+srv.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil
	}
	var r struct {
		Snapshot struct {
			Snapshot map[string]any `json:"snapshot"`
		} `json:"snapshot"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	return r.Snapshot.Snapshot
}

func snapshotFiles(t *testing.T, tableDir string) []string {
	t.Helper()
	ms, _ := filepath.Glob(filepath.Join(tableDir, "snapshot", "snapshot-*"))
	sort.Strings(ms)
	return ms
}

// A load through the REST catalog commits through the server's commit endpoint (the server writes
// snapshot-N; its latest snapshot is the load's, marker included), and Java's RESTCatalog client and
// pypaimon's REST client read exactly lakeload's rows.
func TestRESTLoadReadByJavaAndPypaimon(t *testing.T) {
	srv := resttest.Start(t)
	java := oracle.Java(t)
	ok(t, restArgs(srv, "table create", "shop.orders", "--column", "id BIGINT NOT NULL", "--column", "name STRING",
		"--column", "amount DECIMAL(10, 2)", "--primary-key", "id", "--option", "bucket=2")...)
	in := writeFile(t, t.TempDir(), "in.csv", "id,name,amount\n1,a,1.50\n2,b,2.00\n3,c,-3.25\n")
	ok(t, restArgs(srv, "load", "shop.orders", "--from", in, "--job", "j1")...)
	in2 := writeFile(t, t.TempDir(), "in2.csv", "id,name,amount\n2,B,20.00\n4,d,4.00\n")
	ok(t, restArgs(srv, "write", "shop.orders", "--from", in2)...)

	got := canonJSONL(t, lines(ok(t, restArgs(srv, "scan", "shop.orders")...)))
	if len(got) != 4 {
		t.Fatalf("scan: %d rows, want 4: %v", len(got), got)
	}
	sameLines(t, "Java RESTCatalog read vs lakeload scan", got, canonJSONL(t, java.RESTRead(srv.Catalog(), "shop.orders")))
	sameLines(t, "pypaimon REST read vs lakeload scan", got, canonJSONL(t, oracle.PyRESTRead(t, srv.Catalog(), "shop.orders")))

	// The server created both snapshots: its latest is the write's, and the load's carries properties.
	dir := filepath.Join(srv.Dir, "shop.db", "orders")
	if files := snapshotFiles(t, dir); len(files) != 2 {
		t.Fatalf("snapshot files %v, want 2", files)
	}
	latest := restSnapshot(t, srv, "shop", "orders")
	if latest == nil || latest["id"].(float64) != 2 {
		t.Fatalf("server's latest snapshot %v, want id 2", latest)
	}
	b, err := os.ReadFile(filepath.Join(dir, "snapshot", "snapshot-1"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"properties"`) {
		t.Errorf("snapshot-1 (the load's) has no properties (the window marker): %s", b)
	}
	out := ok(t, restArgs(srv, "status", "shop.orders", "--job", "j1")...)
	if !strings.Contains(out, "State:      finished") || !strings.Contains(out, "published") {
		t.Errorf("status of j1 does not report its commit:\n%s", out)
	}
}

// Java commits through the server and lakeload reads its rows; a lakeload write on top continues the
// table (sequence numbers included: the PK upsert wins) and Java's client reads the result.
func TestRESTJavaCommitsLakeloadReads(t *testing.T) {
	srv := resttest.Start(t)
	java := oracle.Java(t)
	spec := &oracle.TableSpec{Columns: []oracle.Column{{Name: "id", Type: "BIGINT NOT NULL"}, {Name: "v", Type: "STRING"}},
		PrimaryKeys: []string{"id"}, Options: map[string]string{"bucket": "1"}}
	if _, err := java.TryRESTWrite(srv.Catalog(), "db.kv", spec, []map[string]any{{"id": 1, "v": "j1"}, {"id": 2, "v": "j2"}}); err != nil {
		t.Fatal(err)
	}
	sameLines(t, "lakeload scan of Java's commit", []string{`{"id":1,"v":"j1"}`, `{"id":2,"v":"j2"}`},
		sortedCopy(lines(ok(t, restArgs(srv, "scan", "db.kv")...))))
	in := writeFile(t, t.TempDir(), "in.jsonl", `{"id":2,"v":"l2"}`+"\n"+`{"id":3,"v":"l3"}`+"\n")
	ok(t, restArgs(srv, "write", "db.kv", "--from", in)...)
	want := []string{`{"id":1,"v":"j1"}`, `{"id":2,"v":"l2"}`, `{"id":3,"v":"l3"}`}
	sameLines(t, "Java RESTCatalog read after lakeload's write", want, java.RESTRead(srv.Catalog(), "db.kv"))
	if _, err := java.TryRESTWrite(srv.Catalog(), "db.kv", nil, []map[string]any{{"id": 3, "v": "j3"}}); err != nil {
		t.Fatalf("Java's commit after lakeload's: %v", err)
	}
	want[2] = `{"id":3,"v":"j3"}`
	sameLines(t, "lakeload scan after Java's second commit", want, sortedCopy(lines(ok(t, restArgs(srv, "scan", "db.kv")...))))
	if out := ok(t, restArgs(srv, "snapshots", "db.kv")...); len(lines(out)) != 4 { // header + 3
		t.Errorf("snapshots:\n%s\nwant 3 snapshots", out)
	}
}

// A Java writer and a lakeload writer committing to one table through the server at the same time both
// land: every batch is in the table once, in its own snapshot.
func TestRESTConcurrentJavaAndLakeloadWriters(t *testing.T) {
	srv := resttest.Start(t)
	java := oracle.Java(t)
	ok(t, restArgs(srv, "table create", "db.events", "--column", "id BIGINT", "--column", "who STRING", "--option", "bucket=-1")...)
	const batches = 4
	var wg sync.WaitGroup
	var javaErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < batches; i++ {
			if _, err := java.TryRESTWrite(srv.Catalog(), "db.events", nil, []map[string]any{{"id": 1000 + i, "who": "java"}}); err != nil {
				javaErr = err
				return
			}
		}
	}()
	dir := t.TempDir()
	for i := 0; i < batches; i++ {
		in := writeFile(t, dir, fmt.Sprintf("in%d.csv", i), fmt.Sprintf("id,who\n%d,lakeload\n", i))
		if r := lakeload(t, restArgs(srv, "write", "db.events", "--from", in)...); r.code != 0 {
			t.Errorf("lakeload write %d: exit %d: %s", i, r.code, r.stderr)
		}
	}
	wg.Wait()
	if javaErr != nil {
		t.Fatalf("Java writer: %v", javaErr)
	}
	var want []string
	for i := 0; i < batches; i++ {
		want = append(want, fmt.Sprintf(`{"id":%d,"who":"java"}`, 1000+i), fmt.Sprintf(`{"id":%d,"who":"lakeload"}`, i))
	}
	sort.Strings(want)
	sameLines(t, "lakeload scan", want, sortedCopy(lines(ok(t, restArgs(srv, "scan", "db.events")...))))
	sameLines(t, "Java RESTCatalog read", want, java.RESTRead(srv.Catalog(), "db.events"))
	if files := snapshotFiles(t, filepath.Join(srv.Dir, "db.db", "events")); len(files) != 2*batches {
		t.Errorf("%d snapshot files, want %d (one per batch)", len(files), 2*batches)
	}
}

// dropProxy forwards every request to the server; the first commit request is forwarded, and the
// server's answer replaced according to mode: "drop" closes the connection without an answer (a lost
// response), "500" answers a server error although the server committed.
type dropProxy struct {
	mode    string
	commits atomic.Int32 // commit requests received
	dropped atomic.Int32
	srv     *httptest.Server
}

func newDropProxy(t *testing.T, target, mode string) *dropProxy {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &dropProxy{mode: mode}
	rp := httputil.NewSingleHostReverseProxy(u)
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/commit") {
			rp.ServeHTTP(w, r)
			return
		}
		if p.commits.Add(1) > 1 {
			rp.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		rp.ServeHTTP(rec, r) // the server acts on the request
		_, _ = io.Copy(io.Discard, rec.Result().Body)
		p.dropped.Add(1)
		if p.mode == "500" {
			http.Error(w, `{"message":"Service Failure","code":500}`, http.StatusInternalServerError)
			return
		}
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			_ = conn.Close()
		}
	}))
	t.Cleanup(p.srv.Close)
	return p
}

// A commit whose answer is lost (or turned into a 5xx after the server committed) is resolved by the
// lookup of (user, identifier): the data lands exactly once and the commit request is never resent.
func TestRESTLostCommitResponseResolvedByLookup(t *testing.T) {
	srv := resttest.Start(t)
	ok(t, restArgs(srv, "table create", "db.lost", "--column", "id BIGINT", "--column", "mode STRING", "--option", "bucket=-1")...)
	dir := t.TempDir()
	var want []string
	for i, mode := range []string{"drop", "500"} {
		p := newDropProxy(t, srv.URI, mode)
		flags := []string{"--catalog", "rest", "--catalog-uri", p.srv.URL + "/", "--catalog-token", srv.Token,
			"--catalog-warehouse", srv.Warehouse, "--table", "db.lost"}
		in := writeFile(t, dir, mode+".csv", fmt.Sprintf("id,mode\n%d,%s\n%d,%s\n", 2*i, mode, 2*i+1, mode))
		verb := []string{"write"}
		if mode == "500" {
			verb = []string{"load", "--job", "lost-" + mode}
		}
		args := append(append(verb, flags...), "--from", in)
		if r := lakeload(t, args...); r.code != 0 {
			t.Fatalf("%s: exit %d: %s", mode, r.code, r.stderr)
		}
		if p.dropped.Load() != 1 || p.commits.Load() != 1 {
			t.Errorf("%s: %d commit requests, %d answers dropped; want exactly one request, its answer dropped (resolved by the lookup, not a resend)",
				mode, p.commits.Load(), p.dropped.Load())
		}
		want = append(want, fmt.Sprintf(`{"id":%d,"mode":"%s"}`, 2*i, mode), fmt.Sprintf(`{"id":%d,"mode":"%s"}`, 2*i+1, mode))
	}
	sort.Strings(want)
	sameLines(t, "rows after lost answers", want, sortedCopy(lines(ok(t, restArgs(srv, "scan", "db.lost")...))))
	if files := snapshotFiles(t, filepath.Join(srv.Dir, "db.db", "lost")); len(files) != 2 {
		t.Errorf("snapshot files %v, want 2", files)
	}
}

func sortedCopy(ss []string) []string {
	out := append([]string{}, ss...)
	sort.Strings(out)
	return out
}
