// Package datadriven runs table tests kept in text files, in the style of
// github.com/cockroachdb/datadriven (used by pebble), which is not among this module's
// dependencies. A file is a sequence of cases:
//
//	# comments and blank lines between cases are kept on rewrite
//	command arg key=value key=(a b) key="with spaces"
//	input line
//	input line
//	----
//	expected output
//
// The expected output ends at the first blank line. An output that holds blank lines is written
// between two separator lines ("----" twice before it, twice after it). Run the tests with
// -rewrite to replace every expected output by what the test returned (then review the diff).
//
// The package starts no goroutines and does no I/O besides reading and (on -rewrite) writing the
// files it is given.
package datadriven

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected outputs of data-driven test files with the actual outputs")

// Rewriting reports whether the test binary runs with -rewrite.
func Rewriting() bool { return *rewrite }

// Arg is one argument of a command: key, or key=value (Vals holds one value), or key=(a b c).
type Arg struct {
	Key  string
	Vals []string
}

// TestData is one case of a file.
type TestData struct {
	Pos      string // file:line of the command
	Cmd      string
	Args     []Arg
	Input    string // the lines between the command and the separator, joined by "\n"
	Expected string // the output after the separator, with a final "\n" unless empty
}

// Has reports whether the command has argument key.
func (d *TestData) Has(key string) bool {
	_, ok := d.Arg(key)
	return ok
}

// Arg returns the values of argument key.
func (d *TestData) Arg(key string) ([]string, bool) {
	for _, a := range d.Args {
		if a.Key == key {
			return a.Vals, true
		}
	}
	return nil, false
}

// Value returns the single value of argument key, or def when the command has no such argument.
func (d *TestData) Value(key, def string) string {
	v, ok := d.Arg(key)
	if !ok || len(v) == 0 {
		return def
	}
	return strings.Join(v, " ")
}

// Fatalf fails t naming the case's position.
func (d *TestData) Fatalf(t testing.TB, format string, args ...any) {
	t.Helper()
	t.Fatalf("%s: %s: %s", d.Pos, d.Cmd, fmt.Sprintf(format, args...))
}

// RunTest runs every case of the file at path through f and fails t where f's output differs from
// the expected output; with -rewrite it writes f's outputs into the file instead. Each case runs as
// a subtest named after its position.
func RunTest(t *testing.T, path string, f func(t *testing.T, d *TestData) string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	chunks, err := Parse(path, string(b))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, c := range chunks {
		if c.Data == nil {
			out.WriteString(c.Text)
			continue
		}
		d := c.Data
		var got string
		t.Run(strings.TrimPrefix(d.Pos, path+":")+"/"+d.Cmd, func(t *testing.T) {
			got = f(t, d)
			if got != "" && !strings.HasSuffix(got, "\n") {
				got += "\n"
			}
			if !*rewrite && got != d.Expected {
				t.Errorf("%s: %s output differs:\n--- got\n%s--- want\n%s", d.Pos, d.Cmd, got, d.Expected)
			}
		})
		out.WriteString(Format(d, got))
	}
	if *rewrite && out.String() != string(b) {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Chunk is a piece of a file: the text between cases (comments, blank lines), or a case.
type Chunk struct {
	Text string
	Data *TestData
}

// Parse splits the content of the file named path into chunks; Format of each case and the text
// between them give the content back (for a file in canonical form).
func Parse(path, content string) ([]Chunk, error) {
	lines := strings.SplitAfter(content, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var out []Chunk
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			out = append(out, Chunk{Text: text.String()})
			text.Reset()
		}
	}
	for i := 0; i < len(lines); {
		line := strings.TrimRight(lines[i], "\n")
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			text.WriteString(lines[i])
			i++
			continue
		}
		flush()
		d := &TestData{Pos: fmt.Sprintf("%s:%d", path, i+1)}
		var err error
		if d.Cmd, d.Args, err = parseCommand(line); err != nil {
			return nil, fmt.Errorf("%s: %v", d.Pos, err)
		}
		i++
		var input []string
		for ; i < len(lines) && strings.TrimRight(lines[i], "\n") != "----"; i++ {
			input = append(input, strings.TrimRight(lines[i], "\n"))
		}
		if i == len(lines) {
			return nil, fmt.Errorf("%s: no ---- line after the command", d.Pos)
		}
		d.Input = strings.Join(input, "\n")
		i++
		var expected []string
		if i < len(lines) && strings.TrimRight(lines[i], "\n") == "----" { // output with blank lines
			for i++; ; i++ {
				if i+1 >= len(lines) {
					return nil, fmt.Errorf("%s: no closing ---- ---- after the output", d.Pos)
				}
				if strings.TrimRight(lines[i], "\n") == "----" && strings.TrimRight(lines[i+1], "\n") == "----" {
					i += 2
					break
				}
				expected = append(expected, strings.TrimRight(lines[i], "\n"))
			}
		} else {
			for ; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
				expected = append(expected, strings.TrimRight(lines[i], "\n"))
			}
		}
		if len(expected) > 0 {
			d.Expected = strings.Join(expected, "\n") + "\n"
		}
		out = append(out, Chunk{Data: d})
	}
	flush()
	return out, nil
}

