package rest

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// The commit answer decides what paimon/commit does next: success=false is a lost race (re-plan), a
// 4xx a refusal (not created, no retry), a 5xx or a dropped answer an unknown outcome (look it up).
// The config endpoint's prefix and headers shape every later request.
func TestCommitAnswersAndConfig(t *testing.T) {
	var commitStatus int
	var commitBody string
	var sawHeader, sawAuth bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sawAuth = r.Header.Get("Authorization") == "Bearer tk"
		switch {
		case r.URL.Path == "/v1/config":
			if r.URL.Query().Get("warehouse") != "w1" {
				http.Error(w, "{}", http.StatusNotFound)
				return
			}
			_, _ = w.Write([]byte(`{"defaults":{"prefix":"p x","header.X-A":"1"},"overrides":{}}`))
		case r.URL.EscapedPath() == "/v1/p+x/databases/db/tables/t/commit": // encoded as Java's URLEncoder does
			sawHeader = r.Header.Get("X-A") == "1"
			w.WriteHeader(commitStatus)
			_, _ = w.Write([]byte(commitBody))
		default:
			http.Error(w, `{"message":"no such path `+r.URL.Path+`","code":404}`, http.StatusNotFound)
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	c, err := Connect(ctx, Config{URI: srv.URL + "/", Token: "tk", Warehouse: "w1"})
	if err != nil {
		t.Fatal(err)
	}
	o := &owner{c: c, id: catalog.Identifier{Database: "db", Table: "t"}, uuid: "u-1"}
	s := &spec.Snapshot{ID: 1, CommitUser: "u", CommitKind: spec.CommitKindAppend}
	for _, tc := range []struct {
		status          int
		body            string
		exists, refused bool
		ok              bool
	}{
		{200, `{"success":true}`, false, false, true},
		{200, `{"success":false}`, true, false, false},
		{404, `{"message":"Table db.t does not exist.","resourceType":"TABLE","code":404}`, false, true, false},
		{500, `{"message":"Service Failure","code":500}`, false, false, false},
		{200, `{}`, false, false, false},
	} {
		commitStatus, commitBody = tc.status, tc.body
		err := o.CommitSnapshot(ctx, s)
		if (err == nil) != tc.ok || errors.Is(err, table.ErrSnapshotExists) != tc.exists || errors.Is(err, table.ErrCommitRefused) != tc.refused {
			t.Errorf("answer %d %s: err %v; want ok=%v exists=%v refused=%v", tc.status, tc.body, err, tc.ok, tc.exists, tc.refused)
		}
	}
	if !sawHeader || !sawAuth {
		t.Errorf("header.X-A from the config (%v) or the bearer token (%v) not sent", sawHeader, sawAuth)
	}
	if _, err := Connect(ctx, Config{URI: srv.URL + "/", Token: "tk", Warehouse: "nope"}); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown warehouse: %v", err)
	}
}

// A commit request is sent exactly once: when its answer is lost (the connection closes) or is a
// 502/503/504 (which GETs retry), the outcome is unknown and is returned for paimon/commit's lookup;
// a resend could create the snapshot a second time under the next id.
func TestCommitRequestSentOnce(t *testing.T) {
	var commits int
	var answer string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/v1/config":
			_, _ = w.Write([]byte(`{"defaults":{"prefix":"p"},"overrides":{}}`))
		case strings.HasSuffix(r.URL.Path, "/commit"):
			commits++
			if commits > 1 { // a resend: the id is taken by the first request, which the server carried out
				_, _ = w.Write([]byte(`{"success":false}`))
				return
			}
			if answer == "drop" {
				if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
					_ = conn.Close()
				}
				return
			}
			http.Error(w, `{"message":"unavailable","code":503}`, http.StatusServiceUnavailable)
		default:
			http.Error(w, `{"code":404}`, http.StatusNotFound)
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	c, err := Connect(ctx, Config{URI: srv.URL + "/", Token: "tk", Warehouse: "w"})
	if err != nil {
		t.Fatal(err)
	}
	o := &owner{c: c, id: catalog.Identifier{Database: "db", Table: "t"}, uuid: "u-1"}
	for _, a := range []string{"drop", "503"} {
		commits, answer = 0, a
		err := o.CommitSnapshot(ctx, &spec.Snapshot{ID: 1, CommitUser: "u", CommitKind: spec.CommitKindAppend})
		if commits != 1 {
			t.Errorf("answer %s: %d commit requests, want 1", a, commits)
		}
		if err == nil || errors.Is(err, table.ErrSnapshotExists) || errors.Is(err, table.ErrCommitRefused) {
			t.Errorf("answer %s: err %v, want an unknown outcome (neither exists nor refused)", a, err)
		}
	}
}
