package loadtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"matombo/mancala"
)

// AttackReviews keeps ReviewsAtOnce game reviews running (docs/API.md:
// POST /api/games/{id}/review) from several addresses: each reviewer
// imports a finished game of random play it has not reviewed before (so
// that the server's kept evaluations do not answer for it), starts its
// review, follows it until done and starts the next.
const AttackReviews = "reviews"

// ReviewsAtOnce is the reviews the reviews attack keeps running.
const ReviewsAtOnce = 20

// reviewRuleset is the ruleset of the games reviewed: the players'.
const reviewRuleset = DefaultRuleset

// reviewPoll is how often a reviewer asks how its review goes.
const reviewPoll = 250 * time.Millisecond

// randomRecord plays a game of random legal actions of ruleset to its
// end and returns its record.
func randomRecord(ruleset string, rng *rand.Rand) (string, error) {
	rs, err := mancala.ParseRuleset(ruleset)
	if err != nil {
		return "", err
	}
	s, err := mancala.NewGame(rs)
	if err != nil {
		return "", err
	}
	rec, err := mancala.NewRecorder(s)
	if err != nil {
		return "", err
	}
	var legal []mancala.Action
	for !rec.State().IsOver() {
		legal = rec.State().Legal(legal[:0])
		if len(legal) == 0 {
			return "", fmt.Errorf("loadtest: a %s game without a legal action", ruleset)
		}
		if err := rec.Apply(legal[rng.IntN(len(legal))]); err != nil {
			return "", err
		}
	}
	return rec.Record().String(), nil
}

// reviews keeps n reviews running (see AttackReviews).
func (a *attacker) reviews(ctx context.Context, n int, seed uint64) (func(context.Context, *sync.WaitGroup), error) {
	text, err := randomRecord(reviewRuleset, rand.New(rand.NewPCG(seed, 0)))
	if err != nil {
		return nil, err
	}
	var first struct{ ID string }
	if !a.do(ctx, 0, http.MethodPost, "/api/records", "text/plain", []byte(text), "", &first) {
		return nil, fmt.Errorf("loadtest: attack %s: the first import failed: %v", a.name, a.report().Sample)
	}
	return func(ctx context.Context, wg *sync.WaitGroup) {
		for w := range n {
			wg.Go(func() {
				rng := rand.New(rand.NewPCG(seed, uint64(w+1)))
				for ctx.Err() == nil {
					a.reviewOne(ctx, w, rng)
				}
			})
		}
	}, nil
}

// reviewOne imports one random finished game from client c, reviews it
// and follows the review to its end.
func (a *attacker) reviewOne(ctx context.Context, c int, rng *rand.Rand) {
	text, err := randomRecord(reviewRuleset, rng)
	if err != nil {
		a.fail(err)
		sleep(ctx, time.Second)
		return
	}
	var imp struct{ ID string }
	if !a.do(ctx, c, http.MethodPost, "/api/records", "text/plain", []byte(text), "", &imp) {
		sleep(ctx, time.Second) // refused: the address's imports are used up for now
		return
	}
	path := "/api/games/" + imp.ID + "/review"
	var v struct {
		Status string `json:"status"`
		Error  string `json:"error"`
	}
	for !a.do(ctx, c, http.MethodPost, path, "", nil, "", &v) {
		if !pause(ctx, time.Second) {
			return
		}
	}
	for v.Status == "running" {
		if !pause(ctx, reviewPoll) {
			return
		}
		a.do(ctx, c, http.MethodGet, path, "", nil, "", &v)
	}
	if v.Status != "done" {
		a.fail(fmt.Errorf("review of %s: %s: %s", imp.ID, v.Status, v.Error))
		return
	}
	a.done.Add(1)
}

// pause waits d, or less if ctx ends first: it reports whether ctx is
// still live.
func pause(ctx context.Context, d time.Duration) bool {
	sleep(ctx, d)
	return ctx.Err() == nil
}
