package s3_test

import (
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	s3fs "github.com/lakeload/lakeload/fileio/s3"
)

// The tests against a real server (conformance, races, lost responses, multipart, ranged reads,
// secrets in errors) live in internal/s3test: fileio may not import internal packages.

// TestFromEnv: the endpoint variables switch to path style (overridable), bad values name the
// variable, and fileio.Open routes s3:// to this backend against a real server.
func TestFromEnv(t *testing.T) {
	t.Setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:1")
	o, err := s3fs.EnvOptions()
	if err != nil || o.Endpoint != "http://127.0.0.1:1" || !o.PathStyle {
		t.Fatalf("EnvOptions = %+v, %v; want the endpoint with path style", o, err)
	}
	t.Setenv("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:2")
	t.Setenv(s3fs.EnvPathStyle, "false")
	if o, err = s3fs.EnvOptions(); err != nil || o.Endpoint != "http://127.0.0.1:2" || o.PathStyle {
		t.Fatalf("EnvOptions = %+v, %v; want the S3-specific endpoint, virtual-hosted", o, err)
	}
	for _, kv := range [][2]string{{s3fs.EnvPathStyle, "maybe"}, {s3fs.EnvPartSizeMB, "1"}, {s3fs.EnvMaxAttempts, "0"}} {
		t.Run(kv[0], func(t *testing.T) {
			t.Setenv(kv[0], kv[1])
			if _, err := s3fs.EnvOptions(); err == nil || !strings.Contains(err.Error(), kv[0]) {
				t.Fatalf("%s=%s: err = %v, want an error naming the variable", kv[0], kv[1], err)
			}
		})
	}
}

// TestCredentialsInLocationsRefused (issue 14, finding 8): an s3:// location with user info (even
// with a secret key holding '/') and an endpoint URL with user info, a query or a fragment are
// refused with a hint to use the AWS credential chain, and the secret never appears in the error.
// Before, s3://user:pw@bucket was taken as a bucket named "user:pw@bucket" and echoed in every error.
func TestCredentialsInLocationsRefused(t *testing.T) {
	for _, loc := range []string{"s3://user:s3cr3t@bucket/wh", "s3a://AKID:s3cr3t/x+y@bucket/wh", "s3://s3cr3t@bucket"} {
		_, _, err := fileio.Open(loc)
		if err == nil || strings.Contains(err.Error(), "s3cr3t") || !strings.Contains(err.Error(), "AWS_ACCESS_KEY_ID") ||
			!strings.Contains(err.Error(), "REDACTED@bucket") {
			t.Errorf("fileio.Open(%q): %v", loc, err)
		}
	}
	for _, ep := range []string{"http://127.0.0.1:1/?token=s3cr3t", "http://u:s3cr3t@127.0.0.1:1", "https://h/#s3cr3t", "ftp://h"} {
		t.Setenv("AWS_ENDPOINT_URL", ep)
		_, err := s3fs.EnvOptions()
		if err == nil || strings.Contains(err.Error(), "s3cr3t") || !strings.Contains(err.Error(), "AWS_ENDPOINT_URL") {
			t.Errorf("AWS_ENDPOINT_URL=%s: %v", ep, err)
		}
	}
}
