package accounts

import "testing"

// BenchmarkHashDefault measures one hash at DefaultParams, the cost of a
// sign-up or a log-in.
func BenchmarkHashDefault(b *testing.B) {
	for b.Loop() {
		hashPassword("correct horse battery staple", DefaultParams)
	}
}
