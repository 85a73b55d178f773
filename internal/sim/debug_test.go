package sim

import (
	"testing"
)

func TestDebugDigest(t *testing.T) {
	debugTrace = true
	e := &explorer{t: t, sc: newScene(t, aggKind(), 3), level: atHooks}
	w := e.sc.newWorld(t)
	zf := fault{pauseAt: 2, onResume: resumeContinue}
	e.zombie(w, zf, moment{hook: true, n: 4}, zombieStats{})
	e.fail(e.last, "show")
}
