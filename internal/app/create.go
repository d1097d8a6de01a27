package app

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode"

	"matombo/mancala"
)

// CreateRequest asks for a new game.
type CreateRequest struct {
	Ruleset  string `json:"ruleset"`
	Opponent string `json:"opponent"` // "ai", "friend" or "local"
	Level    int    `json:"level"`    // AI level 1..8 (0: 3)
	Side     string `json:"side"`     // the creator's side: "S" (moves first), "N" or "random" ("" : S)
	Name     string `json:"name"`     // the creator's name, optional
	Position string `json:"position"` // the position to start from (RULES.md §5), at the start of a turn; "" for the ruleset's start
	Rated    bool   `json:"rated"`    // rated between two accounts (the server's accounts check and record it); default false
	// TimeControl is the game's clock (ParseTimeControl): "3+2" (minutes
	// a side + seconds a turn), "corr:3" (days a turn) or "" (none).
	TimeControl string `json:"time_control"`
	// SeatHash, if set, is the hash of the creator's seat token, a secret
	// the creator holds already (a lobby challenge's key): the game is
	// created with that seat, and Created.Token is empty. Not read from JSON.
	SeatHash []byte `json:"-"`
	// Client is who asks (the server: the peer's address), not read from
	// JSON: the AI's turns of one client's games share a bounded part of
	// the thinkers (sched.go). "": the game counts as a client of its own.
	Client string `json:"-"`
}

// Created tells the creator (or a joiner) of a game its secrets.
type Created struct {
	ID         string            `json:"id"`
	Seat       string            `json:"seat"`
	Token      string            `json:"token"`
	Tokens     map[string]string `json:"tokens,omitempty"`      // local games: a token per side
	Invite     string            `json:"invite,omitempty"`      // friend games: the link for the opponent
	TeamInvite string            `json:"team_invite,omitempty"` // friend games: the link for the creator's team mates
	URL        string            `json:"url"`
}

const maxName = 40

// cleanName returns a player's name as kept: invalid UTF-8 replaced by
// U+FFFD, control characters (C0, DEL, C1) and bidirectional formatting
// characters removed, white space collapsed to single spaces, cut to
// maxName characters; def if nothing is left. Cleaning a clean name gives
// it back, so a name survives a record's export and import, and it can
// be stored as it is in every store (no NUL, which PostgreSQL's JSONB
// refuses).
func cleanName(name, def string) string {
	name = strings.ToValidUTF8(name, "\uFFFD")
	name = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return ' '
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return -1
		}
		return r
	}, name)
	name = strings.Join(strings.Fields(name), " ")
	if r := []rune(name); len(r) > maxName {
		name = strings.TrimRight(string(r[:maxName]), " ")
	}
	if name == "" {
		return def
	}
	return name
}

func parseSide(side string) (mancala.Player, error) {
	switch side {
	case "", "S":
		return mancala.South, nil
	case "N":
		return mancala.North, nil
	case "random":
		return mancala.Player(rand.IntN(2)), nil
	}
	return 0, Errorf(EInvalid, "side %q is not allowed; side is S (moves first), N or random", side)
}

func gameURL(id, token string) string { return "/game/" + id + "#seat=" + token }

// Create starts a new game.
func (s *Service) Create(ctx context.Context, req CreateRequest) (*Created, error) {
	rs, err := mancala.ParseRuleset(req.Ruleset)
	if err != nil {
		return nil, Errorf(EInvalid, "%s", mancala.Message(err))
	}
	side, err := parseSide(req.Side)
	if err != nil {
		return nil, err
	}
	start, err := startFrom(rs, req.Position)
	if err != nil {
		return nil, err
	}
	tc, err := ParseTimeControl(req.TimeControl)
	if err != nil {
		return nil, err
	}
	if !tc.IsZero() && s.clocks == nil {
		return nil, Errorf(EInvalid, "this server's store keeps no clocks; create the game without time_control")
	}
	if !tc.IsZero() && req.Opponent == ModeAI {
		return nil, Errorf(EInvalid, "games against the computer have no clock; time_control is for games against a friend or on one device")
	}
	now := s.clock.Now().UTC()
	g := &Game{ID: newID(), Ruleset: rs.String(), Start: start, Mode: req.Opponent, Result: "*", Created: now, Updated: now,
		TimeControl: tc.String(), Rated: req.Rated}
	startClock(g, tc)
	me := Player{Kind: KindHuman, Name: cleanName(req.Name, side.Name())}
	other := side.Other()
	out := &Created{ID: g.ID, Seat: side.String(), Token: NewToken()}
	hash := HashToken(out.Token)
	if req.SeatHash != nil {
		hash, out.Token = req.SeatHash, ""
	}
	g.Players[side] = me
	g.Seats = []Seat{{Side: side, Hash: hash, Created: now}}
	switch req.Opponent {
	case ModeAI:
		level := req.Level
		if level == 0 {
			level = 3
		}
		if level < MinLevel || level > MaxLevel {
			return nil, Errorf(EInvalid, "level %d is not allowed; AI levels run from %d to %d", req.Level, MinLevel, MaxLevel)
		}
		g.Players[other] = Player{Kind: KindAI, Level: level, Name: fmt.Sprintf("Computer (level %d)", level)}
	case ModeFriend:
		g.Players[other] = Player{Kind: KindHuman, Name: other.Name()}
		invite, team := NewToken(), NewToken()
		g.Invites[other], g.Invites[side] = HashToken(invite), HashToken(team)
		g.InviteOnce[other] = true
		out.Invite = "/join/" + g.ID + "/" + invite
		out.TeamInvite = "/join/" + g.ID + "/" + team
	case ModeLocal:
		g.Players[other] = Player{Kind: KindHuman, Name: other.Name()}
		t := NewToken()
		g.Seats = append(g.Seats, Seat{Side: other, Hash: HashToken(t), Created: now})
		out.Tokens = map[string]string{side.String(): out.Token, other.String(): t}
	default:
		return nil, Errorf(EInvalid, "opponent %q is not allowed; opponent is ai, friend or local", req.Opponent)
	}
	if err := s.store.CreateGame(ctx, g); err != nil {
		return nil, err
	}
	out.URL = gameURL(g.ID, out.Token)
	s.sched.own(g.ID, req.Client)
	s.kickAI(g)
	return out, nil
}

// startFrom checks a new game's start position and returns it written
// canonically: "" for the ruleset's own start, which pos may also be.
func startFrom(rs mancala.Ruleset, pos string) (string, error) {
	if pos == "" {
		return "", nil
	}
	st, err := mancala.NewGame(rs)
	if err != nil {
		return "", Errorf(EInvalid, "%s", mancala.Message(err))
	}
	initial := st.Position()
	if err := st.SetPosition(pos); err != nil {
		return "", Errorf(EInvalid, "%s", mancala.Message(err))
	}
	if st.IsOver() {
		decided := "drawn"
		if w, ok := st.Outcome().Result.Winner(); ok {
			decided = "won by " + w.Name()
		}
		return "", Errorf(EInvalid, "the game is over in position %q (%s: %s); start from a position where the side to move can act", pos, decided, st.Outcome().Reason)
	}
	if p := st.Position(); p != initial {
		return p, nil
	}
	return "", nil
}
