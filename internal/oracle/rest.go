package oracle

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// RESTCatalog names a Paimon REST catalog for the oracles' REST clients (Java RESTCatalog, pypaimon's
// REST catalog): options metastore=rest, uri, token.provider=bear, token, warehouse.
type RESTCatalog struct {
	URI, Token, Warehouse string
}

func (r RESTCatalog) json() map[string]string {
	return map[string]string{"uri": r.URI, "token": r.Token, "warehouse": r.Warehouse}
}

// RESTRead returns the canonical rows (sorted) of table "db.t" as Java's RESTCatalog client reads it.
func (c *Client) RESTRead(cat RESTCatalog, table string) []string {
	c.t.Helper()
	var reply struct {
		Rows []string `json:"rows"`
	}
	if err := c.p.call(map[string]any{"cmd": "rest-read", "catalog": cat.json(), "table": table}, &reply); err != nil {
		c.t.Fatalf("java rest-read %s: %v", table, err)
	}
	if reply.Rows == nil {
		reply.Rows = []string{}
	}
	return reply.Rows
}

// TryRESTWrite writes rows (canonical JSON objects) to table "db.t" with one batch commit through the REST
// catalog's commit endpoint (Java's client), creating the table from spec when spec is not nil, and returns
// the latest snapshot id.
func (c *Client) TryRESTWrite(cat RESTCatalog, table string, spec *TableSpec, rows []map[string]any) (int64, error) {
	req := map[string]any{"cmd": "rest-write", "catalog": cat.json(), "table": table, "rows": rows}
	if spec != nil {
		req["spec"] = spec
	}
	var reply struct {
		Snapshot int64 `json:"snapshot"`
	}
	err := c.p.call(req, &reply)
	return reply.Snapshot, err
}

// PyRESTRead returns the canonical rows (sorted) of table "db.t" as pypaimon's REST catalog client reads
// it (oracle/py/rest_read.py), skipping or (under CI) failing t when pypaimon is not installed.
func PyRESTRead(t testing.TB, cat RESTCatalog, table string) []string {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	py, err := Python(root)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	cmd := exec.Command(py, filepath.Join(root, "oracle", "py", "rest_read.py"), "--uri", cat.URI, "--token", cat.Token,
		"--warehouse", cat.Warehouse, "--table", table)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("pypaimon REST read of %s: %v\n%s", table, err, errb.String())
	}
	lines := []string{}
	for _, l := range strings.Split(out.String(), "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// JavaJar returns the oracle jar's path ($LAKELOAD_JAVA_ORACLE when it names a jar, else
// oracle/java/target/paimon-oracle.jar of the repository) and whether it exists.
func JavaJar() (string, bool) {
	jar := os.Getenv("LAKELOAD_JAVA_ORACLE")
	if jar == "" || !strings.HasSuffix(jar, ".jar") {
		root, err := RepoRoot()
		if err != nil {
			return "", false
		}
		jar = filepath.Join(root, "oracle", "java", "target", "paimon-oracle.jar")
	}
	if abs, err := filepath.Abs(jar); err == nil {
		jar = abs
	}
	return jar, fileExists(jar)
}
