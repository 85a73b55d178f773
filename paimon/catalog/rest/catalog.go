package rest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/lakeload/lakeload/paimon/catalog"
)

// Config opens a REST catalog: Java's catalog options metastore=rest, uri, token.provider=bear, token,
// warehouse.
type Config struct {
	URI       string            // the server, e.g. http://host:8080/ (required)
	Token     string            // bearer token (token.provider=bear); empty: no Authorization header
	Warehouse string            // the catalog to use on the server (its "warehouse" option)
	Options   map[string]string // further catalog options (header.NAME=value adds an HTTP header)
	// Timeout bounds one HTTP exchange; default 2 minutes. A commit that times out has an unknown
	// outcome and is looked up, never resent.
	Timeout time.Duration
	// HTTPClient, if set, is used instead of a client built from Timeout (tests).
	HTTPClient *http.Client
}

// Catalog is a connection to a REST catalog after its config endpoint answered.
type Catalog struct {
	uri     string
	base    *url.URL
	token   string
	hc      *http.Client
	headers map[string]string
	// Options are the catalog options in force: the client's, then the server's defaults under them
	// and its overrides over them (Java RESTCatalog's merge).
	Options map[string]string
	prefix  string // URL path segment after /v1 (option "prefix"), already encoded
}

// Connect reads the server's configuration (GET /v1/config?warehouse=W) and returns the catalog.
func Connect(ctx context.Context, cfg Config) (*Catalog, error) {
	if cfg.URI == "" {
		return nil, errors.New("REST catalog: no URI given (--catalog-uri http://host:port/)")
	}
	base, err := url.Parse(cfg.URI)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("REST catalog: URI %q: give an http:// or https:// URL with a host (--catalog-uri)", cfg.URI)
	}
	if base.User != nil {
		return nil, fmt.Errorf("REST catalog: URI %s: put the credentials in --catalog-token, not in the URL", base.Redacted())
	}
	hc := cfg.HTTPClient
	if hc == nil {
		to := cfg.Timeout
		if to <= 0 {
			to = 2 * time.Minute
		}
		hc = &http.Client{Timeout: to}
	}
	c := &Catalog{uri: base.String(), base: base, token: cfg.Token, hc: hc, headers: map[string]string{}}
	if p := cfg.Options["token.provider"]; p != "" && p != "bear" {
		return nil, fmt.Errorf("REST catalog: token.provider %q is not supported (only \"bear\": a bearer token in --catalog-token)", p)
	}
	q := url.Values{}
	if cfg.Warehouse != "" {
		q.Set("warehouse", cfg.Warehouse)
	}
	var resp struct {
		Defaults  map[string]string `json:"defaults"`
		Overrides map[string]string `json:"overrides"`
	}
	c.setHeaders(cfg.Options)
	if err := c.call(ctx, http.MethodGet, "/v1/config", q, nil, &resp); err != nil {
		var he *Error
		if errors.As(err, &he) && he.Status == http.StatusUnauthorized {
			return nil, fmt.Errorf("%w: check --catalog-token", err)
		}
		return nil, fmt.Errorf("%w (is %s a Paimon REST catalog, and %q one of its warehouses?)", err, c.uri, cfg.Warehouse)
	}
	opts := map[string]string{}
	for k, v := range resp.Defaults {
		opts[k] = v
	}
	for k, v := range cfg.Options {
		opts[k] = v
	}
	if cfg.Warehouse != "" {
		opts["warehouse"] = cfg.Warehouse
	}
	for k, v := range resp.Overrides {
		opts[k] = v
	}
	c.Options = opts
	c.setHeaders(opts)
	if p := opts["prefix"]; p != "" {
		c.prefix = "/" + esc(p)
	}
	return c, nil
}

func (c *Catalog) setHeaders(opts map[string]string) {
	for k, v := range opts {
		if name, ok := strings.CutPrefix(k, "header."); ok && name != "" {
			c.headers[name] = v
		}
	}
}

// String names the catalog in messages.
func (c *Catalog) String() string {
	w := c.Options["warehouse"]
	if w == "" {
		return "REST catalog " + c.uri
	}
	return fmt.Sprintf("REST catalog %s (warehouse %s)", c.uri, w)
}

func (c *Catalog) databasesPath() string { return "/v1" + c.prefix + "/databases" }

func (c *Catalog) databasePath(db string) string { return c.databasesPath() + "/" + esc(db) }

func (c *Catalog) tablesPath(db string) string { return c.databasePath(db) + "/tables" }

func (c *Catalog) tablePath(id catalog.Identifier) string {
	return c.tablesPath(id.Database) + "/" + esc(id.Table)
}
