package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/catalog/rest"
)

// catalogTokenEnv is read when --catalog-token is not given, so the token need not appear in argv.
const catalogTokenEnv = "LAKELOAD_CATALOG_TOKEN"

// catalogFlags choose the catalog: the filesystem catalog of --warehouse (default) or a Paimon REST catalog.
type catalogFlags struct {
	kind      string
	uri       string
	token     string
	warehouse string
	options   []string
}

func (f *catalogFlags) register(c *cobra.Command) {
	c.Flags().StringVar(&f.kind, "catalog", "filesystem", "catalog: filesystem (tables under --warehouse) or rest (a Paimon REST catalog server)")
	c.Flags().StringVar(&f.uri, "catalog-uri", "", "REST catalog server URL, e.g. http://host:8080/ (--catalog rest)")
	c.Flags().StringVar(&f.token, "catalog-token", "", "REST catalog bearer token (default $"+catalogTokenEnv+")")
	c.Flags().StringVar(&f.warehouse, "catalog-warehouse", "", "the REST catalog's warehouse (catalog name on the server)")
	c.Flags().StringArrayVar(&f.options, "catalog-option", nil, "REST catalog option key=value (repeatable), e.g. header.X-Tenant=t1")
}

func (f *catalogFlags) rest() bool { return f.kind == "rest" }

// check validates the combination of flags; warehouseSet tells whether --warehouse was given.
func (f *catalogFlags) check() error {
	switch f.kind {
	case "", "filesystem":
		for _, v := range []struct{ name, val string }{{"--catalog-uri", f.uri}, {"--catalog-token", f.token}, {"--catalog-warehouse", f.warehouse}} {
			if v.val != "" {
				return usageError{fmt.Errorf("%s needs --catalog rest", v.name)}
			}
		}
		if len(f.options) > 0 {
			return usageError{fmt.Errorf("--catalog-option needs --catalog rest")}
		}
		return nil
	case "rest":
		if f.uri == "" {
			return usageError{fmt.Errorf("--catalog rest needs --catalog-uri, the server's URL, e.g. http://host:8080/")}
		}
		return nil
	}
	return usageError{fmt.Errorf("--catalog %q: use filesystem or rest", f.kind)}
}

// connect opens the REST catalog.
func (f *catalogFlags) connect(ctx context.Context) (*rest.Catalog, error) {
	opts := map[string]string{}
	for _, o := range f.options {
		k, v, ok := strings.Cut(o, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, usageError{fmt.Errorf("--catalog-option %q: write it as key=value, e.g. header.X-Tenant=t1", o)}
		}
		opts[strings.TrimSpace(k)] = v
	}
	token := f.token
	if token == "" {
		token = os.Getenv(catalogTokenEnv)
	}
	c, err := rest.Connect(ctx, rest.Config{URI: f.uri, Token: token, Warehouse: f.warehouse, Options: opts})
	if err != nil {
		return nil, fmt.Errorf("--catalog-uri: %w", err)
	}
	return c, nil
}

// openREST connects to the REST catalog and places lakeload's own state (job checkpoints, sequence
// reservations: <root>/.lakeload) at --warehouse when given, else beside the table's databases: the
// table's location <root>/<db>.db/<table> gives <root>. A table that does not exist yet gives no root;
// then only creating it is possible (creating).
func (f *tableFlags) openREST(ctx context.Context, id catalog.Identifier) (*catalog.Catalog, error) {
	rc, err := f.cat.connect(ctx)
	if err != nil {
		return nil, err
	}
	if f.warehouse != "" {
		fs, p, err := fileio.Open(f.warehouse)
		if err != nil {
			return nil, usageError{fmt.Errorf("--warehouse: %w", err)}
		}
		return catalog.NewWithMetastore(fs, p, rc), nil
	}
	t, err := rc.LoadTable(ctx, id)
	if errors.Is(err, catalog.ErrTableNotExist) && f.creating {
		return catalog.NewWithMetastore(nil, "", rc), nil
	}
	if err != nil {
		return nil, err
	}
	dbDir := path.Dir(strings.TrimRight(t.Path, "/"))
	if path.Base(t.Path) != id.Table || path.Base(dbDir) != id.Database+".db" {
		return nil, usageError{fmt.Errorf("table %s is at %s, not at <root>/%s.db/%s: give --warehouse, the place where lakeload keeps its job state for this table", id, t.Path, id.Database, id.Table)}
	}
	return catalog.NewWithMetastore(t.FS, path.Dir(dbDir), rc), nil
}

// refuseForREST refuses the Temporal engine with a REST catalog (workers open tables from a warehouse
// path). Schema evolution with a REST catalog is refused by job.Spec.Validate.
func (f *catalogFlags) refuseForREST(temporal bool) error {
	if !f.rest() {
		return nil
	}
	if temporal {
		return usageError{fmt.Errorf("--temporal is not supported with --catalog rest yet: run the load in one process")}
	}
	return nil
}
