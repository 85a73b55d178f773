package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestCLICredentialsInURLs (issue 14, finding 8): s3://user:password@bucket is refused (exit 2) with
// a hint to use the AWS credential chain, an endpoint URL's token (AWS_ENDPOINT_URL with a query)
// is refused, and no password, secret key or token appears in any message: errors and log lines
// show URLs with their user info and query redacted. Before, the password was echoed (also
// URL-escaped, in the SDK's request URL) and the endpoint's query string quoted verbatim.
func TestCLICredentialsInURLs(t *testing.T) {
	const secret = "pw-s3cr3t-7d1f"
	wh, in := t.TempDir(), t.TempDir()
	ok(t, cmdArgs([]string{"table", "create"}, tbl(wh, "db.t", "--column", "k INT"))...)
	from := writeFile(t, in, "in.csv", "k\n1\n")
	check := func(what string, code int, stderr string, want ...string) {
		t.Helper()
		if code != exitUsage {
			t.Errorf("%s: exit %d, want %d\n%s", what, code, exitUsage, stderr)
		}
		if strings.Contains(stderr, secret) || strings.Contains(stderr, strings.ReplaceAll(secret, "-", "%2D")) {
			t.Errorf("%s: the secret is in the output:\n%s", what, stderr)
		}
		for _, w := range want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: output does not say %q:\n%s", what, w, stderr)
			}
		}
	}
	for _, loc := range []string{"s3://AKID:" + secret + "@bucket/wh", "s3://AKID:" + secret + "/x@bucket/wh"} {
		r := lakeload(t, cmdArgs([]string{"scan"}, tbl(loc, "db.t"))...)
		check("--warehouse "+loc, r.code, r.stderr, "--warehouse", "s3://REDACTED@bucket/wh", "AWS_ACCESS_KEY_ID", "credential chain")
		r = lakeload(t, cmdArgs([]string{"load"}, tbl(wh, "db.t", "--from", from, "--job", "j", "--checkpoint", loc))...)
		check("--checkpoint "+loc, r.code, r.stderr, "--checkpoint", "REDACTED@bucket", "credential chain")
	}
	r := lakeload(t, cmdArgs([]string{"scan"}, tbl("https://u:"+secret+"@host/wh?sig="+secret, "db.t"))...)
	check("--warehouse https://…", r.code, r.stderr, "https://REDACTED@host/wh?REDACTED", "not supported")

	// The endpoint is read by a fresh process (fileio/s3 reads the environment once).
	_, stderr, code := runChild(t, []string{"AWS_ENDPOINT_URL=http://127.0.0.1:1/?token=" + secret, "AWS_ACCESS_KEY_ID=x",
		"AWS_SECRET_ACCESS_KEY=y", "LAKELOAD_S3_MAX_ATTEMPTS=1"},
		cmdArgs([]string{"load"}, tbl(wh, "db.t", "--from", "s3://bucket/in/*.csv", "--job", "j", "--log-format", "json"))...)
	if code == 0 || strings.Contains(stderr, secret) || !strings.Contains(stderr, "http://127.0.0.1:1/?REDACTED") ||
		!strings.Contains(stderr, "AWS_ENDPOINT_URL") {
		t.Errorf("load with a token in AWS_ENDPOINT_URL: exit %d\n%s", code, stderr)
	}
}

// TestLogRedactsURLs: the load's logger (text and JSON) redacts URLs in messages, string values and
// errors.
func TestLogRedactsURLs(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		var b bytes.Buffer
		newLogger(&b, format).Warn("retrying http://h/?token=T0K3N", "url", "https://u:P4SS@h/x", "err",
			errors.New(`Get "http://h/k?X-Amz-Signature=S1G"`))
		for _, s := range []string{"T0K3N", "P4SS", "S1G"} {
			if strings.Contains(b.String(), s) {
				t.Errorf("%s log leaks %s: %s", format, s, b.String())
			}
		}
		if strings.Count(b.String(), "REDACTED") != 3 {
			t.Errorf("%s log: %s", format, b.String())
		}
	}
}
