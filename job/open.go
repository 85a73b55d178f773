package job

import (
	"context"
	"fmt"
	"strings"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/catalog"
)

// Where lakeload keeps its own state in a warehouse: beside the databases, under .lakeload, in
// directories no Paimon reader or orphan-file cleaner looks at.

// JobsDir is the directory of the default checkpoint stores of the jobs of table id.
func JobsDir(cat *catalog.Catalog, id catalog.Identifier) string {
	return fileio.Join(cat.Warehouse, ".lakeload", "jobs", id.Database, id.Table)
}

// StorePath is the default checkpoint store of job name of table id.
func StorePath(cat *catalog.Catalog, id catalog.Identifier, name string) string {
	return fileio.Join(JobsDir(cat, id), name)
}

// SeqReservationsDir is where every lakeload job of table id reserves its windows' sequence ranges
// (Config.SeqReservations): beside the job stores, outside every table directory.
func SeqReservationsDir(cat *catalog.Catalog, id catalog.Identifier) string {
	return fileio.Join(cat.Warehouse, ".lakeload", "tables", id.Database, id.Table)
}

// OpenStore opens the checkpoint store of the job s names: s.Checkpoint, or its default place in cat.
func (s Spec) OpenStore(cat *catalog.Catalog, id catalog.Identifier) (*checkpoint.Store, error) {
	if err := CheckName(s.Name); err != nil {
		return nil, specError{fmt.Errorf("--job: %w", err)}
	}
	if s.Checkpoint == "" {
		return checkpoint.NewStore(cat.FS, StorePath(cat, id, s.Name)), nil
	}
	fs, path, err := fileio.Open(s.Checkpoint)
	if err != nil {
		return nil, specError{fmt.Errorf("--checkpoint: %w", err)}
	}
	return checkpoint.NewStore(fs, path), nil
}

// OpenCatalog opens the filesystem catalog of s.Warehouse and parses s.TableName. A REST catalog
// needs its connection (URI, token), which a Spec does not carry: the CLI opens it.
func (s Spec) OpenCatalog() (*catalog.Catalog, catalog.Identifier, error) {
	id, err := catalog.ParseIdentifier(s.TableName)
	if err != nil {
		return nil, id, specError{fmt.Errorf("--table: %w", err)}
	}
	if s.Catalog == "rest" {
		return nil, id, invalid("job %s uses a REST catalog, which only the command line can open (--catalog rest)", s.Name)
	}
	if s.Warehouse == "" {
		return nil, id, invalid("--warehouse is required: the warehouse of table %s", s.TableName)
	}
	fs, path, err := fileio.Open(s.Warehouse)
	if err != nil {
		return nil, id, specError{fmt.Errorf("--warehouse: %w", err)}
	}
	return catalog.New(fs, path), id, nil
}

// Open validates s and opens what it names in cat (nil: OpenCatalog): the table at its latest
// schema, the checkpoint store, the file system of the input and the table's sequence
// reservations. The caller adds the run's logger, hooks, metrics and progress.
func Open(ctx context.Context, s Spec, cat *catalog.Catalog) (Config, error) {
	if err := s.Validate(); err != nil {
		return Config{}, err
	}
	var id catalog.Identifier
	var err error
	if cat == nil {
		cat, id, err = s.OpenCatalog()
	} else if id, err = catalog.ParseIdentifier(s.TableName); err != nil {
		err = specError{fmt.Errorf("--table: %w", err)}
	}
	if err != nil {
		return Config{}, err
	}
	store, err := s.OpenStore(cat, id)
	if err != nil {
		return Config{}, err
	}
	t, err := cat.LoadTable(ctx, id)
	if err != nil {
		return Config{}, err
	}
	inFS, err := s.Input.OpenFS()
	if err != nil {
		return Config{}, err
	}
	return Config{Spec: s, Table: t, Store: store, InputFS: inFS, SeqReservations: SeqReservationsDir(cat, id)}, nil
}

// OpenFS returns the FileIO that reads the input, chosen by the location of the patterns (not the
// warehouse's), so local input loads into an s3:// warehouse and s3:// input into a local one. Every
// pattern must be on that one file system (the same scheme, and for an object store the same
// bucket); nil without patterns.
func (in Input) OpenFS() (fileio.FileIO, error) {
	if len(in.From) == 0 {
		return nil, nil
	}
	for _, p := range in.From[1:] {
		if fsRoot(p) != fsRoot(in.From[0]) {
			return nil, invalid("--from %q and --from %q are on different file systems: give patterns of one location (one scheme and bucket) per job",
				fileio.RedactURL(in.From[0]), fileio.RedactURL(p))
		}
	}
	fs, _, err := fileio.Open(in.From[0])
	if err != nil {
		return nil, specError{fmt.Errorf("--from %q: %w (pass a local file or glob, or s3://bucket/prefix/*.parquet)", fileio.RedactURL(in.From[0]), err)}
	}
	return fs, nil
}

// fsRoot is the part of a location that chooses its file system: "file", or scheme://authority.
func fsRoot(loc string) string {
	scheme := fileio.Scheme(loc)
	if scheme == "file" {
		return scheme
	}
	rest := loc[len(scheme)+len("://"):]
	authority, _, _ := strings.Cut(rest, "/")
	return scheme + "://" + authority
}
