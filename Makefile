# lakeload developer targets:
#   build    the lakeload binary (./build/lakeload)
#   demo     load the bundled sample data into ./build/demo-warehouse and scan it
#   test     everything CI runs: vet, all Go tests (Java + pypaimon oracles required under CI), short fuzz runs, mutate-short
#   mutate   mutation tests: every mutant of internal/mutate/mutants must be killed by the fast tests (docs/testing.md)
#   fuzz     every fuzz target for FUZZTIME (default 60s) each
#   oracles  build the Java oracle jar and the pypaimon venv (oracle/README.md); golden regenerates testdata/golden
#   java-fixtures  rewrite the Java-written fixtures lakeload generates (testdata/java-written/int96_*), then golden
#   s3-server  install versitygw, the S3 server of the object-store tests (docs/object-stores.md)
#   temporal   install the Temporal CLI, whose dev server the scale-out test runs (docs/scale-out.md)
#   soak-rest      the long kill -9 soak against a Paimon REST catalog server (CI runs the short version)
#   soak-pause     the long pause soak (SIGSTOP/SIGCONT, takeovers, other writers, expiry; CI runs the short version)
#   soak-temporal  the long scale-out kill -9 soak on a Temporal dev server (CI runs the short version)
#   bench-temporal the Temporal engine's overhead against in-process loads, into bench/results (docs/scale-out.md)

SHELL := /bin/bash
GO ?= go
LAKELOAD_CACHE ?= $(HOME)/.cache/lakeload
# Python with pypaimon: $LAKELOAD_PY, else the first existing venv below, else the cache venv (created by py-oracle).
PY ?= $(or $(LAKELOAD_PY),$(firstword $(wildcard $(CURDIR)/.venv/bin/python $(LAKELOAD_CACHE)/venv/bin/python $(HOME)/.cache/lakeload-venv/bin/python)),$(LAKELOAD_CACHE)/venv/bin/python)
JAVA_ORACLE_JAR := oracle/java/target/paimon-oracle.jar
JAVA_ORACLE_JSA := oracle/java/target/paimon-oracle.jsa
JAVA_ORACLE_SRC := oracle/java/pom.xml $(shell find oracle/java/src -name '*.java' 2>/dev/null)

.PHONY: build demo oracles java-oracle py-oracle golden java-fixtures test fuzz fuzz-short vet

## oracles: build the Java oracle jar and make sure pypaimon is installed for the Python oracle
oracles: java-oracle py-oracle

java-oracle: $(JAVA_ORACLE_JAR) $(JAVA_ORACLE_JSA)

# Offline first (cached ~/.m2), then online.
$(JAVA_ORACLE_JAR): $(JAVA_ORACLE_SRC)
	cd oracle/java && (mvn -q -B -o package 2>/dev/null || mvn -q -B package)
	@touch $@

# Class-data-sharing archive for faster JVM starts (optional; see oracle/java/train-cds.sh).
$(JAVA_ORACLE_JSA): $(JAVA_ORACLE_JAR)
	oracle/java/train-cds.sh

py-oracle:
	@if ! "$(PY)" -c 'import pypaimon' 2>/dev/null; then oracle/py/setup_venv.sh "$(LAKELOAD_CACHE)/venv"; fi

## s3-server: install versitygw, the S3 server tests run (internal/s3test), into $(LAKELOAD_CACHE)/bin
VERSITYGW_VERSION := v1.8.0
.PHONY: s3-server
s3-server:
	@if [ "$$(cat $(LAKELOAD_CACHE)/bin/versitygw.version 2>/dev/null)" != "$(VERSITYGW_VERSION)" ] || [ ! -x $(LAKELOAD_CACHE)/bin/versitygw ]; then \
	  echo "GOBIN=$(LAKELOAD_CACHE)/bin $(GO) install github.com/versity/versitygw/cmd/versitygw@$(VERSITYGW_VERSION)"; \
	  GOBIN=$(LAKELOAD_CACHE)/bin $(GO) install github.com/versity/versitygw/cmd/versitygw@$(VERSITYGW_VERSION) && \
	  echo $(VERSITYGW_VERSION) > $(LAKELOAD_CACHE)/bin/versitygw.version; fi

