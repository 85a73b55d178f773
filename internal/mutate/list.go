package mutate

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Edit replaces Original, which must occur exactly once in the file, with Replacement.
type Edit struct {
	Original, Replacement string
}

// Mutant is one deliberate mistake in one file and the tests that must catch it.
type Mutant struct {
	ID    string   // unique across all lists
	File  string   // module-relative path, slash-separated
	Why   string   // the mistake and what it would break
	Kill  string   // top-level test expected to kill it; -short runs only this test
	Pkgs  []string // go test packages (module-relative patterns such as ./checkpoint)
	Run   string   // -run regexp of the full run
	Edits []Edit
	Src   string // list file and line of the mutant line, for messages
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._/-]*$`)

// LoadDir reads every *.txt list in dir, in name order, and checks that ids are unique.
func LoadDir(dir string) ([]Mutant, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("mutate: no *.txt mutant lists in %s", dir)
	}
	slices.Sort(names)
	var all []Mutant
	seen := map[string]string{}
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		ms, err := Parse(name, f)
		f.Close()
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			if prev, dup := seen[m.ID]; dup {
				return nil, fmt.Errorf("%s: mutant id %q already used at %s", m.Src, m.ID, prev)
			}
			seen[m.ID] = m.Src
		}
		all = append(all, ms...)
	}
	return all, nil
}

// Parse reads one list (format: mutants/README.md). name is used in error messages only.
func Parse(name string, r io.Reader) ([]Mutant, error) {
	var (
		out      []Mutant
		cur      *Mutant
		defPkgs  []string
		defRun   string
		lineNo   int
		block    int // 0: keys; 1: in original; 2: in replacement
		orig     []string
		repl     []string
		blockSrc string
	)
	errf := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, lineNo, fmt.Sprintf(format, args...))
	}
	finish := func() error {
		if cur == nil {
			return nil
		}
		switch {
		case cur.File == "":
			return fmt.Errorf("%s: mutant %s has no file", cur.Src, cur.ID)
		case cur.Kill == "":
			return fmt.Errorf("%s: mutant %s names no killing test (kill)", cur.Src, cur.ID)
		case cur.Why == "":
			return fmt.Errorf("%s: mutant %s does not say why it matters (why)", cur.Src, cur.ID)
		case len(cur.Edits) == 0:
			return fmt.Errorf("%s: mutant %s has no <<< === >>> edit", cur.Src, cur.ID)
		}
		if len(cur.Pkgs) == 0 {
			cur.Pkgs = defPkgs
		}
		if cur.Run == "" {
			cur.Run = defRun
		}
		if len(cur.Pkgs) == 0 || cur.Run == "" {
			return fmt.Errorf("%s: mutant %s has no pkg or run (and no default)", cur.Src, cur.ID)
		}
		out = append(out, *cur)
		cur = nil
		return nil
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		switch block {
		case 1:
			if line == "===" {
				block = 2
			} else {
				orig = append(orig, line)
			}
			continue
		case 2:
			if line == ">>>" {
				block = 0
				o := strings.Join(orig, "\n")
				if strings.TrimSpace(o) == "" {
					return nil, fmt.Errorf("%s: empty original snippet", blockSrc)
				}
				cur.Edits = append(cur.Edits, Edit{Original: o, Replacement: strings.Join(repl, "\n")})
				orig, repl = nil, nil
			} else {
				repl = append(repl, line)
			}
			continue
		}
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if trimmed == "<<<" {
			if cur == nil {
				return nil, errf("<<< outside a mutant")
			}
			block, blockSrc = 1, fmt.Sprintf("%s:%d", name, lineNo)
			continue
		}
		key, val, _ := strings.Cut(trimmed, " ")
		val = strings.TrimSpace(val)
		if key == "default" {
			k, v, _ := strings.Cut(val, " ")
			v = strings.TrimSpace(v)
			switch k {
			case "pkg":
				defPkgs = strings.Fields(v)
			case "run":
				defRun = v
			default:
				return nil, errf("default %q: only pkg and run have defaults", k)
			}
			continue
		}
		if key == "mutant" {
			if err := finish(); err != nil {
				return nil, err
			}
			if !idPattern.MatchString(val) {
				return nil, errf("mutant id %q: use lower-case letters, digits and . _ / -", val)
			}
			cur = &Mutant{ID: val, Src: fmt.Sprintf("%s:%d", name, lineNo)}
			continue
		}
		if cur == nil {
			return nil, errf("%q before the first mutant line", key)
		}
		switch key {
		case "file":
			cur.File = val
		case "why":
			cur.Why = val
		case "kill":
			if strings.ContainsAny(val, " /") || !strings.HasPrefix(val, "Test") {
				return nil, errf("kill %q: name one top-level test function", val)
			}
			cur.Kill = val
		case "pkg":
			cur.Pkgs = strings.Fields(val)
		case "run":
			cur.Run = val
		default:
			return nil, errf("unknown key %q (mutant, file, why, kill, pkg, run, default, <<<)", key)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if block != 0 {
		return nil, fmt.Errorf("%s: snippet not closed with >>>", blockSrc)
	}
	if err := finish(); err != nil {
		return nil, err
	}
	return out, nil
}

// Apply returns src with every edit of m applied in order; each original must occur exactly once
// in the text it is applied to.
func (m Mutant) Apply(src string) (string, error) {
	for i, e := range m.Edits {
		if n := strings.Count(src, e.Original); n != 1 {
			return "", fmt.Errorf("edit %d: the original snippet occurs %d times in %s, not exactly once:\n%s", i+1, n, m.File, e.Original)
		}
		src = strings.Replace(src, e.Original, e.Replacement, 1)
	}
	return src, nil
}
