package app

import (
	"context"
	"strings"

	"matombo/mancala"
)

// What the players may ask of each other besides actions: an abort
// before both sides have played a turn, a draw (offered by one side,
// accepted by the other), and a takeback of the asker's last turn in a
// casual game between friends (asked by one side, accepted by the
// other). One offer waits at a time; an action or a refusal clears it.

// The kinds of offer (Game.Offer is kind + ":" + side).
const (
	OfferDraw     = "draw"
	OfferTakeback = "takeback"
)

// OffersView says what the players may ask and what is asked.
type OffersView struct {
	Draw         string `json:"draw"`          // the side offering a draw, "" for none
	Takeback     string `json:"takeback"`      // the side asking to take its last turn back, "" for none
	CanAbort     bool   `json:"can_abort"`     // the game may be aborted: not both sides have played a turn
	CanOffer     bool   `json:"can_offer"`     // draws may be offered: a game in play between two people on two devices
	CanTakeback  bool   `json:"can_takeback"`  // takebacks may be asked: as draws, in a casual (unrated) game
	Rated        bool   `json:"rated"`         // the game is rated
	TimeControl  string `json:"time_control"`  // the game's time control ("" : none), as at creation
	TimeCategory string `json:"time_category"` // its rating category
}

// offerOf splits g's offer into its kind and side.
func offerOf(g *Game) (kind string, side mancala.Player, ok bool) {
	k, sd, found := strings.Cut(g.Offer, ":")
	if !found {
		return "", 0, false
	}
	switch sd {
	case "S":
		return k, mancala.South, true
	case "N":
		return k, mancala.North, true
	}
	return "", 0, false
}

// offers returns the offers view of p.
func (p *played) offers() *OffersView {
	g := p.g
	tc := timeControlOf(g)
	v := &OffersView{Rated: g.Rated, TimeControl: tc.String(), TimeCategory: tc.Category()}
	if g.Over() || g.Mode == ModeImported {
		return v
	}
	v.CanAbort = !bothPlayed(g, p.state().ToMove())
	v.CanOffer = g.Mode == ModeFriend
	v.CanTakeback = v.CanOffer && !g.Rated
	if kind, side, ok := offerOf(g); ok {
		switch kind {
		case OfferDraw:
			v.Draw = side.String()
		case OfferTakeback:
			v.Takeback = side.String()
		}
	}
	return v
}

// inPlay loads game id for the holder of token, to what, and refuses a
// game over.
func (s *Service) inPlay(ctx context.Context, id, token, what string) (*played, mancala.Player, error) {
	p, side, err := s.loadSeated(ctx, id, token, what)
	if err != nil {
		return nil, 0, err
	}
	if p.g.Over() {
		return nil, 0, Errorf(EConflict, "game %s is over (%s, %s); it is too late to %s it", id, p.g.Result, p.g.Reason, what)
	}
	return p, side, nil
}

// Abort ends game id without a result (ResultAborted) for a seated
// player, before both sides have played a turn; never rated.
func (s *Service) Abort(ctx context.Context, id, token string) (*GameView, error) {
	p, side, err := s.inPlay(ctx, id, token, "abort")
	if err != nil {
		return nil, err
	}
	if p.g.Mode == ModeImported || bothPlayed(p.g, p.state().ToMove()) {
		return nil, Errorf(EConflict, "game %s can no longer be aborted: both sides have played a turn; resign or offer a draw instead", id)
	}
	v, err := s.end(ctx, p, ResultAborted, ReasonAborted)
	if err != nil {
		return nil, err
	}
	v.You = side.String()
	return v, nil
}

// needsOffers refuses offers in a game not between two people on two
// devices, or on a store without offers.
func (s *Service) needsOffers(g *Game, what string) error {
	if g.Mode != ModeFriend {
		return Errorf(EForbidden, "%s is between two players on two devices (a game with a friend); this game is %s", what, g.Mode)
	}
	if s.clocks == nil {
		return Errorf(EInvalid, "this server's store keeps no offers")
	}
	return nil
}

// OfferDraw offers a draw for token's side of game id, or accepts the
// opponent's offer (the game is then drawn, reason ReasonAgreed).
func (s *Service) OfferDraw(ctx context.Context, id, token string) (*GameView, error) {
	p, side, err := s.inPlay(ctx, id, token, "offer a draw in")
	if err != nil {
		return nil, err
	}
	g := p.g
	if err := s.needsOffers(g, "a draw offer"); err != nil {
		return nil, err
	}
	kind, by, ok := offerOf(g)
	switch {
	case ok && kind == OfferDraw && by != side:
		v, err := s.end(ctx, p, "draw", ReasonAgreed)
		if err != nil {
			return nil, err
		}
		v.You = side.String()
		return v, nil
	case ok && by != side:
		return nil, Errorf(EConflict, "your opponent asks for a %s: answer it first", kind)
	}
	return s.setOffer(ctx, p, side, OfferDraw+":"+side.String())
}

