package arena

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"matombo/mancala"
	"matombo/search"
)

// Config is a match between players A and B.
type Config struct {
	Ruleset      mancala.Ruleset
	A, B         Spec
	Games        int           // games to play (pairs of games with seats swapped), 1 or more
	MoveTime     time.Duration // time per decision; 0: each player's default limits
	Limits       search.Limits // other limits per decision (MoveTime above wins)
	Seed         uint64        // seeds the openings and the players
	OpeningTurns int           // random turns played before each pair (0: none)
	Balance      *Balance      // play only openings that pass this test (nil: any opening)
	RecordDir    string        // every game is saved here as game-NNNN.txt ("": not saved)
	SPRT         *SPRT         // stop early when the test decides (nil: play every game)
	Progress     io.Writer     // a progress bar is drawn here (nil: none)
}

// Validate reports whether the match can be played.
func (c Config) Validate() error {
	if err := c.Ruleset.Validate(); err != nil {
		return err
	}
	switch {
	case c.Games < 1:
		return fmt.Errorf("arena: games %d; play at least 1 game", c.Games)
	case c.MoveTime < 0:
		return fmt.Errorf("arena: movetime %v is negative", c.MoveTime)
	case c.OpeningTurns < 0 || c.OpeningTurns > 50:
		return fmt.Errorf("arena: opening turns %d out of range; use 0 to 50", c.OpeningTurns)
	case c.Limits.Validate() != nil:
		return c.Limits.Validate()
	case c.A.Kind == "" || c.B.Kind == "":
		return errors.New("arena: both players must be given")
	}
	if c.Balance != nil {
		if err := c.Balance.Validate(); err != nil {
			return err
		}
	}
	if c.SPRT != nil {
		return c.SPRT.Validate()
	}
	return nil
}

// Result is the outcome of a match, from A's side. Its JSON form is the one
// `matombo arena --json` prints.
type Result struct {
	Games int     `json:"games"`
	AWins int     `json:"a_wins"`
	BWins int     `json:"b_wins"`
	Draws int     `json:"draws"`
	Score float64 `json:"score"`
	// ScoreLow and ScoreHigh are the Wilson 95% interval of Score
	// (Score.Interval), finite at 0% and 100%.
	ScoreLow  float64 `json:"score_low"`
	ScoreHigh float64 `json:"score_high"`
	Elo       float64 `json:"elo"`
	EloLow    float64 `json:"elo_low"`
	EloHigh   float64 `json:"elo_high"`
	// Pairs counts the finished pairs of games (same opening, seats
	// swapped) by A's points in the pair: 0, 1/2, 1, 3/2, 2. Many pairs
	// at 1 mean the opening decided more than the players did.
	Pairs   [5]int  `json:"pairs"`
	SPRT    string  `json:"sprt,omitempty"`
	LLR     float64 `json:"llr,omitempty"`
	Records string  `json:"records,omitempty"`
}

func resultOf(s Score) Result {
	elo, lo, hi := s.Elo()
	slo, shi := s.Interval()
	return Result{Games: s.Games(), AWins: s.Wins, BWins: s.Losses, Draws: s.Draws,
		Score: s.Mean(), ScoreLow: slo, ScoreHigh: shi, Elo: elo, EloLow: lo, EloHigh: hi}
}

// Run plays the match. A cancelled context ends it after the game in
// progress is abandoned; the games finished so far are counted.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if err := cfg.Validate(); err != nil {
		return Result{}, err
	}
	a, err := cfg.A.open(ctx, cfg.Seed*2+1)
	if err != nil {
		return Result{}, err
	}
	defer a.Close()
	b, err := cfg.B.open(ctx, cfg.Seed*2+2)
	if err != nil {
		return Result{}, err
	}
	defer b.Close()
	return runSeats(ctx, cfg, a, b)
}

// RunPlayers plays a match between two players built by the caller (for
// tuning); cfg.A and cfg.B only name them in the records and may be empty.
func RunPlayers(ctx context.Context, cfg Config, a, b search.Player) (Result, error) {
	if cfg.A.Kind == "" {
		cfg.A = Spec{Kind: "custom", text: "A"}
	}
	if cfg.B.Kind == "" {
		cfg.B = Spec{Kind: "custom", text: "B"}
	}
	if err := cfg.Validate(); err != nil {
		return Result{}, err
	}
	return runSeats(ctx, cfg, plain{a}, plain{b})
}

