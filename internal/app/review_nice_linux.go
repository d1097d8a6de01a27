//go:build linux

package app

import (
	"runtime"
	"syscall"
)

// lowPriority runs f on an OS thread of its own at the lowest scheduling
// priority (nice 19) and waits for it: the kernel then gives the cores to
// the server's other threads (the players' requests, the store's writes)
// first whenever they have work. The thread ends with f (its goroutine
// exits locked to it), so its priority never passes to other goroutines.
// If the priority cannot be set, f runs all the same.
func lowPriority(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread() // never unlocked: the thread goes with the goroutine
		_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
		f()
	}()
	<-done
}
