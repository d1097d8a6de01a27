package mancala

import "math/bits"

// hashKeys are the random numbers behind State.Hash. The board part of the
// hash is additive, the sum of count×key over the holes (mod 2^64), so that
// sowing a whole lap, or a run of holes, changes it by one prefix-sum
// difference instead of one update per stone. The keys are fixed (seeded), so
// a hash means the same thing in every process.
type hashKeys struct {
	board   [2][maxLoop]uint64
	head    [2][maxLoop]uint64
	side    uint64
	opening [2]uint64
	phase   [8]uint64
	pending uint64
	flags   uint64
}

// keys is computed once and never written again.
var keys = newHashKeys(0x6d61746f6d626f21) // "matombo!"

func newHashKeys(seed uint64) *hashKeys {
	next := func() uint64 { // splitmix64
		seed += 0x9e3779b97f4a7c15
		z := seed
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	k := &hashKeys{}
	for p := range 2 {
		for i := range maxLoop {
			k.board[p][i] = next()
			k.head[p][i] = next()
		}
		k.opening[p] = next()
	}
	k.side = next()
	for i := range k.phase {
		k.phase[i] = next()
	}
	k.pending = next()
	k.flags = next()
	return k
}

// Hash identifies the state: the board, the heads, the side to move, the
// Choro opening flags and, within a turn, the decision pending (with what
// the Choro turn so far allows). Equal states
// hash equally; the hash is kept up to date as the game is played.
func (s *State) Hash() uint64 {
	h := s.boardHash ^ s.markHash
	if s.side == North {
		h ^= keys.side
	}
	if s.phase != phaseStart && s.phase != phaseSetup {
		h ^= keys.phase[s.phase] + uint64(s.pending)*keys.pending + uint64(s.choroFlags)*keys.flags
	}
	return h
}

// rehashMarks recomputes the part of the hash that changes rarely: the heads
// and the Choro opening flags.
func (s *State) rehashMarks() {
	var h uint64
	for p := range 2 {
		for m := s.heads[p]; m != 0; m &= m - 1 {
			h ^= keys.head[p][bits.TrailingZeros64(m)]
		}
		if s.r.choro && !s.openingDone[p] {
			h ^= keys.opening[p]
		}
	}
	s.markHash = h
}

// boardHashOf computes the board part of the hash from scratch.
func boardHashOf(board *[2][maxLoop]uint8, loop int) uint64 {
	var h uint64
	for p := range 2 {
		for i := 0; i < loop; i++ {
			h += uint64(board[p][i]) * keys.board[p][i]
		}
	}
	return h
}
