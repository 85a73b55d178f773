package datadriven

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sample = `# a comment
echo a b=1 c=(x y) d="two words"
first
second
----
echo

# output with a blank line
lines n=2
----
----
one

two
----
----

empty
----
`

func TestParseAndFormat(t *testing.T) {
	chunks, err := Parse("f", sample)
	if err != nil {
		t.Fatal(err)
	}
	var cases []*TestData
	var back strings.Builder
	for _, c := range chunks {
		if c.Data == nil {
			back.WriteString(c.Text)
			continue
		}
		cases = append(cases, c.Data)
		back.WriteString(Format(c.Data, c.Data.Expected))
	}
	if back.String() != sample {
		t.Fatalf("format of the parse differs:\n%s", back.String())
	}
	if len(cases) != 3 {
		t.Fatalf("%d cases", len(cases))
	}
	e := cases[0]
	if e.Pos != "f:2" || e.Cmd != "echo" || e.Input != "first\nsecond" || e.Expected != "echo\n" || !e.Has("a") ||
		e.Value("b", "") != "1" || e.Value("d", "") != "two words" || e.Value("zz", "def") != "def" {
		t.Fatalf("case 1: %+v", e)
	}
	if v, _ := e.Arg("c"); len(v) != 2 || v[1] != "y" {
		t.Fatalf("c = %v", v)
	}
	if cases[1].Expected != "one\n\ntwo\n" || cases[2].Expected != "" {
		t.Fatalf("outputs %q %q", cases[1].Expected, cases[2].Expected)
	}
}

func TestParseErrors(t *testing.T) {
	for _, bad := range []string{"cmd\nno separator\n", "cmd a=(x\n----\n", "cmd\n----\n----\nunclosed\n"} {
		if _, err := Parse("f", bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// TestRunTestRewrites: with -rewrite a wrong expected output is replaced and the rest of the file
// (comments, other cases) stays as it was; the rewritten file then passes.
func TestRunTestRewrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cases")
	in := "# keep me\nupper\nabc\n----\nwrong\n\nupper\nx\n----\nX\n"
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	upper := func(_ *testing.T, d *TestData) string { return strings.ToUpper(d.Input) }
	*rewrite = true
	defer func() { *rewrite = false }()
	t.Run("rewrite", func(t *testing.T) { RunTest(t, path, upper) })
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "# keep me\nupper\nabc\n----\nABC\n\nupper\nx\n----\nX\n"; string(b) != want {
		t.Fatalf("rewritten file:\n%s", b)
	}
	*rewrite = false
	t.Run("check", func(t *testing.T) { RunTest(t, path, upper) })
}
