//go:build !linux

package bench

import "time"

// threadCPUTime reports that this system cannot tell a thread's CPU time.
func threadCPUTime() (time.Duration, bool) { return 0, false }
