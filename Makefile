# lakeload developer targets. Defined here: oracles (java-oracle + py-oracle), golden, test.
# The reference oracles are described in oracle/README.md.

SHELL := /bin/bash
GO ?= go
LAKELOAD_CACHE ?= $(HOME)/.cache/lakeload
# Python with pypaimon: $LAKELOAD_PY, else the first existing venv below, else the cache venv (created by py-oracle).
PY ?= $(or $(LAKELOAD_PY),$(firstword $(wildcard $(CURDIR)/.venv/bin/python $(LAKELOAD_CACHE)/venv/bin/python $(HOME)/.cache/lakeload-venv/bin/python)),$(LAKELOAD_CACHE)/venv/bin/python)
JAVA_ORACLE_JAR := oracle/java/target/paimon-oracle.jar
JAVA_ORACLE_JSA := oracle/java/target/paimon-oracle.jsa
JAVA_ORACLE_SRC := oracle/java/pom.xml $(shell find oracle/java/src -name '*.java' 2>/dev/null)

.PHONY: oracles java-oracle py-oracle golden test

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

## golden: regenerate testdata/golden from testdata/java-written with the Java oracle (+ pypaimon comparison)
golden: oracles
	@py="$(PY)"; "$$py" -c 'import pypaimon' 2>/dev/null || py="$(LAKELOAD_CACHE)/venv/bin/python"; \
	  echo "$$py oracle/gen_golden.py"; "$$py" oracle/gen_golden.py

## test: all Go tests (the lead refines this target)
test:
	$(GO) test ./...
