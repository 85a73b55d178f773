package lint

// The picture of lakeload's packages, bottom to top (docs/design.md, "Packages and the import
// direction"):
//
//	cmd → job → {job/task, job/plan, job/seqreserve} → {checkpoint, source} → paimon/{catalog, compact, maintain} → paimon/{read, write}
//	  → paimon/commit → paimon/{index, table} → paimon/{format, mergetree} → paimon/arrowconv
//	  → paimon/spec → fileio
//
// It is three tables. layers puts every project package in exactly one row, which names all it
// may import. nevers states the directions that must never appear, so widening a layer cannot
// quietly open one. exceptions lists the edges that break the target picture today, each with
// the finding that removes it; the lint fails on any edge not listed, and on a listed edge the
// code no longer has, so the list only shrinks.
//
// Patterns are module-relative: "x/..." is x and everything below it, "*" is every package.
// Third-party and standard-library imports are not constrained here.

// layer is one row of the picture: the packages from (but not except) may import only allow
// (nil: anything), besides themselves. Their tests may import testAllow (nil: the same as allow).
type layer struct {
	from, except     []string
	allow, testAllow []string
	why              string
}

// never forbids the packages from (but not except) to import deny, unless the import also
// matches denyBut. prodOnly rules leave the package's tests free.
type never struct {
	from, except  []string
	deny, denyBut []string
	prodOnly      bool
	why           string
}

// exception is one import, from importer to imported exactly, that today's code has against the
// picture; it is allowed, in production code and tests, until the finding that names it lands.
type exception struct{ importer, imported, why string }

// harnesses are test-only packages that exercise the whole stack, like cmd does; nothing imports them.
var harnesses = []string{"internal/compat", "internal/killsoak", "internal/sim", "internal/loadtest", "internal/sweep"}

// tableTests is what the tests of the table layer may import: they write a table and read it
// back, so they reach across the layer (and use internal/tamper), but never above paimon.
var tableTests = []string{"paimon/...", "fileio/...", "internal/..."}

