package mancala_test

import (
	"fmt"
	"strings"

	"matombo/mancala"
)

// legalNames returns the legal actions of s sorted as the protocol lists them.
func legalNames(s *mancala.State) string {
	var names []string
	for _, a := range s.Legal(nil) {
		names = append(names, a.String())
	}
	mancala.SortActionStrings(names)
	return strings.Join(names, " ")
}

func ExampleNewGame() {
	rs, err := mancala.ParseRuleset("tsoro size=8")
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := mancala.NewGame(rs)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rs.Full())
	fmt.Println(s.Position())
	fmt.Println(s.ToMove().Name(), "to move:", legalNames(s))
	// Output:
	// tsoro size=8 heads=right2 bonus=2
	// 2*,2*,2,2,2,2,2,2/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,2,2,2,2,2,2*,2* S
	// South to move: a1 a2 a3 a4 a5 a6 a7 a8
}

func ExampleState_Apply() {
	s, _ := mancala.NewGame(mancala.MustParseRuleset("tsoro size=8"))
	play := func(text string) {
		a, err := mancala.ParseAction(text)
		if err == nil {
			err = s.Apply(a)
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: turn start %v, %s to move\n", text, s.AtTurnStart(), s.ToMove().Name())
		if p := s.Pending(); p != "" {
			fmt.Println("  next:", p)
		}
	}
	play("c1") // not South's hole: refused, the game unchanged
	play("a1")
	play("d4") // the last stone lands in North's occupied head d2
	play("stop")
	// Output:
	// mancala: illegal action c1: you may only sow your own holes; legal actions are a1 a2 a3 a4 a5 a6 a7 a8
	// a1: turn start true, North to move
	// d4: turn start false, North to move
	//   next: relay from the head d2 or stop
	// stop: turn start true, South to move
}

func ExampleState_SetPosition() {
	s, _ := mancala.NewGame(mancala.MustParseRuleset("tsoro size=8"))
	// South has no stones left: the side to move cannot move and loses.
	err := s.SetPosition("2*,2*,2,2,2,2,2,2/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0*,0* S")
	fmt.Println(err, s.IsOver(), s.Outcome().Result, s.Outcome().Reason)
	err = s.SetPosition("2,2,2,2,2,2,2,2/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,2,2,2,2,2,2*,2* S")
	fmt.Println(err)
	// Output:
	// <nil> true N no legal action
	// mancala: bad position "2,2,2,2,2,2,2,2/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,2,2,2,2,2,2*,2* S": the heads marked are not those of tsoro size=8; its start position is 2*,2*,2,2,2,2,2,2/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,2,2,2,2,2,2*,2* S
}

func ExampleParseRecord() {
	r, err := mancala.ParseRecord(`[Ruleset "tsoro size=8"]
[Result "*"]
[South "Ada"]

1. a1 d4,d2 2. a7 d7 *`)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := r.Replay()
	if err != nil {
		fmt.Println(err)
		return
	}
	south, _ := r.Tag("South")
	fmt.Println(r.Ruleset, "played by", south, "-", len(r.Turns), "turns, result", r.Result)
	fmt.Println(s.Position())

	// An illegal action is reported with its turn and side.
	r.Turns[3] = []mancala.Action{mancala.Stop}
	_, err = r.Replay()
	fmt.Println(err)
	// Output:
	// tsoro size=8 played by Ada - 4 turns, result *
	// 3*,1*,4,1,0,3,0,2/1,1,0,0,0,0,0,0/0,0,0,0,0,0,1,2/0,3,0,3,3,0,0*,4* S
	// mancala: record turn 4 (North): illegal action stop: a turn starts by lifting one of your holes; legal actions are d1 d3 d5 d6 d7 d8
}

func ExampleRecorder() {
	s, _ := mancala.NewGame(mancala.MustParseRuleset("misoro-tsoro"))
	rec, _ := mancala.NewRecorder(s)
	rec.SetTag("Event", "Harare club night")
	// Head setup (heads=choose): South, North, South, North each name a head.
	for _, text := range []string{"a1", "d8", "a2", "d7", "a5", "d3"} {
		a, _ := mancala.ParseAction(text)
		if err := rec.Apply(a); err != nil {
			fmt.Println(err)
			return
		}
	}
	rec.SetResult(mancala.NorthWins) // South resigns
	fmt.Print(rec.Record())
	// Output:
	// [Ruleset "misoro-tsoro"]
	// [Result "N"]
	// [Event "Harare club night"]
	//
	// 1. a1 d8 2. a2 d7 3. a5 d3 N
}
