package spec

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// javaFiles lists Java-written schema-* or snapshot-* files under testdata/java-written.
func javaFiles(t testing.TB, kind string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "java-written", "*", "*", kind, kind+"-*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no Java-written %s files found", kind)
	}
	return files
}

func TestJavaSchemasRoundTrip(t *testing.T) {
	for _, p := range javaFiles(t, "schema") {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s, err := ParseSchema(raw)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if s.Version != 3 || len(s.Fields) == 0 || s.HighestFieldID < len(s.Fields)-1 {
			t.Errorf("%s: implausible parse %+v", p, s)
		}
		out, err := s.JSON()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		back, err := ParseSchema(out)
		if err != nil {
			t.Fatalf("%s: re-parse: %v\n%s", p, err, out)
		}
		if !reflect.DeepEqual(s, back) {
			t.Errorf("%s: round trip differs:\n%+v\n%+v", p, s, back)
		}
		// Java's layout: identical bytes when Java wrote options in sorted order (true for ≤1 option),
		// and always identical after dropping the options block.
		if stripOptions(string(raw)) != stripOptions(string(out)) {
			t.Errorf("%s: layout differs from Java:\n--- java\n%s\n--- go\n%s", p, raw, out)
		}
	}
}

// stripOptions removes the "options" object, whose member order follows a Java HashMap.
func stripOptions(s string) string {
	i := strings.Index(s, `"options" : {`)
	if i < 0 {
		return s
	}
	j := strings.Index(s[i:], "}")
	return s[:i] + s[i+j+1:]
}

func TestJavaSnapshotsRoundTrip(t *testing.T) {
	for _, p := range javaFiles(t, "snapshot") {
		if base := filepath.Base(p); base == "snapshot-EARLIEST" || base == "snapshot-LATEST" {
			continue
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s, err := ParseSnapshot(raw)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if "snapshot-"+strconv.FormatInt(s.ID, 10) != filepath.Base(p) {
			t.Errorf("%s: parsed id %d", p, s.ID)
		}
		if s.TotalRecordCount == nil || s.DeltaRecordCount == nil || s.CommitUser == "" {
			t.Errorf("%s: missing required values: %+v", p, s)
		}
		out, err := s.JSON()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseSnapshot(out)
		if err != nil {
			t.Fatalf("%s: re-parse: %v\n%s", p, err, out)
		}
		if !reflect.DeepEqual(s, back) {
			t.Errorf("%s: round trip differs:\n%+v\n%+v", p, s, back)
		}
		// Java writes explicit nulls for some members (older Jackson settings); we omit them.
		if want := dropNullMembers(string(raw)); want != string(out) {
			t.Errorf("%s: layout differs from Java:\n--- java\n%s\n--- go\n%s", p, want, out)
		}
	}
}

func dropNullMembers(s string) string {
	var keep []string
	for _, line := range strings.Split(s, "\n") {
		if strings.HasSuffix(line, " : null,") {
			continue
		}
		keep = append(keep, line)
	}
	return strings.Join(keep, "\n")
}
