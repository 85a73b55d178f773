package parquet

import (
	"bytes"
	"encoding/binary"
	"math/rand"
	"os"
	"runtime"
	"testing"
	"time"
)

func TestScratchHang(t *testing.T) {
	data, fields := smallFile(t)
	rng := rand.New(rand.NewSource(3))
	interesting := []uint64{0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 1 << 62, ^uint64(0)}
	for n := 0; n < 20000; n++ {
		b := bytes.Clone(data)
		for m := 0; m < 1+rng.Intn(4); m++ {
			p := rng.Intn(len(b) - 9)
			v := interesting[rng.Intn(len(interesting))]
			switch rng.Intn(5) {
			case 0:
				b[p] = byte(v)
			case 1:
				binary.LittleEndian.PutUint16(b[p:], uint16(v))
			case 2:
				binary.LittleEndian.PutUint32(b[p:], uint32(v))
			case 3:
				binary.BigEndian.PutUint32(b[p:], uint32(v))
			case 4:
				binary.LittleEndian.PutUint64(b[p:], v)
			}
		}
		done := make(chan struct{})
		go func() { defer close(done); decodeAll(b, fields) }()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			os.WriteFile("/tmp/hang.parquet", b, 0o644)
			buf := make([]byte, 1<<20)
			k := runtime.Stack(buf, true)
			t.Fatalf("hang at case %d\n%s", n, buf[:k])
		}
	}
}
