//go:build unix

package server

import "syscall"

// fileLimit returns the process's limit of open files (RLIMIT_NOFILE, its
// soft limit, which the Go runtime raises to the hard one at start), or 0
// when it cannot be read.
func fileLimit() uint64 {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0
	}
	return uint64(l.Cur)
}