// Decline refuses the opponent's offer (a draw or a takeback) of game id
// for token's side, or withdraws token's side's own.
func (s *Service) Decline(ctx context.Context, id, token string) (*GameView, error) {
	p, side, err := s.inPlay(ctx, id, token, "answer an offer in")
	if err != nil {
		return nil, err
	}
	if _, _, ok := offerOf(p.g); !ok {
		return nil, Errorf(EConflict, "no offer waits in game %s", id)
	}
	return s.setOffer(ctx, p, side, "")
}

// setOffer stores offer as p's and tells the clients.
func (s *Service) setOffer(ctx context.Context, p *played, side mancala.Player, offer string) (*GameView, error) {
	g := p.g
	if err := s.needsOffers(g, "an offer"); err != nil {
		return nil, err
	}
	if err := s.clocks.SetOffer(ctx, g.ID, len(g.Actions), offer); err != nil {
		return nil, err
	}
	s.cache.drop(g.ID)
	g.Offer = offer
	u := p.update(nil)
	s.publish(ctx, g.ID, u)
	return u.ViewFor(side.String()), nil
}

// Takeback asks, for token's side of casual game id, to take back its
// last turn (and the opponent's turn after it, if any), or accepts the
// opponent's request: the turns are then removed and the asker is to
// move again, its clock running from now.
func (s *Service) Takeback(ctx context.Context, id, token string) (*GameView, error) {
	p, side, err := s.inPlay(ctx, id, token, "ask for a takeback in")
	if err != nil {
		return nil, err
	}
	g := p.g
	if err := s.needsOffers(g, "a takeback"); err != nil {
		return nil, err
	}
	if g.Rated {
		return nil, Errorf(EForbidden, "game %s is rated: rated games have no takebacks", id)
	}
	kind, by, ok := offerOf(g)
	switch {
	case ok && kind == OfferTakeback && by != side:
		return s.takeBack(ctx, p, by, side)
	case ok && by != side:
		return nil, Errorf(EConflict, "your opponent offers a %s: answer it first", kind)
	}
	if _, err := takebackPly(p, side); err != nil {
		return nil, err
	}
	return s.setOffer(ctx, p, side, OfferTakeback+":"+side.String())
}

// takebackPly returns the ply the takeback of side's last turn in p goes
// back to: the first action of that turn.
func takebackPly(p *played, side mancala.Player) (int, error) {
	acts := p.g.Actions
	i := len(acts) - 1
	for i >= 0 && acts[i].Side != side {
		i--
	}
	if i < 0 {
		return 0, Errorf(EConflict, "%s has played no turn to take back", side.Name())
	}
	for i > 0 && acts[i-1].Side == side {
		i--
	}
	st, err := startState(p.g.Ruleset, p.g.Start)
	if err != nil {
		return 0, err
	}
	if st.InSimultaneousOpening() && handovers(acts[:i], side) < 2 {
		return 0, Errorf(EConflict, "the simultaneous opening cannot be taken back: each side chose without seeing the other's choice")
	}
	return i, nil
}

// takeBack removes asker's last turn (and what followed) from p, for
// accepter, who accepted it.
func (s *Service) takeBack(ctx context.Context, p *played, asker, accepter mancala.Player) (*GameView, error) {
	g := p.g
	to, err := takebackPly(p, asker)
	if err != nil {
		return nil, err
	}
	kept := *g
	kept.Actions = g.Actions[:to:to]
	np, err := replay(&kept)
	if err != nil {
		return nil, err
	}
	np.clock = s.clock
	now := s.clock.Now().UTC()
	st := np.state()
	kept.ClockFrom, kept.Deadline, kept.Offer = now, deadlineFrom(&kept, st.ToMove(), now), ""
	if err := s.clocks.TakeBack(ctx, g.ID, len(g.Actions), to, st.Turns(), kept.ClockFrom, kept.Deadline); err != nil {
		return nil, err
	}
	s.cache.drop(g.ID)
	kept.Turns, kept.Updated, kept.Takebacks = st.Turns(), now, g.Takebacks+1
	u := np.update(nil)
	s.publish(ctx, g.ID, u)
	return u.ViewFor(accepter.String()), nil
}