func runSeats(ctx context.Context, cfg Config, a, b seat) (Result, error) {
	if cfg.RecordDir != "" {
		if err := os.MkdirAll(cfg.RecordDir, 0o755); err != nil {
			return Result{}, fmt.Errorf("arena: cannot create the record directory: %w", err)
		}
	}
	var err error
	var score Score
	var pairs [5]int
	halves := 0 // A's half-points in the pair being played
	var opening []mancala.Action
	var book *balancedBook
	if cfg.Balance != nil {
		book = newBalancedBook(cfg)
	}
	for g := 0; g < cfg.Games; g++ {
		if g%2 == 0 {
			if cfg.Balance != nil {
				opening, err = book.next(ctx, g/2)
			} else {
				opening, err = randomOpening(cfg.Ruleset, cfg.OpeningTurns, cfg.Seed, openingStream(g/2, 0))
			}
			if err != nil {
				if ctx.Err() != nil {
					break
				}
				return resultOf(score), err
			}
		}
		south, north, aSouth := a, b, g%2 == 0
		if !aSouth {
			south, north = b, a
		}
		rec, err := playGame(ctx, cfg, [2]seat{south, north}, opening)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return resultOf(score), fmt.Errorf("arena: game %d: %w", g+1, err)
		}
		if cfg.RecordDir != "" {
			names := [2]string{cfg.A.String(), cfg.B.String()}
			if !aSouth {
				names[0], names[1] = names[1], names[0]
			}
			if err := saveRecord(cfg.RecordDir, g+1, rec, names); err != nil {
				return resultOf(score), err
			}
		}
		switch w, ok := rec.Result.Winner(); {
		case !ok:
			score.Draws++
			halves++
		case (w == mancala.South) == aSouth:
			score.Wins++
			halves += 2
		default:
			score.Losses++
		}
		if g%2 == 1 {
			pairs[halves]++
			halves = 0
		}
		drawProgress(cfg.Progress, score, cfg.Games)
		if cfg.SPRT != nil && g%2 == 1 {
			if cfg.SPRT.Decide(score) != Continue {
				break
			}
		}
	}
	if cfg.Progress != nil && score.Games() > 0 {
		fmt.Fprintln(cfg.Progress)
	}
	out := resultOf(score)
	out.Pairs = pairs
	if cfg.SPRT != nil {
		out.SPRT, out.LLR = cfg.SPRT.Decide(score).String(), cfg.SPRT.LLR(score)
	}
	out.Records = cfg.RecordDir
	return out, nil
}

// randomOpening returns the actions of `turns` random turns from the start,
// drawn by a generator seeded with seed and stream (see openingStream). An
// opening that would end the game is drawn again. The simultaneous Choro
// opening is one turn of two random choices, North's drawn from its outer
// holes, which do not depend on South's choice.
func randomOpening(rs mancala.Ruleset, turns int, seed, stream uint64) ([]mancala.Action, error) {
	rng := rand.New(rand.NewPCG(seed, stream))
	s, err := mancala.NewGame(rs)
	if err != nil {
		return nil, err
	}
	for try := 0; try < 100; try++ {
		s.Reset()
		var acts, buf []mancala.Action
		for s.Turns() < turns && !s.IsOver() {
			buf = s.Legal(buf[:0])
			a := buf[rng.IntN(len(buf))]
			if err := s.Apply(a); err != nil {
				return nil, err
			}
			acts = append(acts, a)
		}
		if !s.IsOver() {
			return acts, nil
		}
	}
	return nil, errors.New("arena: no random opening of that length leaves the game in play")
}

