package app

import (
	"errors"

	"matombo/internal/rulefacts"
	"matombo/mancala"
)

// readRecord parses and replays a record text for an import: under its
// Ruleset header, or under ruleset when it is not "". A record the engine
// finds playing under another reading (a *mancala.ReadingError: an old
// Choro record under a plain "choro" header) is refused with that reading
// in the error's SuggestRuleset, so that the client can offer to import it
// so (ruleset set to it).
func readRecord(text, ruleset string) (*mancala.Record, *mancala.State, error) {
	var rec *mancala.Record
	var err error
	if ruleset == "" {
		rec, err = mancala.ParseRecord(text)
	} else {
		rs, rerr := mancala.ParseRuleset(ruleset)
		if rerr != nil {
			return nil, nil, Errorf(EInvalid, "ruleset parameter: %s", mancala.Message(rerr))
		}
		rec, err = mancala.ParseRecordAs(text, rs)
	}
	if err != nil {
		return nil, nil, recordError(err)
	}
	st, err := rec.Replay()
	if err != nil {
		return nil, nil, recordError(err)
	}
	return rec, st, nil
}

// recordError is the EInvalid error of a record that does not read or
// replay, with the reading a *mancala.ReadingError suggests.
func recordError(err error) error {
	e := Errorf(EInvalid, "%s", mancala.Message(err))
	var re *mancala.ReadingError
	if errors.As(err, &re) {
		e.SuggestRuleset = re.Suggest.String()
	}
	return e
}

// TurnView is one turn as the record writes it (rulefacts.Turn).
type TurnView = rulefacts.Turn

// turnViews returns the turns of rec as written.
func turnViews(rec *mancala.Record) []TurnView { return rulefacts.Turns(rec) }
