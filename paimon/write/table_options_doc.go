package write

import (
	"sort"
	"strconv"
	"strings"
)

// OptionRulesMarkdown renders the classification of table options as the Markdown tables of
// docs/table-options.md (refused, honoured, irrelevant; keys ascending). The CLI's doc test keeps the
// document equal to it.
func OptionRulesMarkdown() string {
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
			if class != Refused {
				b.WriteString("| `" + r.key + "` | " + r.why + " |\n")
				continue
			}
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
		}
	}
	return b.String()
}
