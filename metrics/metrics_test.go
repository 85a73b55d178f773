package metrics

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestWriteTextExactOutput: the exposition of a counter, a gauge and a histogram is exactly the text
// format 0.0.4 (HELP/TYPE once per family, sorted and escaped labels, cumulative buckets, +Inf).
func TestWriteTextExactOutput(t *testing.T) {
	r := NewRegistry()
	c := r.Counter("x_total", "Things\\counted\nhere.", Labels{"job": `a"b\c`, "action": "publish"})
	c.Add(3)
	c.Add(-5) // ignored
	r.Counter("x_total", "ignored help", Labels{"action": "commit", "job": `a"b\c`}).Add(1)
	if r.Counter("x_total", "", Labels{"job": `a"b\c`, "action": "publish"}) != c {
		t.Fatal("re-registering a series must return the same counter")
	}
	r.Gauge("g", "A gauge.", nil).Set(2.5)
	h := r.Histogram("h_seconds", "Latency.", Labels{"job": "j"}, []float64{1, 0.5})
	h.Observe(0.5)
	h.Observe(0.7)
	h.ObserveDuration(3 * time.Second)
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := `# HELP x_total Things\\counted\nhere.
# TYPE x_total counter
x_total{action="publish",job="a\"b\\c"} 3
x_total{action="commit",job="a\"b\\c"} 1
# HELP g A gauge.
# TYPE g gauge
g 2.5
# HELP h_seconds Latency.
# TYPE h_seconds histogram
h_seconds_bucket{job="j",le="0.5"} 1
h_seconds_bucket{job="j",le="1"} 2
h_seconds_bucket{job="j",le="+Inf"} 3
h_seconds_sum{job="j"} 4.2
h_seconds_count{job="j"} 3
`
	if b.String() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestRegisterRejectsBadNames: invalid metric/label names and a type clash panic (programming errors).
func TestRegisterRejectsBadNames(t *testing.T) {
	for name, f := range map[string]func(r *Registry){
		"metric name": func(r *Registry) { r.Counter("1bad", "", nil) },
		"label name":  func(r *Registry) { r.Gauge("ok", "", Labels{"bad-label": "v"}) },
		"le label":    func(r *Registry) { r.Histogram("ok", "", Labels{"le": "v"}, nil) },
		"type clash":  func(r *Registry) { r.Counter("m", "", nil); r.Gauge("m", "", nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f(NewRegistry())
		}()
	}
}

// TestConcurrentUpdates: concurrent adds and observations are all counted (run with -race).
func TestConcurrentUpdates(t *testing.T) {
	r := NewRegistry()
	m := NewLoad(r, "j")
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 1000; k++ {
				m.AddRowsRead(2)
				m.ObserveCommit(time.Millisecond)
				m.RecoveryAction(ActionVoid)
				if k%100 == 0 {
					_ = r.WriteText(&strings.Builder{})
				}
			}
		}()
	}
	wg.Wait()
	v := m.Values()
	if v.RowsRead != 16000 || v.Commits.Count != 8000 || v.Recovery[ActionVoid] != 8000 || v.Recovery[ActionCommit] != 0 {
		t.Fatalf("values %+v", v)
	}
}

// TestNilLoadIsSafe: metrics off is a nil *Load; every method is a no-op.
func TestNilLoadIsSafe(t *testing.T) {
	var m *Load
	m.AddRowsRead(1)
	m.AddRowsWritten(1)
	m.AddRowsRejected(1)
	m.WindowCommitted()
	m.ObserveCommit(time.Second)
	m.AddBytesWritten(1)
	m.RecoveryAction(ActionCommit)
	m.SetWindow(1)
	m.SetRowsPerSecond(1)
	if v := m.Values(); v.RowsRead != 0 {
		t.Fatal(v)
	}
}

// TestHandler serves the text format with its content type and refuses other methods.
func TestHandler(t *testing.T) {
	r := NewRegistry()
	NewLoad(r, "j").AddRowsWritten(7)
	srv := httptest.NewServer(r.Handler())
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	if resp.Header.Get("Content-Type") != ContentType || !strings.Contains(b.String(), "lakeload_rows_written_total{job=\"j\"} 7\n") ||
		!strings.Contains(b.String(), `lakeload_recovery_actions_total{action="recompute",job="j"} 0`) {
		t.Fatalf("%s\n%s", resp.Header.Get("Content-Type"), b.String())
	}
	resp2, err := http.Post(srv.URL, "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp2.Body.Close()
	if resp2.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST: %d", resp2.StatusCode)
	}
}
