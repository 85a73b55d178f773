package job

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/lakeload/lakeload/checkpoint"
	s3fs "github.com/lakeload/lakeload/fileio/s3"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/internal/s3test"
	"github.com/lakeload/lakeload/paimon/catalog"
)

// newS3FS is a fileio/s3 FS on srv with its root keys; adjust (may be nil) changes the options.
func newS3FS(t testing.TB, srv s3test.Server, adjust func(*s3fs.Options)) *s3fs.FS {
	t.Helper()
	o := s3fs.Options{
		Endpoint: srv.Endpoint, PathStyle: true, Region: s3test.Region,
		Credentials: credentials.NewStaticCredentialsProvider(srv.AccessKey, srv.SecretKey, ""),
	}
	if adjust != nil {
		adjust(&o)
	}
	f, err := s3fs.New(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

var s3EnvSeq atomic.Int64

// s3LoadEnvs returns a newLoadEnv for srv: each env gets a fresh prefix holding its warehouse and
// its checkpoint store, both reached only through fileio/s3 (the input stays local). The oracles
// read the table from the server's POSIX directory, which holds the objects as plain files.
func s3LoadEnvs(srv s3test.Server) func(testing.TB, loadtest.Fixture, string) *loadEnv {
	return func(t testing.TB, fx loadtest.Fixture, glob string) *loadEnv {
		t.Helper()
		f := newS3FS(t, srv, nil)
		prefix := fmt.Sprintf("env%04d", s3EnvSeq.Add(1))
		wh := srv.URI(prefix, "wh")
		ctx := context.Background()
		if err := catalog.New(f, wh).CreateTable(ctx, fx.Ident(), fx.Schema(t), false); err != nil {
			t.Fatalf("create table %s on S3: %v", fx.Name, err)
		}
		cfs := &loadtest.CrashFS{FileIO: f, Match: func(p string) bool { return strings.HasSuffix(p, "/snapshot/LATEST") }}
		tbl, err := catalog.New(cfs, wh).LoadTable(ctx, fx.Ident())
		if err != nil {
			t.Fatal(err)
		}
		return &loadEnv{fx: fx, wh: wh, glob: glob, tbl: tbl, fs: cfs,
			store:    checkpoint.NewStore(f, srv.URI(prefix, "store")),
			oracleWH: filepath.Join(srv.Dir, srv.Bucket, prefix, "wh")}
	}
}