var layers = []layer{
	{from: []string{"fileio/..."}, allow: []string{"fileio/..."},
		why: "fileio is the storage seam at the bottom"},
	{from: []string{"metrics/..."}, allow: []string{"metrics/..."},
		why: "metrics is a standard-library-only leaf that job and cmd use"},
	{from: []string{"codec/..."}, allow: []string{"codec/..."},
		why: "codecs decode file formats from bytes: leaves that know nothing of Paimon, inputs or storage, so the sink's readers and the inputs' readers share them"},
	{from: []string{"paimon/spec/..."}, allow: []string{"paimon/spec/...", "codec/..."},
		why: "spec is the pure on-disk vocabulary: no I/O, no engine"},
	{from: []string{"paimon/arrowconv"}, allow: []string{"paimon/spec/..."},
		why: "the Paimon↔Arrow mapping knows only the vocabulary"},
	{from: []string{"paimon/format/...", "paimon/mergetree/..."},
		allow: []string{"paimon/format/...", "paimon/mergetree/...", "paimon/arrowconv", "paimon/spec/...", "fileio/...", "codec/..."},
		why:   "data-file formats and merge engines sit just above arrowconv, spec, codecs and fileio"},

	// The table layer, one row a package, so each edge inside it is visible. These rows hold the
	// production imports; tests may import tableTests.
	{from: []string{"paimon/table/..."}, allow: []string{"paimon/table/...", "paimon/spec/...", "fileio/..."}, testAllow: tableTests,
		why: "a table handle stands on spec and fileio alone"},
	{from: []string{"paimon/index"}, allow: []string{"paimon/table", "paimon/spec/...", "fileio/..."}, testAllow: tableTests,
		why: "the bucket index reads and writes index files of a table"},
	{from: []string{"paimon/commit"}, allow: []string{"paimon/index", "paimon/table", "paimon/spec/...", "fileio/..."}, testAllow: tableTests,
		why: "the committer turns commit messages into snapshots; it neither reads rows nor writes data files"},
	{from: []string{"paimon/read"}, testAllow: tableTests,
		allow: []string{"paimon/format/...", "paimon/arrowconv", "paimon/mergetree", "paimon/table", "paimon/spec/...", "fileio/..."},
		why:   "the reader plans scans and reads data files"},
	{from: []string{"paimon/write"}, testAllow: tableTests,
		allow: []string{"paimon/format/...", "paimon/arrowconv", "paimon/mergetree", "paimon/index", "paimon/table", "paimon/spec/...", "fileio/..."},
		why:   "the writer turns batches into data files and commit messages"},
	{from: []string{"paimon/compact"}, testAllow: tableTests,
		allow: []string{"paimon/read", "paimon/write", "paimon/commit", "paimon/index", "paimon/mergetree", "paimon/table", "paimon/spec/...", "fileio/..."},
		why:   "compaction reads runs, rewrites them and commits the result"},
	{from: []string{"paimon/maintain"}, allow: []string{"paimon/index", "paimon/table", "paimon/spec/...", "fileio/..."}, testAllow: tableTests,
		why: "maintenance reads metadata and deletes files; it writes no rows"},
	{from: []string{"paimon/catalog/..."}, allow: []string{"paimon/catalog/...", "paimon/table", "paimon/spec/...", "fileio/..."}, testAllow: tableTests,
		why: "a catalog names and opens tables"},

	{from: []string{"source/..."}, allow: []string{"source/...", "paimon/spec", "paimon/arrowconv", "fileio/...", "codec/..."},
		why: "source shapes input like the table: it needs the types (spec) and their Arrow form (arrowconv), and decodes input formats with the codecs, nothing of the engine"},
	{from: []string{"checkpoint/..."}, allow: []string{"checkpoint/...", "paimon/spec/...", "fileio/..."},
		testAllow: []string{"checkpoint/...", "paimon/spec/...", "fileio/...", "internal/datadriven"},
		why:       "checkpoint is the recovery core: a journal on fileio, in spec's vocabulary; its decision tables are data-driven tests"},
	{from: []string{"job/plan"}, testAllow: []string{"job/plan", "checkpoint/...", "source/...", "paimon/...", "fileio/...", "internal/..."},
		allow: []string{"checkpoint/...", "source/...", "paimon/format/...", "paimon/spec/...", "fileio/..."},
		why:   "planning reads the input's files and the store's state and writes nothing: no engine, no tasks, no driver"},
	{from: []string{"job/task"}, testAllow: []string{"job/task", "checkpoint/...", "source/...", "paimon/...", "fileio/...", "metrics/...", "internal/..."},
		allow: []string{"checkpoint/...", "source/...", "paimon/write", "paimon/table", "paimon/spec/...", "fileio/...", "metrics/..."},
		why:   "a task is plain data that runs anywhere: it writes rows (paimon/write) and stores its result, and knows nothing of the driver"},
	{from: []string{"job/seqreserve"}, testAllow: []string{"job/seqreserve", "paimon/...", "fileio/...", "internal/..."},
		allow: []string{"paimon/table", "paimon/spec/...", "fileio/..."},
		why:   "the table's shared sequence-range reservations are records on fileio beside a table: no driver, no tasks, no plan"},
	{from: []string{"job/..."}, except: []string{"job/plan", "job/task", "job/seqreserve"},
		allow: []string{"job/...", "checkpoint/...", "source/...", "paimon/...", "fileio/...", "metrics/...", "internal/..."},
		why:   "job drives everything below it"},
	{from: []string{"internal/..."}, except: harnesses, allow: []string{"internal/...", "paimon/...", "fileio/...", "metrics/..."},
		why: "internal helpers serve the library layers"},
	{from: harnesses, why: "the harnesses drive the whole stack, like cmd"},
	{from: []string{"bench/..."}, why: "benchmarks sit at the top, beside cmd"},
	{from: []string{"cmd/..."}, why: "cmd is the top layer"},
}

