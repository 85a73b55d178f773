package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/lakeload/lakeload/paimon/catalog"
)

// Errors callers can test with errors.Is (besides catalog.ErrDatabaseNotExist, ErrTableNotExist,
// ErrDatabaseExist, ErrTableExist and ErrColumnExist, which the server's 404/409 answers wrap).
var (
	// ErrUnauthorized: the server refused the token (401).
	ErrUnauthorized = errors.New("REST catalog refused the token")
	// ErrForbidden: the token has no permission for the resource (403).
	ErrForbidden = errors.New("REST catalog denied permission")
	// ErrServer: the server failed (5xx) or could not be reached; for a commit the outcome is unknown.
	ErrServer = errors.New("REST catalog request failed")
)

// Error is an answer of the server other than 2xx, with the ErrorResponse it sent.
type Error struct {
	Method, Path string
	Status       int
	Message      string
	ResourceType string // DATABASE, TABLE, COLUMN, SNAPSHOT, … when the server said
	ResourceName string
}

func (e *Error) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	return fmt.Sprintf("REST catalog: %s %s: %d %s", e.Method, e.Path, e.Status, msg)
}

// Unwrap maps the answer to the catalog's errors.
func (e *Error) Unwrap() error {
	switch {
	case e.Status == http.StatusUnauthorized:
		return ErrUnauthorized
	case e.Status == http.StatusForbidden:
		return ErrForbidden
	case e.Status >= 500:
		return ErrServer
	case e.Status == http.StatusNotFound && e.ResourceType == "DATABASE":
		return catalog.ErrDatabaseNotExist
	case e.Status == http.StatusNotFound && e.ResourceType == "TABLE":
		return catalog.ErrTableNotExist
	case e.Status == http.StatusConflict && e.ResourceType == "DATABASE":
		return catalog.ErrDatabaseExist
	case e.Status == http.StatusConflict && e.ResourceType == "TABLE":
		return catalog.ErrTableExist
	case e.Status == http.StatusConflict && e.ResourceType == "COLUMN":
		return catalog.ErrColumnExist
	}
	return nil
}

type errorResponse struct {
	Message      string `json:"message"`
	ResourceType string `json:"resourceType"`
	ResourceName string `json:"resourceName"`
	Code         int    `json:"code"`
}

// call is one HTTP exchange. idempotent requests (GET) are retried on transport errors and 502/503/504
// a few times; others are sent exactly once.
func (c *Catalog) call(ctx context.Context, method, path string, query url.Values, body, out any) error {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return fmt.Errorf("REST catalog: %s %s: encode request: %w", method, path, err)
		}
	}
	u := *c.base
	u.Path = strings.TrimRight(c.base.Path, "/") + path
	u.RawPath = strings.TrimRight(c.base.EscapedPath(), "/") + path
	if len(query) > 0 {
		u.RawQuery = query.Encode()
	}
	attempts := 1
	if method == http.MethodGet {
		attempts = 4
	}
	var last error
	for a := 0; a < attempts; a++ {
		if a > 0 {
			select {
			case <-ctx.Done():
				return last
			case <-time.After(time.Duration(100<<a) * time.Millisecond):
			}
		}
		retry, err := c.exchange(ctx, method, &u, path, payload, out)
		if err == nil || !retry {
			return err
		}
		last = err
	}
	return last
}

func (c *Catalog) exchange(ctx context.Context, method string, u *url.URL, path string, payload []byte, out any) (retry bool, err error) {
	var rd io.Reader
	if payload != nil {
		rd = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return false, fmt.Errorf("REST catalog: %s %s: %w", method, path, err)
	}
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return false, fmt.Errorf("REST catalog: %s %s: %w (%w)", method, path, ctx.Err(), ErrServer)
		}
		return true, fmt.Errorf("REST catalog: %s %s: %w: %w", method, path, ErrServer, redact(err, c.token))
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return true, fmt.Errorf("REST catalog: %s %s: reading the answer: %w: %w", method, path, ErrServer, err)
	}
	if resp.StatusCode/100 != 2 {
		e := &Error{Method: method, Path: path, Status: resp.StatusCode}
		var er errorResponse
		if json.Unmarshal(b, &er) == nil {
			e.Message, e.ResourceType, e.ResourceName = er.Message, er.ResourceType, er.ResourceName
		}
		switch resp.StatusCode {
		case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout, http.StatusTooManyRequests:
			return true, e
		}
		return false, e
	}
	if out == nil || len(bytes.TrimSpace(b)) == 0 {
		return false, nil
	}
	if err := json.Unmarshal(b, out); err != nil {
		return false, fmt.Errorf("REST catalog: %s %s: answer is not the expected JSON: %w", method, path, err)
	}
	return false, nil
}

const maxResponse = 64 << 20

// redact keeps the token out of an error text (a transport error may quote a request URL or header).
func redact(err error, token string) error {
	if token == "" || !strings.Contains(err.Error(), token) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), token, "<token>"))
}

// esc encodes one path segment the way Java's RESTUtil.encodeString (URLEncoder) does; the server
// decodes it with URLDecoder.
func esc(s string) string { return url.QueryEscape(s) }