// playGame plays one game from the opening and returns its record.
func playGame(ctx context.Context, cfg Config, seats [2]seat, opening []mancala.Action) (*mancala.Record, error) {
	start, err := mancala.NewGame(cfg.Ruleset)
	if err != nil {
		return nil, err
	}
	rec, err := mancala.NewRecorder(start)
	if err != nil {
		return nil, err
	}
	var played []mancala.Action
	for _, a := range opening {
		if err := rec.Apply(a); err != nil {
			return nil, err
		}
		played = append(played, a)
	}
	s := rec.State()
	lim := cfg.Limits
	if cfg.MoveTime > 0 {
		lim.MoveTime = cfg.MoveTime
	}
	view := s.Clone()
	for !s.IsOver() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := seats[s.ToMove()]
		if h, ok := p.(historian); ok {
			h.setHistory(cfg.Ruleset, "", played)
		}
		var a mancala.Action
		if _, engine := p.(historian); s.OpeningChoiceHidden() && !engine {
			a, err = chooseHiddenNorth(ctx, p, s, lim) // North must not see South's choice: hidden.go
		} else {
			view.CopyFrom(s)
			a, err = p.Choose(ctx, view, lim)
		}
		if err != nil {
			return nil, fmt.Errorf("%s to move: %w", s.ToMove().Name(), err)
		}
		if err := rec.Apply(a); err != nil {
			return nil, fmt.Errorf("%s chose an illegal action: %w", s.ToMove().Name(), err)
		}
		played = append(played, a)
	}
	return rec.Record(), nil
}

func saveRecord(dir string, n int, rec *mancala.Record, names [2]string) error {
	if err := rec.SetTag("South", names[0]); err != nil {
		return err
	}
	if err := rec.SetTag("North", names[1]); err != nil {
		return err
	}
	path := filepath.Join(dir, fmt.Sprintf("game-%04d.txt", n))
	if err := os.WriteFile(path, []byte(rec.String()), 0o644); err != nil {
		return fmt.Errorf("arena: cannot save the record: %w", err)
	}
	return nil
}

// drawProgress redraws the progress bar: games done and the running score.
func drawProgress(w io.Writer, s Score, total int) {
	if w == nil {
		return
	}
	const width = 24
	done := s.Games() * width / total
	fmt.Fprintf(w, "\r[%s%s] %d/%d  A +%d =%d -%d  score %.1f%%",
		strings.Repeat("#", done), strings.Repeat(".", width-done), s.Games(), total, s.Wins, s.Draws, s.Losses, 100*s.Mean())
}

// Summary is the text report of a match.
func Summary(cfg Config, r Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s vs %s, %s, %d games", cfg.A, cfg.B, cfg.Ruleset, r.Games)
	if cfg.MoveTime > 0 {
		fmt.Fprintf(&b, ", %d ms per decision", cfg.MoveTime.Milliseconds())
	}
	if cfg.Balance != nil {
		fmt.Fprintf(&b, ", balanced openings (within %.2f stones at %d nodes)", float64(cfg.Balance.Margin)/100, cfg.Balance.Nodes)
	}
	fmt.Fprintf(&b, "\nA wins %d, draws %d, losses %d\n", r.AWins, r.Draws, r.BWins)
	fmt.Fprintf(&b, "score %.1f%% (%.1f/%d), 95%% interval %.1f–%.1f%%\n",
		100*r.Score, r.Score*float64(r.Games), r.Games, 100*r.ScoreLow, 100*r.ScoreHigh)
	fmt.Fprintf(&b, "elo %+.0f, 95%% interval [%+.0f, %+.0f]\n", r.Elo, r.EloLow, r.EloHigh)
	if np := r.Pairs[0] + r.Pairs[1] + r.Pairs[2] + r.Pairs[3] + r.Pairs[4]; np > 0 {
		fmt.Fprintf(&b, "pairs: A won both %d, split %d, lost both %d (with draws: %d at 1/2, %d at 3/2)\n",
			r.Pairs[4], r.Pairs[2], r.Pairs[0], r.Pairs[1], r.Pairs[3])
	}
	if r.SPRT != "" {
		fmt.Fprintf(&b, "sprt: %s (llr %.2f)\n", r.SPRT, r.LLR)
	}
	if r.Records != "" {
		fmt.Fprintf(&b, "records in %s\n", r.Records)
	}
	return b.String()
}
