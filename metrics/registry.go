package metrics

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// ContentType is the media type of the text exposition format 0.0.4.
const ContentType = "text/plain; version=0.0.4; charset=utf-8"

var nameRE = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*$`)
var labelRE = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

// Registry holds metric families and writes them in the text format.
type Registry struct {
	mu       sync.Mutex
	families []*family
	byName   map[string]*family
}

type family struct {
	name, help, typ string
	series          []series
}

type series struct {
	labels Labels
	metric any // *Counter, *Gauge or *Histogram
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{byName: map[string]*family{}} }

// Counter registers (or returns the existing) counter series name{labels}. It panics on an invalid
// name or label name, or a name registered with another type: those are programming errors.
func (r *Registry) Counter(name, help string, labels Labels) *Counter {
	return r.register(name, help, "counter", labels, func() any { return &Counter{} }).(*Counter)
}

// Gauge registers (or returns the existing) gauge series name{labels}.
func (r *Registry) Gauge(name, help string, labels Labels) *Gauge {
	return r.register(name, help, "gauge", labels, func() any { return &Gauge{} }).(*Gauge)
}

// Histogram registers (or returns the existing) histogram series name{labels} with the given bucket
// upper bounds.
func (r *Registry) Histogram(name, help string, labels Labels, bounds []float64) *Histogram {
	return r.register(name, help, "histogram", labels, func() any { return newHistogram(bounds) }).(*Histogram)
}

func (r *Registry) register(name, help, typ string, labels Labels, mk func() any) any {
	if !nameRE.MatchString(name) {
		panic(fmt.Sprintf("metrics: invalid metric name %q", name))
	}
	for k := range labels {
		if !labelRE.MatchString(k) || strings.HasPrefix(k, "__") || (typ == "histogram" && k == "le") {
			panic(fmt.Sprintf("metrics: invalid label name %q on %s", k, name))
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	f := r.byName[name]
	if f == nil {
		f = &family{name: name, help: help, typ: typ}
		r.byName[name] = f
		r.families = append(r.families, f)
	} else if f.typ != typ {
		panic(fmt.Sprintf("metrics: %s registered as %s and %s", name, f.typ, typ))
	}
	key := labelText(labels, "", "")
	for _, s := range f.series {
		if labelText(s.labels, "", "") == key {
			return s.metric
		}
	}
	m := mk()
	cp := Labels{}
	for k, v := range labels {
		cp[k] = v
	}
	f.series = append(f.series, series{labels: cp, metric: m})
	return m
}

// WriteText writes every family in the text exposition format 0.0.4.
func (r *Registry) WriteText(w io.Writer) error {
	r.mu.Lock()
	fams := append([]*family{}, r.families...)
	r.mu.Unlock()
	bw := bufio.NewWriter(w)
	for _, f := range fams {
		fmt.Fprintf(bw, "# HELP %s %s\n# TYPE %s %s\n", f.name, escapeHelp(f.help), f.name, f.typ)
		r.mu.Lock()
		ss := append([]series{}, f.series...)
		r.mu.Unlock()
		for _, s := range ss {
			switch m := s.metric.(type) {
			case *Counter:
				fmt.Fprintf(bw, "%s%s %d\n", f.name, labelText(s.labels, "", ""), m.Value())
			case *Gauge:
				fmt.Fprintf(bw, "%s%s %s\n", f.name, labelText(s.labels, "", ""), formatFloat(m.Value()))
			case *Histogram:
				h := m.Snapshot()
				for i, b := range h.Bounds {
					fmt.Fprintf(bw, "%s_bucket%s %d\n", f.name, labelText(s.labels, "le", formatFloat(b)), h.Cumulative[i])
				}
				fmt.Fprintf(bw, "%s_sum%s %s\n", f.name, labelText(s.labels, "", ""), formatFloat(h.Sum))
				fmt.Fprintf(bw, "%s_count%s %d\n", f.name, labelText(s.labels, "", ""), h.Count)
			}
		}
	}
	return bw.Flush()
}

// Handler serves the registry on GET (and HEAD) requests.
func (r *Registry) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodGet && req.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "use GET", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", ContentType)
		_ = r.WriteText(w)
	})
}

// labelText renders {k="v",...} sorted by name, with an extra pair (the histogram's le) last; "" when empty.
func labelText(l Labels, extraKey, extraVal string) string {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+`="`+escapeLabel(l[k])+`"`)
	}
	if extraKey != "" {
		parts = append(parts, extraKey+`="`+escapeLabel(extraVal)+`"`)
	}
	if len(parts) == 0 {
		return ""
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func escapeLabel(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`).Replace(s)
}

func escapeHelp(s string) string { return strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(s) }

// formatFloat renders a sample value: integers without exponent, +Inf/-Inf/NaN as the format spells them.
func formatFloat(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
