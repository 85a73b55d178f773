package s3

import (
	"fmt"
	"strings"
	"sync"

	"github.com/lakeload/lakeload/fileio"
)

func init() {
	fileio.RegisterScheme("s3", openURI)
	fileio.RegisterScheme("s3a", openURI)
}

var (
	defaultOnce sync.Once
	defaultFS   *FS
	defaultErr  error
)

// openURI is the fileio.Open backend for s3:// and s3a:// locations. All locations share one FS
// configured from the environment (see FromEnv), built on first use.
func openURI(uri string) (fileio.FileIO, string, error) {
	if _, err := parse(uri); err != nil {
		return nil, "", err
	}
	defaultOnce.Do(func() { defaultFS, defaultErr = FromEnv() })
	if defaultErr != nil {
		return nil, "", defaultErr
	}
	return defaultFS, strings.TrimRight(uri, "/"), nil
}

// location is a parsed s3://bucket/key path.
type location struct {
	scheme string // "s3" or "s3a", as given
	bucket string
	key    string // no leading or trailing "/"; "" is the bucket root
}

// parse splits an s3://bucket/key path. The key is used verbatim (no percent decoding), so Paimon's
// escaped partition values such as dt=a%3Ab stay literal.
func parse(p string) (location, error) {
	i := strings.Index(p, "://")
	if i <= 0 {
		return location{}, fmt.Errorf("fileio/s3: %q is not an s3://bucket/key location", p)
	}
	scheme := strings.ToLower(p[:i])
	if scheme != "s3" && scheme != "s3a" {
		return location{}, fmt.Errorf("fileio/s3: %q is not an s3://bucket/key location", p)
	}
	rest := p[i+3:]
	bucket, key, _ := strings.Cut(rest, "/")
	if strings.ContainsAny(bucket, ":@") { // never in a bucket name: user info, perhaps with a secret holding '/'
		return location{}, fmt.Errorf("fileio/s3: location %q holds user info (user:password@bucket): lakeload takes no credentials "+
			"in a location; give them through the AWS credential chain (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, "+
			"an instance or web-identity role; docs/object-stores.md) and use s3://bucket/prefix", fileio.RedactURL(p))
	}
	if bucket == "" {
		return location{}, fmt.Errorf("fileio/s3: location %q names no bucket: use s3://bucket/prefix", p)
	}
	key = strings.Trim(key, "/")
	if strings.Contains(key, "//") {
		return location{}, fmt.Errorf("fileio/s3: location %q has an empty path element", p)
	}
	return location{scheme: scheme, bucket: bucket, key: key}, nil
}

// String returns the location as scheme://bucket/key.
func (l location) String() string {
	if l.key == "" {
		return l.scheme + "://" + l.bucket
	}
	return l.scheme + "://" + l.bucket + "/" + l.key
}

// dirPrefix is the key prefix of the children of l ("" for the bucket root).
func (l location) dirPrefix() string {
	if l.key == "" {
		return ""
	}
	return l.key + "/"
}

// name is the last element of the key (the bucket for the root).
func (l location) name() string {
	if l.key == "" {
		return l.bucket
	}
	return l.key[strings.LastIndex(l.key, "/")+1:]
}

// child returns the location of key k in the same bucket and scheme.
func (l location) child(k string) location {
	return location{scheme: l.scheme, bucket: l.bucket, key: strings.TrimSuffix(k, "/")}
}
