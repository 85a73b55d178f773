package compat

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/local"
	s3fs "github.com/lakeload/lakeload/fileio/s3"
	"github.com/lakeload/lakeload/internal/s3test"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/table"
)

// storage is where a test's warehouse lives: lakeload reaches it at wh through fs, the oracles at
// localWH. On S3 (versitygw, internal/s3test) localWH is the server's POSIX directory, which holds
// every object as a plain file with the exact bytes lakeload PUT: the Java oracle's paimon-bundle
// has no S3 FileIO on its class path and the pypaimon oracle resolves tables as local paths, so the
// oracles read the objects from there; lakeload itself reads and writes only through S3.
type storage struct {
	name    string
	fs      fileio.FileIO
	wh      string
	localWH string
	srv     *s3test.Server // nil for the local disk
}

// tablePath is db.db/name in the warehouse as lakeload addresses it.
func (s storage) tablePath(name string) string { return fileio.Join(s.wh, "db.db", name) }

// oraclePath is the same table as a local directory, for the oracles.
func (s storage) oraclePath(name string) string { return tablePath(s.localWH, name) }

// localStorage is a fresh warehouse on the local disk.
func localStorage(t *testing.T) storage {
	wh := t.TempDir()
	return storage{name: "local", fs: local.New(), wh: wh, localWH: wh}
}

// s3Storage starts a versitygw (skipping t without it, unless LAKELOAD_REQUIRE_S3=1) and returns a
// warehouse s3://<bucket>/wh on it.
func s3Storage(t *testing.T) storage {
	t.Helper()
	srv := s3test.Start(t)
	f, err := s3fs.New(context.Background(), s3fs.Options{
		Endpoint: srv.Endpoint, PathStyle: true, Region: s3test.Region,
		Credentials: credentials.NewStaticCredentialsProvider(srv.AccessKey, srv.SecretKey, ""),
	})
	if err != nil {
		t.Fatal(err)
	}
	return storage{name: "s3", fs: f, wh: srv.URI("wh"), localWH: filepath.Join(srv.Dir, srv.Bucket, "wh"), srv: &srv}
}

// newTableOn creates db.name in s's warehouse and returns it.
func newTableOn(t *testing.T, s storage, name string, d tableDef) *table.Table {
	t.Helper()
	ctx := context.Background()
	cat := catalog.New(s.fs, s.wh)
	id := catalog.Identifier{Database: "db", Table: name}
	if err := cat.CreateTable(ctx, id, d.schema(t), false); err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// uploadTree copies the local directory dir into the server under key prefix with plain PutObjects
// of the raw SDK client (not lakeload's writer), as `aws s3 cp --recursive` would.
func uploadTree(t *testing.T, srv s3test.Server, dir, prefix string) {
	t.Helper()
	c := srv.Client()
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		_, err = c.PutObject(context.Background(), &s3.PutObjectInput{
			Bucket: &srv.Bucket, Key: aws.String(prefix + "/" + filepath.ToSlash(rel)), Body: bytes.NewReader(data),
		})
		return err
	})
	if err != nil {
		t.Fatalf("upload %s to s3://%s/%s: %v", dir, srv.Bucket, prefix, err)
	}
	if n == 0 {
		t.Fatalf("upload %s: no files", dir)
	}
}

// forEachStorage runs body as the subtests "local" and "s3", each on a fresh warehouse.
func forEachStorage(t *testing.T, body func(t *testing.T, s storage)) {
	for _, st := range []struct {
		name string
		open func(*testing.T) storage
	}{{"local", localStorage}, {"s3", s3Storage}} {
		t.Run(st.name, func(t *testing.T) { body(t, st.open(t)) })
	}
}

// optionalS3 is s3Storage for tests whose local part must run without the server: ok is false
// (and the reason logged) when versitygw is not installed and LAKELOAD_REQUIRE_S3 is not 1.
func optionalS3(t *testing.T) (s storage, ok bool) {
	t.Helper()
	if _, err := s3test.Binary(); err != nil && os.Getenv(s3test.EnvRequire) != "1" {
		t.Logf("S3 part skipped: %v", err)
		return storage{}, false
	}
	return s3Storage(t), true
}

// copyToS3 uploads the local table directory wh/db.db/name into st and opens it there.
func copyToS3(t *testing.T, st storage, wh, name string) *table.Table {
	t.Helper()
	uploadTree(t, *st.srv, tablePath(wh, name), "wh/db.db/"+name)
	tbl, err := table.Open(context.Background(), st.fs, st.tablePath(name), "db."+name)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}