var nevers = []never{
	{from: []string{"codec/..."}, deny: []string{"paimon/...", "source/...", "fileio/...", "checkpoint/...", "job/...", "metrics/...", "internal/..."},
		why: "a codec is a leaf: it decodes bytes, for the sink and the inputs alike"},
	{from: []string{"paimon/..."}, deny: []string{"job/...", "checkpoint/...", "source/...", "cmd/..."},
		why: "paimon is a library; the loader is built on top of it"},
	{from: []string{"paimon/spec/..."}, deny: []string{"paimon/...", "fileio/..."}, denyBut: []string{"paimon/spec/..."},
		why: "spec is pure vocabulary"},
	{from: []string{"fileio/..."}, deny: []string{"paimon/..."}, why: "fileio knows nothing of Paimon"},
	{from: []string{"checkpoint/..."}, deny: []string{"job/...", "source/...", "paimon/..."}, denyBut: []string{"paimon/spec/..."},
		why: "the recovery core does not depend on the engine or the inputs it records"},
	{from: []string{"source/..."}, deny: []string{"paimon/...", "checkpoint/...", "job/..."}, denyBut: []string{"paimon/spec", "paimon/arrowconv"},
		why: "source reads inputs; it knows the table's types, not the engine"},
	{from: []string{"paimon/commit"}, deny: []string{"paimon/read", "paimon/write", "paimon/compact"}, prodOnly: true,
		why: "the committer sits below reading, writing and compaction"},
	{from: []string{"paimon/read"}, deny: []string{"paimon/write", "paimon/compact"}, prodOnly: true,
		why: "reading never writes"},
	{from: []string{"paimon/write"}, deny: []string{"paimon/read", "paimon/compact"}, prodOnly: true,
		why: "writing never reads rows back; compaction, above both, does"},
	{from: []string{"internal/..."}, except: harnesses, deny: []string{"job/...", "checkpoint/...", "source/...", "cmd/..."},
		why: "internal helpers serve the library layers"},
	{from: []string{"job/task"}, deny: []string{"job", "job/plan", "job/temporal/..."},
		why: "a task knows nothing of the driver, the plan or the remote executor that sends it"},
	{from: []string{"job/plan"}, deny: []string{"job", "job/task", "job/temporal/...", "paimon/write", "paimon/commit"},
		why: "planning sits below the tasks and the driver: it decides what to read, never writes or commits"},
	{from: []string{"job/seqreserve"}, deny: []string{"job", "job/task", "job/plan", "job/temporal/..."},
		why: "a reservation knows nothing of the driver that asks for it, its tasks or its plan"},
	{from: []string{"*"}, except: append([]string{"job/...", "cmd/..."}, harnesses...), deny: []string{"job/..."},
		why: "only job and cmd (and the test harnesses) may import job"},
	{from: []string{"*"}, except: []string{"cmd/..."}, deny: []string{"cmd/..."},
		why: "nothing may import cmd"},
}

// exceptions lists edges that break the picture, each with the finding that removes it; it is
// empty since issue 17 landed, and never grows.
var exceptions = []exception{}

// goroutineFree are the packages whose production code starts no goroutine (no go statement, no
// errgroup): only job starts goroutines (docs/design.md), so a library layer never runs code the
// loader's cancellation and bounds do not see. job/plan is planning, done on the driver's goroutine;
// job/seqreserve reserves on the goroutine of the driver that asks.
// Inside job, the bounded-parallel loops are job/task's RunAll; job itself starts only the lease
// renewal and the background compaction, job/task the read-ahead readers (ReadInOrder).
var goroutineFree = []string{"fileio/...", "metrics/...", "paimon/...", "source/...", "checkpoint/...", "job/plan/...", "job/seqreserve/..."}

// goroutineFreeExcept are test-support packages below job that run FileIO implementations
// concurrently on purpose.
var goroutineFreeExcept = []string{"fileio/fiotest"}
