package metrics

import (
	"math"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Labels are constant label pairs of one metric series.
type Labels map[string]string

// Counter is a monotonically increasing integer.
type Counter struct{ v atomic.Int64 }

// Add adds n (negative n is ignored: counters never go down).
func (c *Counter) Add(n int64) {
	if c != nil && n > 0 {
		c.v.Add(n)
	}
}

// Value returns the current count.
func (c *Counter) Value() int64 {
	if c == nil {
		return 0
	}
	return c.v.Load()
}

// Gauge is a float value that goes up and down.
type Gauge struct{ bits atomic.Uint64 }

// Set sets the gauge to v.
func (g *Gauge) Set(v float64) {
	if g != nil {
		g.bits.Store(math.Float64bits(v))
	}
}

// Value returns the gauge's value.
func (g *Gauge) Value() float64 {
	if g == nil {
		return 0
	}
	return math.Float64frombits(g.bits.Load())
}

// Histogram counts observations into cumulative buckets with upper bounds (Prometheus "le").
type Histogram struct {
	bounds []float64 // ascending; +Inf is implicit
	mu     sync.Mutex
	counts []uint64 // per bound, not cumulative; last = +Inf
	sum    float64
	n      uint64
}

// DefaultSecondsBuckets suit durations from milliseconds to minutes.
var DefaultSecondsBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120}

func newHistogram(bounds []float64) *Histogram {
	b := append([]float64{}, bounds...)
	sort.Float64s(b)
	return &Histogram{bounds: b, counts: make([]uint64, len(b)+1)}
}

// Observe records one value.
func (h *Histogram) Observe(v float64) {
	if h == nil {
		return
	}
	i := sort.SearchFloat64s(h.bounds, v) // first bound >= v
	h.mu.Lock()
	h.counts[i]++
	h.sum += v
	h.n++
	h.mu.Unlock()
}

// ObserveDuration records d in seconds.
func (h *Histogram) ObserveDuration(d time.Duration) { h.Observe(d.Seconds()) }

// HistogramSnapshot is a histogram's state: cumulative counts per upper bound (the last is +Inf).
type HistogramSnapshot struct {
	Bounds     []float64
	Cumulative []uint64
	Sum        float64
	Count      uint64
}

// Snapshot returns the histogram's current state.
func (h *Histogram) Snapshot() HistogramSnapshot {
	if h == nil {
		return HistogramSnapshot{}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	s := HistogramSnapshot{Bounds: append(append([]float64{}, h.bounds...), math.Inf(1)), Sum: h.sum, Count: h.n}
	var acc uint64
	for _, c := range h.counts {
		acc += c
		s.Cumulative = append(s.Cumulative, acc)
	}
	return s
}
