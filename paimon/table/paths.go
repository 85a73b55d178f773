package table

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/uuid"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
)

// Paths names and places the files of one table exactly as Java's FileStorePathFactory does.
// Names only need to be unique (readers take them from manifests), but the data-file extension selects the format.
type Paths struct {
	t       *Table
	uuid    string
	counter atomic.Int64
	roots   []string // t.ExternalRoots()

	mu       sync.Mutex
	partDirs map[string]string // serialized partition bytes → "k=v/" path
}

// NewPaths returns a path factory with a fresh UUID for file names.
func (t *Table) NewPaths() *Paths {
	return &Paths{t: t, uuid: uuid.NewString(), roots: t.ExternalRoots(), partDirs: map[string]string{}}
}

func (p *Paths) next() string { return strconv.FormatInt(p.counter.Add(1)-1, 10) }

// ManifestDir is <table>/manifest.
func (p *Paths) ManifestDir() string { return fileio.Join(p.t.Path, "manifest") }

// IndexDir is <table>/index.
func (p *Paths) IndexDir() string { return fileio.Join(p.t.Path, "index") }

// NewManifestName returns a fresh "manifest-<uuid>-<n>".
func (p *Paths) NewManifestName() string { return "manifest-" + p.uuid + "-" + p.next() }

// NewManifestListName returns a fresh "manifest-list-<uuid>-<n>".
func (p *Paths) NewManifestListName() string { return "manifest-list-" + p.uuid + "-" + p.next() }

// NewIndexManifestName returns a fresh "index-manifest-<uuid>-<n>".
func (p *Paths) NewIndexManifestName() string { return "index-manifest-" + p.uuid + "-" + p.next() }

// NewIndexFileName returns a fresh "index-<uuid>-<n>".
func (p *Paths) NewIndexFileName() string { return "index-" + p.uuid + "-" + p.next() }

// NewDataFileName returns a fresh data file name with the extension of the table's file format.
func (p *Paths) NewDataFileName() string {
	o := p.t.Options
	ext := "." + strings.ToLower(o.FileFormat())
	if o.FileSuffixIncludeCompression() {
		ext = "." + strings.ToLower(o.FileCompression()) + ext
	}
	return o.DataFilePrefix() + p.uuid + "-" + p.next() + ext
}

// PartitionDir renders the partition directory ("k=v/…/", "" when unpartitioned) of serialized partition bytes.
func (p *Paths) PartitionDir(partition []byte) (string, error) {
	fields := p.t.PartitionFields()
	if len(fields) == 0 {
		return "", nil
	}
	p.mu.Lock()
	dir, ok := p.partDirs[string(partition)]
	p.mu.Unlock()
	if ok {
		return dir, nil
	}
	values, err := binrow.Deserialize(typesOf(fields), partition)
	if err != nil {
		return "", fmt.Errorf("partition row: %w", err)
	}
	o := p.t.Options
	dir, err = spec.PartitionPath(fields, values, o.PartitionDefaultName(), o.PartitionLegacyName())
	if err != nil {
		return "", err
	}
	p.mu.Lock()
	p.partDirs[string(partition)] = dir
	p.mu.Unlock()
	return dir, nil
}

// BucketDir returns <table>/<partition dirs>bucket-<n>.
func (p *Paths) BucketDir(partition []byte, bucket int32) (string, error) {
	dir, err := p.PartitionDir(partition)
	if err != nil {
		return "", err
	}
	name := "bucket-" + strconv.Itoa(int(bucket))
	if bucket == -2 {
		name = "bucket-postpone"
	}
	return fileio.Join(p.t.Path, dir+name), nil
}

// DataFile returns the full path of a data file (its external path when set), resolved by the
// table's one check of metadata names (resolve): a name that is not a single path element, or an
// external path outside data-file.external-paths, is a *PathError (spec.ErrCorrupt).
func (p *Paths) DataFile(partition []byte, bucket int32, fileName string, externalPath *string) (string, error) {
	dir, err := p.BucketDir(partition, bucket)
	if err != nil {
		return "", err
	}
	return resolve(dir, fileName, externalPath, p.roots,
		"a manifest entry (bucket "+strconv.Itoa(int(bucket))+")")
}
