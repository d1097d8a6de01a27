// Package mancala is the rules engine of matombo: the four-row mancala games
// Tsoro (with its Misoro and Musoro forms), Nsolo and Choro, as specified in
// docs/RULES.md.
//
// A Ruleset is a game and its options, read from and printed as
// "name key=value …". NewGame starts a State; Legal lists the written actions
// of the decision at hand and Apply plays one. A turn is one or more laps of
// sowing and may need several decisions (a head's relay or stop, bonus picks,
// stone removals, a Choro direction); decisions with a single choice are taken
// automatically, as the rules say. Positions and game records have their own
// notation (Position, SetPosition, ParseRecord, Record.String).
//
// The engine is built for speed: a board is a small array copied with the
// State, a handful is sown whole laps at a time, the hash is kept up to date
// by additions, and the legal first actions of a turn are a bit set. Playing
// allocates nothing. The package imports only the standard library.
package mancala