// Format renders case d with output got (ending in "\n" unless empty) as it stands in a file.
func Format(d *TestData, got string) string {
	var b strings.Builder
	b.WriteString(d.Cmd)
	for _, a := range d.Args {
		b.WriteString(" " + formatArg(a))
	}
	b.WriteString("\n")
	if d.Input != "" {
		b.WriteString(d.Input + "\n")
	}
	b.WriteString("----\n")
	if strings.Contains(got, "\n\n") || strings.HasPrefix(got, "\n") {
		b.WriteString("----\n" + got + "----\n----\n")
	} else {
		b.WriteString(got)
	}
	return b.String()
}

func formatArg(a Arg) string {
	switch {
	case len(a.Vals) == 0:
		return a.Key
	case len(a.Vals) == 1 && strings.ContainsAny(a.Vals[0], " ()"):
		return a.Key + "=" + quote(a.Vals[0])
	case len(a.Vals) == 1:
		return a.Key + "=" + a.Vals[0]
	}
	return a.Key + "=(" + strings.Join(a.Vals, " ") + ")"
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// parseCommand splits a command line into the command and its arguments.
func parseCommand(line string) (string, []Arg, error) {
	fields, err := splitFields(line)
	if err != nil {
		return "", nil, err
	}
	var args []Arg
	for _, f := range fields[1:] {
		key, val, ok := strings.Cut(f, "=")
		switch {
		case !ok:
			args = append(args, Arg{Key: key})
		case strings.HasPrefix(val, "(") && strings.HasSuffix(val, ")"):
			args = append(args, Arg{Key: key, Vals: strings.Fields(val[1 : len(val)-1])})
		case strings.HasPrefix(val, `"`):
			args = append(args, Arg{Key: key, Vals: []string{strings.ReplaceAll(val[1:len(val)-1], `\"`, `"`)}})
		default:
			args = append(args, Arg{Key: key, Vals: []string{val}})
		}
	}
	return fields[0], args, nil
}

// splitFields splits at spaces outside parentheses and double quotes (\" escapes a quote).
func splitFields(line string) ([]string, error) {
	var fields []string
	var cur strings.Builder
	depth, quoted := 0, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted && c == '\\' && i+1 < len(line) && line[i+1] == '"':
			cur.WriteString(`\"`)
			i++
			continue
		case c == '"':
			quoted = !quoted
		case !quoted && c == '(':
			depth++
		case !quoted && c == ')':
			depth--
		case !quoted && depth == 0 && (c == ' ' || c == '\t'):
			if cur.Len() > 0 {
				fields = append(fields, cur.String())
				cur.Reset()
			}
			continue
		}
		cur.WriteByte(c)
	}
	if quoted || depth != 0 {
		return nil, fmt.Errorf("unbalanced quotes or parentheses in %q", line)
	}
	if cur.Len() > 0 {
		fields = append(fields, cur.String())
	}
	return fields, nil
}
