package bench

import (
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD: the calling thread's usage.
const rusageThread = 1

// ThreadCPUTime returns the CPU time (user and system) used so far by the
// calling OS thread, and false if the system cannot tell. Lock the goroutine
// to its thread (runtime.LockOSThread) around what is measured.
func ThreadCPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
