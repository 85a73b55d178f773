package main

import (
	"errors"
	"os"
	"syscall"
)

// alive reports whether process pid runs on this host (a process on another host counts as alive).
func alive(host string, pid int) bool {
	h, _ := os.Hostname()
	if host != h {
		return true
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
