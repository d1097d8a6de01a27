//go:build !linux

package bench

import "time"

// ThreadCPUTime reports that this system cannot tell a thread's CPU time
// (see the Linux version).
func ThreadCPUTime() (time.Duration, bool) { return 0, false }
