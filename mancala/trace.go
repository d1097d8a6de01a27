package mancala

// EventKind says what a traced Event is.
type EventKind uint8

// The events of a traced action, in the order they happen.
const (
	// EventSow is a lap: Stones are lifted from From and sown, one a hole,
	// anticlockwise (or Clockwise), the last landing in To.
	EventSow EventKind = iota + 1
	// EventTake: Stones leave the board from From (a capture, a bonus pick or
	// an Nsolo stone removal).
	EventTake
	// EventMove: Stones move from From into To (a Choro capture into the
	// lap's origin).
	EventMove
	// EventLapLimit: the turn ends at To because its last lap reached the
	// 1,000-lap limit.
	EventLapLimit
)

// String returns the kind as the web app names it: "sow", "take", "move"
// or "lap-limit".
func (k EventKind) String() string {
	switch k {
	case EventSow:
		return "sow"
	case EventTake:
		return "take"
	case EventMove:
		return "move"
	case EventLapLimit:
		return "lap-limit"
	}
	return "event"
}

// Event is one step of an action as it happened on the board, for animation
// and teaching: the laps sown and the stones captured.
type Event struct {
	Kind      EventKind
	From, To  Hole
	Stones    int
	Clockwise bool
	// Step is the lockstep step of the simultaneous Choro opening in which
	// the event happens (a lap: its first drop; a capture: the judging), from
	// 1; 0 outside that opening. Laps of both players with the same Step are
	// sown together, a stone a step each.
	Step int
}

// ApplyTraced is Apply that also appends to events what happened on the
// board, lap by lap, and returns the extended slice. Tracing costs nothing
// when it is not asked for.
func (s *State) ApplyTraced(a Action, events []Event) ([]Event, error) {
	s.trace = &events
	err := s.Apply(a)
	s.trace = nil
	return events, err
}

func (s *State) event(kind EventKind, p Player, i int, q Player, j, stones int, clockwise bool) {
	*s.trace = append(*s.trace, Event{Kind: kind, From: s.hole(p, i), To: s.hole(q, j), Stones: stones, Clockwise: clockwise})
}
