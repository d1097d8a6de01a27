//go:build !linux

package app

// lowPriority runs f (at the usual priority: lowering one thread's is
// done on Linux only).
func lowPriority(f func()) { f() }