## temporal: install the Temporal CLI (its dev server runs job/temporal's end-to-end test) into $(LAKELOAD_CACHE)/bin
TEMPORAL_CLI_VERSION := v1.5.1
.PHONY: temporal
temporal:
	@if [ "$$(cat $(LAKELOAD_CACHE)/bin/temporal.version 2>/dev/null)" != "$(TEMPORAL_CLI_VERSION)" ] || [ ! -x $(LAKELOAD_CACHE)/bin/temporal ]; then \
	  echo "GOBIN=$(LAKELOAD_CACHE)/bin $(GO) install github.com/temporalio/cli/cmd/temporal@$(TEMPORAL_CLI_VERSION)"; \
	  GOBIN=$(LAKELOAD_CACHE)/bin $(GO) install github.com/temporalio/cli/cmd/temporal@$(TEMPORAL_CLI_VERSION) && \
	  echo $(TEMPORAL_CLI_VERSION) > $(LAKELOAD_CACHE)/bin/temporal.version; fi

## golden: regenerate testdata/golden from testdata/java-written with the Java oracle (+ pypaimon comparison)
golden: oracles
	@py="$(PY)"; "$$py" -c 'import pypaimon' 2>/dev/null || py="$(LAKELOAD_CACHE)/venv/bin/python"; \
	  echo "$$py oracle/gen_golden.py"; "$$py" oracle/gen_golden.py

## java-fixtures: rewrite the fixture tables the Java oracle writes (oracle/gen_java_fixtures.py) with this
## checkout's oracle jar, then regenerate testdata/golden
java-fixtures: oracles
	@py="$(PY)"; "$$py" -c 'import pypaimon' 2>/dev/null || py="$(LAKELOAD_CACHE)/venv/bin/python"; \
	  echo "$$py oracle/gen_java_fixtures.py"; LAKELOAD_JAVA_ORACLE=$(CURDIR)/$(JAVA_ORACLE_JAR) "$$py" oracle/gen_java_fixtures.py
	$(MAKE) golden

## build: the lakeload binary
build:
	$(GO) build -o build/lakeload ./cmd/lakeload

## demo: load testdata/sample into a local warehouse and scan it
demo:
	scripts/demo.sh

vet:
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

## test: what CI runs (the oracles must be built: `make oracles`, or run .ci/run which installs everything)
test: vet
	@mkdir -p build
	set -o pipefail; LAKELOAD_PY="$(PY)" $(GO) test -count=1 ./... 2>&1 | tee build/go-test.log
	$(MAKE) fuzz-short
	$(MAKE) mutate-short
	@echo "packages: $$(grep -c '^ok ' build/go-test.log) passed, $$(grep -c '^FAIL' build/go-test.log) failed"

FUZZTIME ?= 60s
## fuzz: run every fuzz target for FUZZTIME each
fuzz:
	scripts/fuzz.sh $(FUZZTIME)

fuzz-short:
	scripts/fuzz.sh 3s

## mutate: apply every mutant of internal/mutate/mutants/*.txt (go test -overlay: the tree is never modified) and run
## its package's fast tests; fails if one survives, does not build or its snippet does not match exactly once.
## mutate-short (CI, from `make test`) runs only each mutant's killing test. MUTATE_ONLY=regexp selects mutants by id.
MUTATE_JOBS ?= 2
.PHONY: mutate mutate-short
mutate:
	$(GO) run ./internal/mutate/cmd/mutate -j $(MUTATE_JOBS) $(if $(MUTATE_ONLY),-only '$(MUTATE_ONLY)')

mutate-short:
	$(GO) run ./internal/mutate/cmd/mutate -short -j $(MUTATE_JOBS) $(if $(MUTATE_ONLY),-only '$(MUTATE_ONLY)')

