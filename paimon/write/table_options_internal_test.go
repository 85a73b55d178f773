package write

import (
	"flag"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

)

var updateTableOptions = flag.Bool("update-table-options", false, "rewrite the generated table of docs/table-options.md")

const tableOptionsDoc = "../../docs/table-options.md"

// TestTableOptionRules: the table's own consistency: one rule per key, a reason for each, allowed
// values only on refused options, and the pattern matcher.
func TestTableOptionRules(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range tableOptionRules {
		if seen[r.key] {
			t.Errorf("%q classified twice", r.key)
		}
		seen[r.key] = true
		if r.why == "" || r.class < Honoured || r.class > Refused {
			t.Errorf("%q: class %v, reason %q", r.key, r.class, r.why)
		}
		if r.allowed != nil && r.class != Refused {
			t.Errorf("%q: allowed values on a %v option", r.key, r.class)
		}
	}
	for _, c := range []struct {
		p, key string
		want   bool
	}{
		{"fields.*.aggregate-function", "fields.v.aggregate-function", true},
		{"fields.*.aggregate-function", "fields.a.b.aggregate-function", true},
		{"fields.*.aggregate-function", "fields..aggregate-function", false},
		{"fields.*.aggregate-function", "fields.default-aggregate-function", false},
		{"file-index.*.*", "file-index.bloom-filter.k.fpp", true},
		{"commit.callback.#.param", "commit.callback.a.B.param", true},
		{"orc.*", "orc", false},
	} {
		if got := patternMatch(c.p, c.key); got != c.want {
			t.Errorf("patternMatch(%q, %q) = %v, want %v", c.p, c.key, got, c.want)
		}
	}
	if r := classify("fields.default-aggregate-function"); r == nil || r.class != Honoured {
		t.Errorf("fields.default-aggregate-function: exact rule must win over patterns, got %+v", r)
	}
	if r := classify("parquet.variant.shreddingSchema"); r == nil || r.class != Refused {
		t.Errorf("parquet.variant.shreddingSchema: exact rule must win over parquet.*, got %+v", r)
	}
}

// TestTableOptionsDoc: docs/table-options.md lists the classification (generated; rewrite with
// go test ./paimon/write -run TestTableOptionsDoc -update-table-options).
func TestTableOptionsDoc(t *testing.T) {
	var b strings.Builder
	for _, class := range []OptionClass{Refused, Honoured, Irrelevant} {
		rules := []optionRule{}
		for _, r := range tableOptionRules {
			if r.class == class {
				rules = append(rules, r)
			}
		}
		sort.Slice(rules, func(i, j int) bool { return rules[i].key < rules[j].key })
		b.WriteString("\n### " + strings.ToUpper(class.String()[:1]) + class.String()[1:] + " (" + strconv.Itoa(len(rules)) + ")\n\n")
		if class == Refused {
			b.WriteString("| option | accepted values | why, and what to do |\n|---|---|---|\n")
		} else {
			b.WriteString("| option | what lakeload does |\n|---|---|\n")
		}
		for _, r := range rules {
			if class == Refused {
				acc := "(unset)"
				if len(r.allowed) > 0 {
					q := make([]string, len(r.allowed))
					for i, a := range r.allowed {
						q[i] = "`" + a + "`"
						if a == "" {
							q[i] = "empty"
						}
					}
					acc = strings.Join(q, ", ")
				}
				b.WriteString("| `" + r.key + "` | " + acc + " | " + r.why + " |\n")
			} else {
				b.WriteString("| `" + r.key + "` | " + r.why + " |\n")
			}
		}
	}
	checkGenerated(t, tableOptionsDoc, "table-options", b.String(), *updateTableOptions,
		"go test ./paimon/write -run TestTableOptionsDoc -update-table-options")
}

// checkGenerated compares the section between "<!-- generated:name -->" and "<!-- end:name -->" of
// a doc with body, rewriting it when update is set.
func checkGenerated(t *testing.T, path, name, body string, update bool, how string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	begin, end := "<!-- generated:"+name+" -->\n", "<!-- end:"+name+" -->"
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the markers %q ... %q", path, begin, end)
	}
	want := doc[:i+len(begin)] + body + doc[j:]
	if want == doc {
		return
	}
	if update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote %s", path)
		return
	}
	t.Errorf("%s is out of date: run %s", path, how)
}
