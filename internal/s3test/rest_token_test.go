package s3test_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/internal/s3test"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/catalog/rest"
	"github.com/lakeload/lakeload/paimon/table"
)

// tokenServer is a fake Paimon REST catalog with data-token.enabled=true and one table db.t at
// path, whose GET …/token answers the tokens queued, one per request (the last one repeats).
type tokenServer struct {
	path string
	mu   sync.Mutex
	toks []map[string]any
	gets int // token requests
}

func (s *tokenServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/v1/config":
		_, _ = w.Write([]byte(`{"defaults":{"prefix":"p","data-token.enabled":"true"},"overrides":{}}`))
	case "/v1/p/databases/db/tables/t":
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "uuid-1", "name": "t", "path": s.path, "schemaId": 0,
			"schema": map[string]any{"fields": []map[string]any{{"id": 0, "name": "id", "type": "BIGINT"}},
				"partitionKeys": []string{}, "primaryKeys": []string{}, "options": map[string]string{}}})
	case "/v1/p/databases/db/tables/t/token":
		s.mu.Lock()
		tok := s.toks[min(s.gets, len(s.toks)-1)]
		s.gets++
		s.mu.Unlock()
		_ = json.NewEncoder(w).Encode(tok)
	default:
		http.Error(w, `{"code":404}`, http.StatusNotFound)
	}
}

func (s *tokenServer) tokenGets() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gets
}

// With data tokens enabled, a table's files are reached with the credentials the catalog vends for it
// (GET …/tables/{t}/token), with the token's endpoint and region and no ambient credentials at all;
// an expired token is replaced by a new GET before the next S3 request, a valid one is kept.
func TestRESTDataTokenCredentials(t *testing.T) {
	srv := s3test.Start(t)
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_PROFILE"} {
		t.Setenv(k, "")
	}
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("LAKELOAD_S3_MAX_ATTEMPTS", "1")
	expired, valid := time.Now().Add(-time.Second).UnixMilli(), time.Now().Add(10*time.Hour).UnixMilli()
	token := func(secret string, exp int64) map[string]any {
		return map[string]any{"token": map[string]string{"fs.s3a.access-key": srv.AccessKey, "fs.s3a.secret-key": secret,
			"fs.s3a.endpoint": srv.Endpoint, "fs.s3a.region": s3test.Region, "fs.s3a.path.style.access": "true"}, "expiresAtMillis": exp}
	}
	// A table whose first token has expired: the next S3 request fetches the second, which is kept.
	tbl, fake := loadTokenTable(t, srv, token(srv.SecretKey, expired), token(srv.SecretKey, valid))
	for _, name := range []string{"a", "b", "c"} {
		if err := tbl.FS.WriteIfAbsent(ctx, fileio.Join(tbl.Path, name), []byte(name)); err != nil {
			t.Fatalf("write %s with the vended credentials: %v", name, err)
		}
	}
	if n := fake.tokenGets(); n != 2 {
		t.Errorf("%d token requests, want 2 (LoadTable's, expired at once, and its replacement, kept)", n)
	}
	if b, err := tbl.FS.ReadFile(ctx, fileio.Join(tbl.Path, "c")); err != nil || string(b) != "c" {
		t.Errorf("read back: %q, %v", b, err)
	}
	// A token the store refuses: the vended credentials, not others, are the ones used.
	bad, _ := loadTokenTable(t, srv, token("wrong-secret-0123456", valid))
	err := bad.FS.WriteIfAbsent(ctx, fileio.Join(bad.Path, "x"), []byte("x"))
	if err == nil {
		t.Fatal("write with a vended wrong secret succeeded: the vended credentials are not the ones used")
	}
	if strings.Contains(err.Error(), "wrong-secret-0123456") {
		t.Errorf("error leaks the vended secret: %v", err)
	}
}

// loadTokenTable serves a fake catalog vending toks for table db.t (under a fresh root of srv) and
// loads the table through it.
func loadTokenTable(t *testing.T, srv s3test.Server, toks ...map[string]any) (*table.Table, *tokenServer) {
	t.Helper()
	fake := &tokenServer{path: freshRoot(srv) + "/db.db/t", toks: toks}
	hs := httptest.NewServer(fake)
	t.Cleanup(hs.Close)
	c, err := rest.Connect(ctx, rest.Config{URI: hs.URL + "/", Token: "tk", Warehouse: "w"})
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := c.LoadTable(ctx, catalog.Identifier{Database: "db", Table: "t"})
	if err != nil {
		t.Fatal(err)
	}
	return tbl, fake
}
