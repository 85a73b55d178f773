package main

import (
	"os"
	"runtime"
	"runtime/pprof"
	"time"
)

// startProfiles serves the bench's profiling (bench/README.md): $LAKELOAD_CPUPROFILE names a file for a CPU
// profile of the whole command; $LAKELOAD_MEMPROFILE one for the heap profile taken at the largest heap seen
// (checked every 250 ms), i.e. what is live at the memory peak. Both unset (the normal case), it does nothing.
// The returned function stops the profiles; call it before exiting.
func startProfiles() func() {
	cpuPath, memPath := os.Getenv("LAKELOAD_CPUPROFILE"), os.Getenv("LAKELOAD_MEMPROFILE")
	var stops []func()
	if cpuPath != "" {
		if f, err := os.Create(cpuPath); err == nil && pprof.StartCPUProfile(f) == nil {
			stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if memPath != "" {
		done := make(chan struct{})
		finished := make(chan struct{})
		go func() {
			defer close(finished)
			var peak uint64
			tick := time.NewTicker(250 * time.Millisecond)
			defer tick.Stop()
			for {
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak {
					peak = ms.HeapInuse
					if f, err := os.Create(memPath); err == nil {
						_ = pprof.Lookup("heap").WriteTo(f, 0)
						f.Close()
					}
				}
				select {
				case <-done:
					return
				case <-tick.C:
				}
			}
		}()
		stops = append(stops, func() { close(done); <-finished })
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}
