package killsoak

import (
	"path/filepath"

	"github.com/lakeload/lakeload/internal/s3test"
	"github.com/lakeload/lakeload/job"
)

// place is where a soak table and its job live: the --warehouse lakeload is given, its --checkpoint
// ("" = the default store inside the warehouse), and the store and the warehouse as local
// directories the harness and the oracles look at.
type place struct {
	wh, checkpoint string
	catalog        []string // flags that select a REST catalog (--catalog rest …); nil: the warehouse's filesystem catalog
	storeDir       string   // the checkpoint store as a local directory (file names only are read)
	oracleWH       string   // the warehouse as a local directory, for the oracles
}

// tableFlags are the flags that find the table's catalog: --warehouse (the filesystem catalog, or with a
// REST catalog the root of lakeload's job state), then the catalog's own flags.
func (pl place) tableFlags() []string {
	return append([]string{"--warehouse", pl.wh}, pl.catalog...)
}

// localPlace is a warehouse on the local disk with the job's default store.
func localPlace(wh, table string) place {
	return place{wh: wh, storeDir: jobStore(wh, soakDB, table, soakJob), oracleWH: wh}
}

// s3Place puts the warehouse and the checkpoint store on srv. The harness watches the store, and
// the oracles read the table, in the server's POSIX directory, which holds every object as a plain
// file at <dir>/<bucket>/<key>; lakeload itself reaches both only through S3.
func s3Place(srv s3test.Server, table string) place {
	local := filepath.Join(srv.Dir, srv.Bucket)
	return place{
		wh: srv.URI("wh"), checkpoint: srv.URI("ckpt", table),
		storeDir: filepath.Join(local, "ckpt", table), oracleWH: filepath.Join(local, "wh"),
	}
}

// s3Mode sizes the S3 soak: in `go test` one table (the partitioned deduplicate table fed with
// +I/-U/+U/-D rows) with kills aimed at the commit and publish points, where S3's conditional PUTs
// decide; with LAKELOAD_SOAK=long the long mode's sizes and every point.
func s3Mode() mode {
	if currentMode().name == "long" {
		m := longMode
		m.name = "s3-long"
		return m
	}
	return mode{name: "s3-short", files: 4, rowsPerFile: 12_500, rowGroup: 3_125, commitRows: 6_250,
		parallelism: 2, aimed: []int{0, 0, 5}, random: []int{0, 0, 1}, keys: 2_000}
}

// s3Points are the points the short S3 soak aims at, in order.
var s3Points = []string{job.PointInsideCommit, job.PointAfterCommit, job.PointBeforePublish, job.PointRecoveryAction, job.PointAfterPublish}