## test-loaded: the timing-sensitive packages (LOADED_PKGS: job/temporal, job, checkpoint; the Temporal dev-server
## tests too when LAKELOAD_TEMPORAL is set) with a CPU hog of LOADED_HOG x the cores running alongside
## (scripts/with-cpu-hog.sh: started and killed by the target, each busy loop bounded in time). Tests are built
## first, without the hog. test-loaded-short (CI, .ci/run): the lease, takeover and segment tests of
## checkpoint and job and the job/temporal tests without a dev server, under the same hog, LOADED_COUNT times.
LOADED_PKGS ?= ./job/temporal ./job ./checkpoint
LOADED_HOG ?= 2
LOADED_COUNT ?= 1
LOADED_RUN := Lease|Segment|Takeover
.PHONY: test-loaded test-loaded-short
test-loaded:
	$(GO) test -count=1 -run '^$$' $(LOADED_PKGS) >/dev/null
	LAKELOAD_PY="$(PY)" scripts/with-cpu-hog.sh -x $(LOADED_HOG) -t 5400 -- $(GO) test -count=$(LOADED_COUNT) -timeout 80m $(LOADED_PKGS)
test-loaded-short:
	$(GO) test -count=1 -run '^$$' ./checkpoint ./job ./job/temporal >/dev/null
	scripts/with-cpu-hog.sh -x $(LOADED_HOG) -t 900 -- bash -c "$(LOADED_SHORT)"
LOADED_SHORT = $(GO) test -count=$(LOADED_COUNT) -timeout 10m -run '$(LOADED_RUN)' ./checkpoint ./job && $(GO) test -count=$(LOADED_COUNT) -timeout 10m -short ./job/temporal

## soak: the long kill -9 soak of `lakeload load` (≥ 30 SIGKILLs over ≥ 1M rows per table; internal/killsoak),
## then the feature soaks (TestKillSoakFeatures: dynamic bucket, evolve-schema, quarantine, overwrite, incremental),
## then the REST catalog soak (TestKillSoakREST: ≥ 30 SIGKILLs, inside commit requests too, on Java's RESTCatalogServer),
## then the pause soak (TestPauseSoak: ≥ 100 SIGSTOP/SIGCONT pauses with takeovers, other writers and expiry);
## S3=1 also runs the kill -9 soak with --warehouse and --checkpoint on S3 (versitygw, TestKillSoakS3)
.PHONY: soak soak-pause soak-rest
soak:
	@mkdir -p build
	set -o pipefail; LAKELOAD_SOAK=long LAKELOAD_PY="$(PY)" $(GO) test -count=1 -v -timeout 90m -run '^(TestKillSoak(Features|REST$(if $(S3),|S3))?|TestPauseSoak)$$' ./internal/killsoak 2>&1 | tee build/soak.log
	@grep -oE 'SOAK (mode|feature)=.*' build/soak.log

## soak-rest: the long REST catalog kill -9 soak alone (docs/testing.md, "The REST catalog soak")
soak-rest:
	@mkdir -p build
	set -o pipefail; LAKELOAD_SOAK=long LAKELOAD_REQUIRE_REST=1 LAKELOAD_PY="$(PY)" $(GO) test -count=1 -v -timeout 60m -run '^TestKillSoakREST$$' ./internal/killsoak 2>&1 | tee build/soak-rest.log
	@grep -oE 'SOAK mode=.*' build/soak-rest.log

## splits-kill-2g: issue 15's acceptance measurement at full size — a load of one 2 GB CSV file with quoted newlines
## killed with SIGKILL in a window in the middle of the file redoes at most that window (TestKillInBigCSVRedoesAtMostOneWindow,
## 24 MB in CI); SPLITS_MB sets the size
SPLITS_MB ?= 2048
.PHONY: splits-kill-2g
splits-kill-2g:
	LAKELOAD_SPLITS_CSV_MB=$(SPLITS_MB) $(GO) test -count=1 -v -timeout 3h -run '^TestKillInBigCSVRedoesAtMostOneWindow$$' ./cmd/lakeload

## soak-pause: the long pause soak alone (docs/testing.md, "The pause soak")
soak-pause:
	@mkdir -p build
	set -o pipefail; LAKELOAD_SOAK=long LAKELOAD_PY="$(PY)" $(GO) test -count=1 -v -timeout 60m -run '^TestPauseSoak$$' ./internal/killsoak 2>&1 | tee build/soak-pause.log
	@grep -oE 'SOAK mode=.*' build/soak-pause.log

