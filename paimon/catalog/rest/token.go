package rest

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/s3"
	"github.com/lakeload/lakeload/paimon/catalog"
)

// optDataTokens is the catalog option (Java RESTTokenFileIO.DATA_TOKEN_ENABLED) under which the
// server vends object-store credentials per table through GET …/tables/{t}/token.
const optDataTokens = "data-token.enabled"

// tokenRefreshMargin is how long before a data token's expiry it is replaced (Java and pypaimon:
// RESTApi.TOKEN_EXPIRATION_SAFE_TIME_MILLIS); for a shorter-lived token, half its lifetime.
const tokenRefreshMargin = time.Hour

// dataTokens reports whether the catalog's options enable data tokens.
func (c *Catalog) dataTokens() bool {
	return strings.EqualFold(strings.TrimSpace(c.Options[optDataTokens]), "true")
}

// dataToken is a GET …/tables/{t}/token answer.
type dataToken struct {
	Token     map[string]string `json:"token"`
	ExpiresMs int64             `json:"expiresAtMillis"` // Java's GetTableTokenResponse
	ExpiresAt int64             `json:"expiresAt"`       // the OpenAPI spec's name of the same field
}

func (t *dataToken) expires() time.Time {
	ms := t.ExpiresMs
	if ms == 0 {
		ms = t.ExpiresAt
	}
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

// loadToken reads the table's data token.
func (c *Catalog) loadToken(ctx context.Context, id catalog.Identifier) (*dataToken, error) {
	var t dataToken
	if err := c.call(ctx, http.MethodGet, c.tablePath(id)+"/token", nil, nil, &t); err != nil {
		return nil, fmt.Errorf("data token of %s (%s=true): %w", id, optDataTokens, err)
	}
	return &t, nil
}

// The token keys read for S3, in order of preference: Java's S3 FileIO (fs.s3a.* via Hadoop, s3.*)
// and pypaimon's PyArrowFileIO (fs.s3.accessKeyId, and s3./s3a./fs.s3./fs.s3a. with - or .).
var (
	s3AccessKeyKeys = append([]string{"fs.s3.accessKeyId"}, s3KeyVariants("access-key", "access.key")...)
	s3SecretKeys    = append([]string{"fs.s3.accessKeySecret"}, s3KeyVariants("secret-key", "secret.key")...)
	s3SessionKeys   = append([]string{"fs.s3.securityToken"}, s3KeyVariants("session-token", "session.token", "security-token", "security.token")...)
	s3EndpointKeys  = append([]string{"fs.s3.endpoint"}, s3KeyVariants("endpoint")...)
	s3RegionKeys    = append([]string{"fs.s3.region"}, s3KeyVariants("region")...)
	s3PathStyleKeys = s3KeyVariants("path-style-access", "path.style.access")
)

func s3KeyVariants(names ...string) []string {
	var out []string
	for _, p := range []string{"s3.", "s3a.", "fs.s3.", "fs.s3a."} {
		for _, n := range names {
			out = append(out, p+n)
		}
	}
	return out
}

func firstKey(m map[string]string, keys []string) string {
	for _, k := range keys {
		if v := strings.TrimSpace(m[k]); v != "" {
			return v
		}
	}
	return ""
}

// credentials turns the token into S3 credentials that the SDK's cache replaces in time: their
// Expires is the token's expiry minus the refresh margin.
func (t *dataToken) credentials(id catalog.Identifier, fetched time.Time) (aws.Credentials, error) {
	ak, sk := firstKey(t.Token, s3AccessKeyKeys), firstKey(t.Token, s3SecretKeys)
	if ak == "" || sk == "" {
		keys := make([]string, 0, len(t.Token))
		for k := range t.Token {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return aws.Credentials{}, fmt.Errorf("data token of %s holds no S3 access key and secret (keys: %s; want e.g. fs.s3a.access-key and fs.s3a.secret-key)",
			id, strings.Join(keys, ", "))
	}
	cr := aws.Credentials{AccessKeyID: ak, SecretAccessKey: sk, SessionToken: firstKey(t.Token, s3SessionKeys),
		Source: "Paimon REST catalog data token"}
	if exp := t.expires(); !exp.IsZero() {
		margin := min(tokenRefreshMargin, exp.Sub(fetched)/2)
		cr.CanExpire, cr.Expires = true, exp.Add(-max(margin, 0))
	}
	return cr, nil
}

// tokenCredentials is the aws.CredentialsProvider of one table's data tokens: the first token is
// the one LoadTable fetched, every later one a new GET …/token.
type tokenCredentials struct {
	c  *Catalog
	id catalog.Identifier

	mu    sync.Mutex
	first *dataToken
	now   func() time.Time
}

func (p *tokenCredentials) Retrieve(ctx context.Context) (aws.Credentials, error) {
	p.mu.Lock()
	t := p.first
	p.first = nil
	p.mu.Unlock()
	fetched := p.now()
	if t == nil {
		var err error
		if t, err = p.c.loadToken(ctx, p.id); err != nil {
			return aws.Credentials{}, err
		}
	}
	return t.credentials(p.id, fetched)
}

// tableFS opens the file system of a table at path. With data tokens enabled and an s3:// (s3a://)
// path it is an S3 file system of its own whose credentials are the table's vended token (refreshed
// before it expires), endpoint, region and path style the token's when it names them, else the
// environment's (fileio/s3.EnvOptions). Other schemes (local paths) take no credentials and are
// opened as usual.
func (c *Catalog) tableFS(ctx context.Context, id catalog.Identifier, path string) (fileio.FileIO, string, error) {
	scheme := fileio.Scheme(path)
	if !c.dataTokens() || (scheme != "s3" && scheme != "s3a") {
		return fileio.Open(path)
	}
	tok, err := c.loadToken(ctx, id)
	if err != nil {
		return nil, "", err
	}
	p := &tokenCredentials{c: c, id: id, first: tok, now: time.Now}
	if _, err := tok.credentials(id, p.now()); err != nil {
		return nil, "", err
	}
	o, err := s3.EnvOptions()
	if err != nil {
		return nil, "", err
	}
	if e := firstKey(tok.Token, s3EndpointKeys); e != "" {
		if !strings.Contains(e, "://") {
			e = "https://" + e // Hadoop's fs.s3a.endpoint is often a bare host
		}
		o.Endpoint, o.PathStyle = e, true
	}
	if r := firstKey(tok.Token, s3RegionKeys); r != "" {
		o.Region = r
	}
	if v := firstKey(tok.Token, s3PathStyleKeys); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, "", fmt.Errorf("data token of %s: path-style access %q is not true or false", id, v)
		}
		o.PathStyle = b
	}
	o.Credentials = aws.NewCredentialsCache(p)
	fs, err := s3.New(ctx, o)
	if err != nil {
		return nil, "", fmt.Errorf("data token of %s: %w", id, err)
	}
	return fs, strings.TrimRight(path, "/"), nil
}
