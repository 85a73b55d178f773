package file

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/fileio/mem"
)

// planNames plans input and returns the planned paths relative to base, space-separated.
func planNames(t *testing.T, fs fileio.FileIO, base, input string) (string, error) {
	t.Helper()
	ss, err := Plan(context.Background(), fs, input, "")
	if err != nil {
		return "", err
	}
	var got []string
	for _, s := range ss {
		got = append(got, strings.TrimPrefix(s.Path, base+"/"))
	}
	return strings.Join(got, " "), nil
}

// TestPlanDirectoryAndDoubleStar (issue 15, finding 4): a directory stands for every file under it,
// recursively, and "**" for any number of directories; hidden names ('.' or '_' first) are skipped
// unless a pattern element names them; the order is by path.
func TestPlanDirectoryAndDoubleStar(t *testing.T) {
	root := t.TempDir()
	base := filepath.ToSlash(filepath.Join(root, "data"))
	for _, f := range []string{"a.csv", "b/c.csv", "b/d/e.jsonl", "b/d/f.csv.gz", "_SUCCESS", ".hidden.csv", "b/.part-1.crc",
		"_tmp/x.csv", ".git/y.csv", "b/_temporary/0/z.csv", "b.csv"} {
		putFile(t, filepath.Join(root, "data", f), "x\n1\n")
	}
	fs := local.New()
	for _, c := range []struct{ input, want string }{
		{base, "a.csv b.csv b/c.csv b/d/e.jsonl b/d/f.csv.gz"},
		{base + "/", "a.csv b.csv b/c.csv b/d/e.jsonl b/d/f.csv.gz"},
		{base + "/**", "a.csv b.csv b/c.csv b/d/e.jsonl b/d/f.csv.gz"},
		{base + "/**/*.csv", "a.csv b.csv b/c.csv"},
		{base + "/b/**/*.csv", "b/c.csv"},
		{base + "/**/d/*", "b/d/e.jsonl b/d/f.csv.gz"},
		{base + "/*/**/e.jsonl", "b/d/e.jsonl"},
		{base + "/_tmp/**", "_tmp/x.csv"}, // a hidden directory named on purpose
		{base + "/**/_temporary/**", "b/_temporary/0/z.csv"},
		{base + "/*.csv", ".hidden.csv a.csv b.csv"}, // a plain glob keeps filepath.Glob's rules
	} {
		got, err := planNames(t, fs, base, c.input)
		if err != nil || got != c.want {
			t.Errorf("%s → %q, %v; want %q", strings.TrimPrefix(c.input, root), got, err, c.want)
		}
	}
	// Relative inputs become absolute paths.
	t.Chdir(root)
	if got, err := planNames(t, fs, base, "data/**/*.jsonl"); err != nil || got != "b/d/e.jsonl" {
		t.Errorf("relative ** → %q, %v", got, err)
	}
	if got, err := planNames(t, fs, base, "data"); err != nil || !strings.HasPrefix(got, "a.csv ") {
		t.Errorf("relative directory → %q, %v", got, err)
	}

	putFile(t, filepath.Join(root, "mixed", "a.csv"), "x\n1\n")
	putFile(t, filepath.Join(root, "mixed", "sub", "notes.txt"), "hello\n")
	_, err := Plan(context.Background(), fs, filepath.Join(root, "mixed"), "")
	wantErr(t, err, "mixed/sub/notes.txt", "cannot tell its format", "--format")
	if ss, err := Plan(context.Background(), fs, filepath.Join(root, "mixed"), "csv"); err != nil || len(ss) != 2 {
		t.Errorf("mixed with --format csv: %v, %v", ss, err)
	}

	if err := os.MkdirAll(filepath.Join(root, "empty", "_logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	putFile(t, filepath.Join(root, "empty", "_logs", "l.csv"), "x\n")
	_, err = Plan(context.Background(), fs, filepath.Join(root, "empty"), "")
	wantErr(t, err, "matches no files", "'.' or '_'")
	_, err = Plan(context.Background(), fs, base+"/a**/*.csv", "")
	wantErr(t, err, "a**", "whole path element")
	_, err = Plan(context.Background(), fs, base+"/**/[x", "")
	wantErr(t, err, "[x", "syntax error")
}

// TestPlanDirectoryRefusesLinkedDirectories: a symbolic link to a directory met while walking is
// refused with its path (never followed, never silently skipped); a hidden one is skipped like any
// hidden name, and a link to a file is read like the file.
func TestPlanDirectoryRefusesLinkedDirectories(t *testing.T) {
	root := t.TempDir()
	putFile(t, filepath.Join(root, "in", "a.csv"), "x\n1\n")
	putFile(t, filepath.Join(root, "elsewhere", "b.csv"), "x\n2\n")
	if err := os.Symlink(filepath.Join(root, "elsewhere", "b.csv"), filepath.Join(root, "in", "b.csv")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "elsewhere"), filepath.Join(root, "in", ".snapshot")); err != nil {
		t.Fatal(err)
	}
	fs := local.New()
	in := filepath.ToSlash(filepath.Join(root, "in"))
	if got, err := planNames(t, fs, in, in); err != nil || got != "a.csv b.csv" {
		t.Errorf("file link and hidden dir link → %q, %v", got, err)
	}
	if err := os.Symlink(filepath.Join(root, "in"), filepath.Join(root, "in", "loop")); err != nil {
		t.Fatal(err)
	}
	for _, input := range []string{in, in + "/**/*.csv"} {
		_, err := Plan(context.Background(), fs, input, "")
		wantErr(t, err, in+"/loop", "symbolic link to a directory", "--from")
	}
	// A pattern that cannot descend into the link does not refuse it; a linked root is followed.
	if got, err := planNames(t, fs, in, in+"/*.csv"); err != nil || got != "a.csv b.csv" {
		t.Errorf("plain glob → %q, %v", got, err)
	}
	if err := os.Symlink(filepath.Join(root, "elsewhere"), filepath.Join(root, "rootlink")); err != nil {
		t.Fatal(err)
	}
	rl := filepath.ToSlash(filepath.Join(root, "rootlink"))
	if got, err := planNames(t, fs, rl, rl); err != nil || got != "b.csv" {
		t.Errorf("linked root → %q, %v", got, err)
	}
}

// TestPlanRemoteDirectoryAndDoubleStar: the same rules on an object store (listed through the FileIO).
func TestPlanRemoteDirectoryAndDoubleStar(t *testing.T) {
	ctx := context.Background()
	fs := mem.New()
	for _, p := range []string{"s3://b/in/a.csv", "s3://b/in/x/b.jsonl", "s3://b/in/x/y/c.csv", "s3://b/in/_SUCCESS",
		"s3://b/in/_temporary/0/t.csv", "s3://b/in/.meta/m.csv", "s3://b/inx/f.csv"} {
		if err := fileio.WriteFile(ctx, fs, p, []byte("x\n1\n")); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ input, want string }{
		{"s3://b/in", "a.csv x/b.jsonl x/y/c.csv"},
		{"s3://b/in/", "a.csv x/b.jsonl x/y/c.csv"},
		{"s3://b/in/**/*.csv", "a.csv x/y/c.csv"},
		{"s3://b/in/**/y/*", "x/y/c.csv"},
		{"s3://b/in/_temporary/**", "_temporary/0/t.csv"},
	} {
		got, err := planNames(t, fs, "s3://b/in", c.input)
		if err != nil || got != c.want {
			t.Errorf("%s → %q, %v; want %q", c.input, got, err, c.want)
		}
	}
	if got, err := planNames(t, fs, "s3://b", "s3://b/**/f.csv"); err != nil || got != "inx/f.csv" {
		t.Errorf("s3://b/**/f.csv → %q, %v", got, err)
	}
	_, err := Plan(ctx, fs, "s3://*/**/a.csv", "")
	wantErr(t, err, "name a bucket without wildcards")
}

// putFile writes a file, creating its directories.
func putFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
