package app

import (
	"context"
	"strings"
	"time"

	"matombo/mancala"
)

// Summary is a game in the archive list.
type Summary struct {
	ID      string            `json:"id"`
	Ruleset string            `json:"ruleset"`
	Title   string            `json:"ruleset_title"`
	Mode    string            `json:"mode"`
	Players map[string]Player `json:"players"`
	Result  string            `json:"result"`
	Reason  string            `json:"reason"`
	Turns   int               `json:"turns"`
	Created time.Time         `json:"created"`
	Updated time.Time         `json:"updated"`
}

// List returns the archive: games newest first.
func (s *Service) List(ctx context.Context, f ListFilter) ([]Summary, error) {
	switch f.Status {
	case "", "playing", "unfinished", "over":
	default:
		return nil, Errorf(EInvalid, "status %q is not allowed; status is playing, unfinished, over or empty for all", f.Status)
	}
	if f.Limit == 0 {
		f.Limit = 50
	}
	if f.Limit < 1 || f.Limit > 100 {
		return nil, Errorf(EInvalid, "limit %d is not allowed; limit runs from 1 to 100", f.Limit)
	}
	if f.BeforeID != "" && f.Before.IsZero() {
		return nil, Errorf(EInvalid, "before_id needs before: pass the updated time and the id of the last game listed")
	}
	games, err := s.store.ListGames(ctx, f)
	if err != nil {
		return nil, err
	}
	out := make([]Summary, len(games))
	for i, g := range games {
		title := g.Ruleset
		if rs, err := mancala.ParseRuleset(g.Ruleset); err == nil {
			title = titles[rs.Game]
		}
		out[i] = Summary{ID: g.ID, Ruleset: g.Ruleset, Title: title, Mode: g.Mode,
			Players: map[string]Player{"S": g.Players[0], "N": g.Players[1]},
			Result:  g.Result, Reason: g.Reason, Turns: g.Turns, Created: g.Created, Updated: g.Updated}
	}
	return out, nil
}

// RecordText returns the record of game id (RULES.md §5), without South's
// secret opening choice (played.record).
func (s *Service) RecordText(ctx context.Context, id string) (string, error) {
	p, err := s.load(ctx, id)
	if err != nil {
		return "", err
	}
	rec, _ := p.record()
	return rec.String(), nil
}

// MaxRecordBytes is the most bytes of a record text Import takes. Import
// also refuses a record whose export (RecordText: the headers written
// canonically with the Date, Site, South and North headers added, the turns
// numbered) would be larger, or have more than mancala.MaxHeaders headers,
// so every export of an imported game can be imported again.
const MaxRecordBytes = 1 << 20

// Import stores the game of a record text, which must replay legally; the
// error names the turn and action at fault.
func (s *Service) Import(ctx context.Context, text string) (string, error) {
	return s.ImportAs(ctx, text, "")
}

// ImportAs is Import with the record read and replayed under ruleset
// instead of its Ruleset header, unless ruleset is "" (see readRecord).
func (s *Service) ImportAs(ctx context.Context, text, ruleset string) (string, error) {
	if len(text) > MaxRecordBytes {
		return "", Errorf(ETooLarge, "the record has %d bytes; a record has at most %d bytes", len(text), MaxRecordBytes)
	}
	rec, st, err := readRecord(text, ruleset)
	if err != nil {
		return "", err
	}
	now := time.Now().UTC()
	g := &Game{ID: newID(), Ruleset: rec.Ruleset.String(), Start: rec.Position, Mode: ModeImported,
		Result: rec.Result.String(), Turns: st.Turns(), Created: now, Updated: now}
	for i, tag := range []string{"South", "North"} {
		name, _ := rec.Tag(tag)
		g.Players[i] = Player{Kind: KindHuman, Name: cleanName(name, mancala.Player(i).Name())}
	}
	g.Headers = rec.Tags
	switch {
	case st.IsOver():
		g.Reason = st.Outcome().Reason.String()
	case g.Over():
		g.Reason = "recorded"
	}
	replayed, err := rec.Start()
	if err != nil {
		return "", Errorf(EInvalid, "%s", mancala.Message(err))
	}
	for _, turn := range rec.Turns {
		for _, a := range turn {
			g.Actions = append(g.Actions, Move{Ply: len(g.Actions), Action: a.String(), Side: replayed.ToMove(), At: now})
			if err := replayed.Apply(a); err != nil {
				return "", Errorf(EInternal, "record replayed once but not twice: %v", err)
			}
		}
	}
	if err := exportable(g, rec); err != nil {
		return "", err
	}
	if err := s.store.CreateGame(ctx, g); err != nil {
		return "", err
	}
	return g.ID, nil
}

// exportable checks that the export of g, imported from rec, can be
// imported again: at most mancala.MaxHeaders headers and MaxRecordBytes
// bytes.
func exportable(g *Game, rec *mancala.Record) error {
	var added []string
	for _, key := range []string{"South", "North", "Date", "Site"} {
		if _, ok := rec.Tag(key); !ok {
			added = append(added, key)
		}
	}
	if n := len(rec.Headers()) + len(added); n > mancala.MaxHeaders {
		return Errorf(EInvalid, "the record has %d headers and its export adds %s: %d headers; a record has at most %d, so leave out %d",
			len(rec.Headers()), strings.Join(added, ", "), n, mancala.MaxHeaders, n-mancala.MaxHeaders)
	}
	p, err := replay(g)
	if err != nil {
		return err
	}
	if n := len(p.rec.Record().String()); n > MaxRecordBytes {
		return Errorf(ETooLarge, "the record written out as its export (headers completed, turns numbered) has %d bytes; a record has at most %d bytes", n, MaxRecordBytes)
	}
	return nil
}