## soak-temporal: the long scale-out soak — 300k input rows in 15–20 windows on a Temporal dev server, three workers and the
## submitting `load`, 60 SIGKILLs (workers running tasks or the driver segment, the follower); pypaimon reads the model
.PHONY: soak-temporal
soak-temporal: temporal s3-server
	@mkdir -p build
	set -o pipefail; LAKELOAD_TEMPORAL_SOAK=long LAKELOAD_REQUIRE_TEMPORAL=1 LAKELOAD_PY="$(PY)" $(GO) test -count=1 -v -timeout 40m -run '^TestDevServerKillNine$$' ./job/temporal 2>&1 | tee build/soak-temporal.log
	@grep -oE 'SOAK temporal .*' build/soak-temporal.log

## bench: lakeload vs its peers (pypaimon, pypaimon + its Rust writer, Ray Data + pypaimon, Java Paimon) and the
## Parquet ceilings (arrow-go, pyarrow, parquet-rs): every scenario of bench/README.md on BENCH_ROWS rows,
## BENCH_ROUNDS interleaved rounds, the RSS line at BENCH_RSS_ROWS; installs the peers first (bench-peers; every
## peer and ceiling is required) and writes bench/results/<date>.md (BENCH_OUT overrides)
BENCH_ROWS ?= 2000000
BENCH_ROUNDS ?= 3
BENCH_RSS_ROWS ?= 10000000,50000000
BENCH_JAVA_PEER := $(LAKELOAD_CACHE)/bench-javapeer/paimon-bench-peer.jar
.PHONY: bench bench-peers
bench: bench-peers
	@mkdir -p bench/results
	LAKELOAD_PY="$(PY)" $(GO) run ./bench/cmd/benchrun -rows $(BENCH_ROWS) -rounds $(BENCH_ROUNDS) -rss-rows $(BENCH_RSS_ROWS) $(if $(BENCH_OUT),-out $(BENCH_OUT))

## bench-temporal: the Temporal engine's overhead against the in-process executor (docs/scale-out.md "Cost model"):
## TEMPORAL_COST_ROWS CSV rows in TEMPORAL_COST_FILES files, 1 and TEMPORAL_COST_WINDOWS windows, TEMPORAL_COST_RUNS
## interleaved rounds, on a local dev server with one worker; writes bench/results/<date>-temporal-cost.md
## (CI runs the 2k-row TestTemporalCostSmoke)
TEMPORAL_COST_ROWS ?= 200000
TEMPORAL_COST_FILES ?= 40
TEMPORAL_COST_WINDOWS ?= 10
TEMPORAL_COST_RUNS ?= 3
.PHONY: bench-temporal
bench-temporal: temporal
	@mkdir -p bench/results
	$(GO) run ./bench/cmd/temporalcost -rows $(TEMPORAL_COST_ROWS) -files $(TEMPORAL_COST_FILES) -windows $(TEMPORAL_COST_WINDOWS) -runs $(TEMPORAL_COST_RUNS)

## bench-peers: the peers' installs: bench venv ($(LAKELOAD_CACHE)/bench-venv: Ray Data, pypaimon, pypaimon-rust),
## pypaimon venv, Java peer jar
bench-peers: py-oracle $(BENCH_JAVA_PEER)
	bench/py/setup_venv.sh "$(LAKELOAD_CACHE)/bench-venv"

$(BENCH_JAVA_PEER): bench/javapeer/pom.xml $(shell find bench/javapeer/src -name '*.java' 2>/dev/null)
	cd bench/javapeer && (mvn -q -B -o package -Dpeer.build.dir="$(LAKELOAD_CACHE)/bench-javapeer" 2>/dev/null || mvn -q -B package -Dpeer.build.dir="$(LAKELOAD_CACHE)/bench-javapeer")
	@touch $@

## sweep: the long single-fault sweep — every I/O call of a small load fails once (error, torn, landed), then a clean resume (internal/sweep);
## S3=1 also runs the whole crash-point matrix with the warehouse and the checkpoint store on S3 (job, TestCrashPointMatrixS3)
.PHONY: sweep
sweep:
	@mkdir -p build
	set -o pipefail; LAKELOAD_SWEEP=long $(GO) test -count=1 -v -timeout 30m -run TestSingleFaultSweep ./internal/sweep 2>&1 | tee build/sweep.log
	@grep -o 'SWEEP mode=.*' build/sweep.log
	$(if $(S3),LAKELOAD_S3_MATRIX=full $(GO) test -count=1 -timeout 30m -run TestCrashPointMatrixS3 ./job)
