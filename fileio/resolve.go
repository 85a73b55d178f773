package fileio

import (
	"fmt"
	"strings"
	"sync"
)

// Opener builds the FileIO for a URI of one scheme and returns the path to use with it.
type Opener func(uri string) (FileIO, string, error)

var (
	schemesMu sync.RWMutex
	schemes   = map[string]Opener{}
)

// RegisterScheme makes Open route URIs of scheme (lower case, e.g. "file", "s3") to open. Backends
// call it from init, so a program must import the backend package (fileio/local for "file").
// Registering a scheme twice panics.
func RegisterScheme(scheme string, open Opener) {
	schemesMu.Lock()
	defer schemesMu.Unlock()
	scheme = strings.ToLower(scheme)
	if _, dup := schemes[scheme]; dup {
		panic("fileio: scheme " + scheme + " registered twice")
	}
	schemes[scheme] = open
}

// Open resolves a warehouse or table location to its FileIO and the path to pass to it. Plain
// paths (absolute or relative) and file: URIs are local; "s3://…" and other schemes are routed to
// their registered backend, or fail with "scheme … not supported yet".
func Open(uri string) (FileIO, string, error) {
	if uri == "" {
		return nil, "", fmt.Errorf("fileio: empty location")
	}
	scheme := Scheme(uri)
	schemesMu.RLock()
	open := schemes[scheme]
	schemesMu.RUnlock()
	if open == nil {
		if scheme == "file" {
			return nil, "", fmt.Errorf("fileio: no backend for local path %q (import github.com/lakeload/lakeload/fileio/local)", uri)
		}
		return nil, "", fmt.Errorf("fileio: scheme %s not supported yet (location %q)", scheme, RedactURL(uri))
	}
	return open(uri)
}

// Scheme returns the lower-case scheme of a location: the part before "://", else "file" (plain
// paths and Hadoop-style "file:/abs").
func Scheme(uri string) string {
	if i := strings.Index(uri, "://"); i > 0 && validScheme(uri[:i]) {
		return strings.ToLower(uri[:i])
	}
	return "file" // plain paths and file:/abs

}

// validScheme reports whether s is an RFC 3986 scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
func validScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return s != ""
}
