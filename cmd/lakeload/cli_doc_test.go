package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/write"
	"github.com/spf13/cobra"
)

var updateDoc = flag.Bool("update-doc", false, "rewrite the generated sections of docs/cli.md")

const cliDoc = "../../docs/cli.md"

// TestCLIDocMatchesCommands: the generated sections of docs/cli.md (exit codes from exit.go's constants
// and comments; every command's description, usage, flags and examples from the cobra tree) are up to
// date, and every --flag the hand-written prose mentions exists. Regenerate with
// `go test ./cmd/lakeload -run TestCLIDoc -update-doc`.
func TestCLIDocMatchesCommands(t *testing.T) {
	b, err := os.ReadFile(cliDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	root := newRootCommand()
	gen := map[string]string{"exit-codes": exitCodesTable(t), "commands": commandReference(root)}
	want := doc
	for name, body := range gen {
		begin, end := "<!-- generated:"+name+" -->\n", "<!-- end:"+name+" -->"
		i, j := strings.Index(want, begin), strings.Index(want, end)
		if i < 0 || j < i {
			t.Fatalf("docs/cli.md lacks the markers %q ... %q", begin, end)
		}
		want = want[:i+len(begin)] + body + want[j:]
	}
	if want != doc {
		if *updateDoc {
			if err := os.WriteFile(cliDoc, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Log("rewrote docs/cli.md")
		} else {
			t.Errorf("docs/cli.md is out of date: run go test ./cmd/lakeload -run TestCLIDoc -update-doc")
		}
	}

	known := map[string]bool{"help": true, "version": true}
	var collect func(c *cobra.Command)
	collect = func(c *cobra.Command) {
		for _, name := range flagNames(c) {
			known[name] = true
		}
		for _, s := range c.Commands() {
			collect(s)
		}
	}
	collect(root)
	for _, m := range regexp.MustCompile(`--([a-z][a-z-]*)`).FindAllStringSubmatch(doc, -1) {
		if !known[m[1]] {
			t.Errorf("docs/cli.md mentions --%s, which no command has", m[1])
		}
	}
}

func flagNames(c *cobra.Command) []string {
	var names []string
	for _, l := range strings.Split(c.LocalFlags().FlagUsages(), "\n") {
		if m := regexp.MustCompile(`--([a-z][a-z-]*)`).FindStringSubmatch(l); m != nil {
			names = append(names, m[1])
		}
	}
	return names
}

// exitCodesTable renders exit.go's exit* constants and their comments as a Markdown table.
func exitCodesTable(t *testing.T) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "exit.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString("| code | meaning |\n|---|---|\n")
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if len(v.Names) != 1 || !strings.HasPrefix(v.Names[0].Name, "exit") || len(v.Values) != 1 {
				continue
			}
			meaning := "success"
			if v.Comment != nil {
				meaning = strings.TrimSpace(v.Comment.Text())
			}
			fmt.Fprintf(&sb, "| %s | %s |\n", v.Values[0].(*ast.BasicLit).Value, meaning)
		}
	}
	return sb.String()
}

// commandReference renders every command: description, usage line, flags and examples. Cobra's
// completion subcommands are listed by name only.
func commandReference(root *cobra.Command) string {
	var sb strings.Builder
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Parent() != nil && c.Parent().Name() == "completion" {
			return
		}
		fmt.Fprintf(&sb, "### `%s`\n\n", c.CommandPath())
		desc := c.Long
		if desc == "" || c.Name() == "completion" {
			desc = c.Short + "."
		}
		sb.WriteString(strings.TrimSpace(desc) + "\n\n")
		if c.Runnable() && !c.HasSubCommands() {
			fmt.Fprintf(&sb, "Usage: `%s`\n\n", c.UseLine())
		}
		if c.HasSubCommands() {
			var subs []string
			for _, s := range c.Commands() {
				subs = append(subs, "`"+s.Name()+"`")
			}
			fmt.Fprintf(&sb, "Subcommands: %s.\n\n", strings.Join(subs, ", "))
		}
		if fl := c.LocalNonPersistentFlags().FlagUsages(); strings.TrimSpace(fl) != "" && c.Name() != "lakeload" {
			fmt.Fprintf(&sb, "```text\n%s```\n\n", fl)
		}
		if fl := c.PersistentFlags().FlagUsages(); strings.TrimSpace(fl) != "" && !c.HasParent() {
			fmt.Fprintf(&sb, "Flags of every command:\n\n```text\n%s```\n\n", fl)
		}
		if c.Example != "" {
			fmt.Fprintf(&sb, "```sh\n%s\n```\n\n", c.Example)
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	return sb.String()
}

// TestCLIDocIntroRuns runs the first sh block of docs/cli.md (from the repository root, with /data/wh
// replaced by a temporary warehouse): every command must succeed, and the final table must hold the
// 3037 rows testdata/sample/README.md promises.
func TestCLIDocIntroRuns(t *testing.T) {
	b, err := os.ReadFile(cliDoc)
	if err != nil {
		t.Fatal(err)
	}
	_, block, _ := strings.Cut(string(b), "```sh\n")
	block, _, _ = strings.Cut(block, "```")
	wh := t.TempDir()
	t.Chdir("../..")
	var last string
	for _, line := range strings.Split(strings.ReplaceAll(block, "\\\n", " "), "\n") {
		args := shellWords(t, strings.ReplaceAll(line, "/data/wh", wh))
		if len(args) == 0 {
			continue
		}
		if args[0] != "lakeload" {
			t.Fatalf("intro line does not run lakeload: %q", line)
		}
		last = ok(t, args[1:]...)
	}
	if !strings.HasPrefix(last, "ID") {
		t.Errorf("intro block should end with a snapshots table, got %q", last)
	}
	if n := len(lines(ok(t, "scan", "--warehouse", wh, "--table", "shop.orders"))); n != 3037 {
		t.Errorf("after the intro the table holds %d rows, want 3037", n)
	}
}

// shellWords splits a command line like sh for the quoting the docs use: '…', "…" and blanks.
func shellWords(t *testing.T, s string) []string {
	t.Helper()
	var out []string
	var cur strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if quote != 0 {
		t.Fatalf("unclosed quote in %q", s)
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// TestTableOptionsDoc: docs/table-options.md lists paimon/write's classification of table options
// (generated; rewrite with go test ./cmd/lakeload -run TestTableOptionsDoc -update-doc).
func TestTableOptionsDoc(t *testing.T) {
	checkGenerated(t, "../../docs/table-options.md", "table-options", write.OptionRulesMarkdown(), *updateDoc,
		"go test ./cmd/lakeload -run TestTableOptionsDoc -update-doc")
}
