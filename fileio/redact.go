package fileio

import "strings"

// Redacted replaces the secret parts of a URL in RedactURL's results.
const Redacted = "REDACTED"

// RedactURL returns loc fit for an error message or a log line: the user info of a URL (anything
// before '@' in its authority, e.g. "user:password@") becomes REDACTED@, and the query string and
// fragment of a URL of a scheme with queries (http, https and any scheme other than s3, s3a and
// file, whose keys and paths are taken verbatim and may hold '?', a glob character) become
// REDACTED. A bucket never holds ':' or '@', so in an s3:// or s3a:// location whose first element
// does, everything up to the last '@' is user info (an AWS secret key may hold '/'). Plain paths
// are returned unchanged.
func RedactURL(loc string) string {
	i := strings.Index(loc, "://")
	if i <= 0 || !validScheme(loc[:i]) {
		return loc
	}
	scheme, rest := strings.ToLower(loc[:i]), loc[i+3:]
	verbatim := scheme == "s3" || scheme == "s3a" || scheme == "file"
	end := strings.IndexAny(rest, "/?#")
	if verbatim {
		end = strings.IndexByte(rest, '/')
	}
	if end < 0 {
		end = len(rest)
	}
	if scheme == "s3" || scheme == "s3a" {
		if at := strings.LastIndexByte(rest, '@'); at > end && strings.ContainsAny(rest[:end], ":@") {
			end = strings.IndexByte(rest[at:], '/')
			if end < 0 {
				end = len(rest)
			} else {
				end += at
			}
		}
	}
	authority, tail := rest[:end], rest[end:]
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		authority = Redacted + authority[at:]
	}
	if !verbatim {
		if q := strings.IndexAny(tail, "?#"); q >= 0 {
			tail = tail[:q+1] + Redacted
		}
	}
	return loc[:i+3] + authority + tail
}

// RedactText returns s with every URL in it (scheme://… up to white space, a quote, a backtick or
// an angle bracket) passed through RedactURL: for messages that embed URLs of other layers, such as
// an HTTP client's `Get "http://host/…?X-Amz-…"` or an SDK's endpoint error.
func RedactText(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "://")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		start := i
		for start > 0 && isSchemeChar(s[start-1]) {
			start--
		}
		end := i + 3
		for end < len(s) && !strings.ContainsRune(" \t\r\n\"'`<>", rune(s[end])) {
			end++
		}
		b.WriteString(s[:start])
		b.WriteString(RedactURL(s[start:end]))
		s = s[end:]
	}
}

func isSchemeChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'
}

// RedactErr wraps err so that its message is RedactText of err's; errors.Is and errors.As see err.
func RedactErr(err error) error {
	if err == nil {
		return nil
	}
	return redactedError{err}
}

type redactedError struct{ err error }

func (e redactedError) Error() string { return RedactText(e.err.Error()) }
func (e redactedError) Unwrap() error { return e.err }
