package job

import "time"

// hangGuard bounds a test's wait for progress another goroutine or job must make (a barrier, a
// hook's signal, a whole run): only a hang reaches it, never a slow, loaded machine.
const hangGuard = 5 * time.Minute
