package main

import "time"

// hangGuard bounds a test's wait for a child process or goroutine to make progress (reach a point,
// stop after a signal): only a hang reaches it, never a slow, loaded machine.
const hangGuard = 5 * time.Minute
