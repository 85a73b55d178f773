package oracle

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// javaOpens are the JDK 17 module opens Paimon's own tests use; cheap insurance for its unsafe access.
var javaOpens = []string{
	"--add-opens=java.base/java.nio=ALL-UNNAMED",
	"--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
	"--add-opens=java.base/java.lang=ALL-UNNAMED",
	"--add-opens=java.base/java.util=ALL-UNNAMED",
}

// RepoRoot returns the directory holding lakeload's go.mod, searched upwards from the working directory.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.Contains(b, []byte("module github.com/lakeload/lakeload\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("oracle: lakeload repository root (go.mod) not found above the working directory")
		}
		dir = parent
	}
}

// javaCommand resolves the Java oracle command line.
func javaCommand() ([]string, error) {
	spec := os.Getenv("LAKELOAD_JAVA_ORACLE")
	if spec != "" && !strings.HasSuffix(spec, ".jar") {
		return strings.Fields(spec), nil
	}
	jar := spec
	if jar == "" {
		root, err := RepoRoot()
		if err != nil {
			return nil, err
		}
		jar = filepath.Join(root, "oracle", "java", "target", "paimon-oracle.jar")
	}
	if _, err := os.Stat(jar); err != nil {
		return nil, fmt.Errorf("java oracle jar %s not found", jar)
	}
	if abs, err := filepath.Abs(jar); err == nil {
		jar = abs // the CDS archive only applies to the exact class path it was trained with
	}
	java, err := exec.LookPath("java")
	if err != nil {
		return nil, errors.New("java not found on PATH")
	}
	// JVM log output (e.g. a stale CDS archive warning) must go to stderr, never into the protocol.
	args := []string{java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xlog:disable", "-Xlog:all=warning:stderr"}
	if jsa := strings.TrimSuffix(jar, ".jar") + ".jsa"; fileExists(jsa) {
		args = append(args, "-XX:SharedArchiveFile="+jsa) // built by oracle/java/train-cds.sh
	}
	args = append(args, javaOpens...)
	return append(args, "-jar", jar), nil
}

// pyCommand resolves the pypaimon oracle command line.
func pyCommand() ([]string, error) {
	root, err := RepoRoot()
	if err != nil {
		return nil, err
	}
	script := filepath.Join(root, "oracle", "py", "paimon_oracle.py")
	py, err := Python(root)
	if err != nil {
		return nil, err
	}
	return []string{py, "-u", script}, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
