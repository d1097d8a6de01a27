package mancala

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Game records (RULES.md §5): header lines [Key "value"], then the turns,
// each its written actions joined by ",", turns separated by white space and
// optionally numbered like PGN, then optionally the result.
//
//	[Ruleset "tsoro size=8"]
//	[Result "S"]
//	[South "Ada"]
//
//	1. a7,stop d2 2. b2,xd4,xc7 ... S
//
// Numbering: move number k holds South's turn then North's turn, "k." before
// South's turn and "k..." before North's when it opens a line of play (a
// record whose Position header has North to move starts "1... d6").
// Numbers are optional, on any turn; each one given must be right.
//
// Turn numbers in errors count the turns of the record one by one from 1,
// whichever side plays them.

// The bounds of a record's headers: at most MaxHeaders header lines
// (Ruleset, Result and Position included), each value at most
// MaxHeaderValue bytes (a canonical Position of the largest board fits).
// ParseRecord refuses a record beyond them and SetTag a tag that would go
// beyond them, so every record has a bounded set of headers.
const (
	MaxHeaders     = 64
	MaxHeaderValue = 1000
)

// Tag is a header of a record other than Ruleset, Position and Result, such
// as [South "Ada"] or [Date "2026.12.01"].
type Tag struct {
	Key   string
	Value string
}

// Record is a game record: the rules, the position the game started from,
// the turns played and the result, with free-form tags.
//
// The Result of a game that has ended must be the one the rules give it. A
// game not over (by the rules) may carry any result: "*" while it is in
// play, or a win or draw agreed or decided outside the rules (a resignation,
// a time forfeit, an adjudication by a person). As such a game may stop at
// any moment, its last turn may be unfinished (a player may resign at a head
// decision); every other turn must be complete.
type Record struct {
	Ruleset  Ruleset
	Position string // start position in notation; "" for the ruleset's start
	Result   Result
	Tags     []Tag      // other headers, in the order given
	Turns    [][]Action // each turn's written actions, in order
}

// RecordError is a record that cannot be read or replayed. Line, Turn and
// Action locate the fault when known (1-based; 0 when not known).
type RecordError struct {
	Line   int    // line of the record text
	Turn   int    // turn of the record, counted from 1
	Side   string // "South" or "North" when Turn is set
	Action int    // action within the turn, counted from 1
	Text   string // the text at fault (a header, a token or an action)
	Reason string // what was wrong and what is allowed ("" when Err says it all)
	Err    error  // the underlying error, if any (such as the engine's refusal)
}

// Error describes the fault: "mancala: record line 3 turn 5 (North): …".
func (e *RecordError) Error() string {
	var b strings.Builder
	b.WriteString("mancala: record")
	if e.Line > 0 {
		fmt.Fprintf(&b, " line %d", e.Line)
	}
	if e.Turn > 0 {
		fmt.Fprintf(&b, " turn %d", e.Turn)
		if e.Side != "" {
			fmt.Fprintf(&b, " (%s)", e.Side)
		}
	}
	b.WriteString(": ")
	b.WriteString(e.Reason)
	if e.Err != nil {
		if e.Reason != "" {
			b.WriteString(": ")
		}
		b.WriteString(strings.TrimPrefix(e.Err.Error(), "mancala: "))
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *RecordError) Unwrap() error { return e.Err }

// resultNames lists the written results, as in the Result header and the
// trailing result token.
var resultNames = map[string]Result{"S": SouthWins, "N": NorthWins, "draw": Draw, "*": NoResult}

// ParseResult reads a result as written in records: "S", "N", "draw" or "*".
func ParseResult(s string) (Result, error) {
	r, ok := resultNames[s]
	if !ok {
		return 0, fmt.Errorf("mancala: %q is not a result; results are S, N, draw and * (in play)", s)
	}
	return r, nil
}

// startSide returns the side that plays the record's first turn.
func (r *Record) startSide() Player {
	if _, side, ok := strings.Cut(r.Position, " "); ok && strings.HasPrefix(side, "N") {
		return North
	}
	return South
}

// opensSimultaneously reports whether the record's first turn is a
// simultaneous Choro opening (RULES.md §3.4), written a6|d3.
func (r *Record) opensSimultaneously() bool {
	return r.Ruleset.Game == Choro && r.Ruleset.Opening == OpeningSimultaneous &&
		(r.Position == "" || strings.HasSuffix(r.Position, " S opening"))
}

// turnOrder says who plays each turn of a record, for move numbers.
type turnOrder struct {
	start        Player // the side of the first turn, or of the first turn after a simultaneous opening
	simultaneous bool   // the first turn is a simultaneous Choro opening, played by both
}

// order returns the record's turn order. After a simultaneous opening the
// side that plays first depends on the sowing, so the opening is played to
// find it; a record whose opening is missing or illegal numbers as if South
// played first (Replay then says what is wrong).
func (r *Record) order() turnOrder {
	o := turnOrder{start: r.startSide()}
	if !r.opensSimultaneously() {
		return o
	}
	o.simultaneous, o.start = true, South
	if len(r.Turns) == 0 {
		return o
	}
	s, err := r.Start()
	if err != nil {
		return o
	}
	for _, a := range r.Turns[0] {
		if s.Apply(a) != nil {
			return o
		}
	}
	if s.AtTurnStart() {
		o.start = s.ToMove()
	}
	return o
}

// turn returns the side playing turn t (0-based), its move number, and
// whether it is the simultaneous opening (both sides; side is then South,
// who chooses first). Move k holds South's turn then North's; after a
// simultaneous opening (move 1) the main phase starts at move 2, "2..."
// when North plays first.
func (o turnOrder) turn(t int) (side Player, num int, both bool) {
	if !o.simultaneous {
		k := t + int(o.start)
		return Player(k % 2), k/2 + 1, false
	}
	if t == 0 {
		return South, 1, true
	}
	k := t - 1 + int(o.start)
	return Player(k % 2), k/2 + 2, false
}

// actionSeparator returns how the actions of a turn are joined: "|" between
// the two choices of a simultaneous opening, "," otherwise.
func actionSeparator(both bool) string {
	if both {
		return "|"
	}
	return ","
}

// ReadingError is a record of Choro at its defaults (Driberg's reading)
// that cannot be read or replayed so, but can under the DLP's reading, the
// only Choro before the options of RULES.md §3.4: most likely a record made
// before them. Suggest is the ruleset to write in its Ruleset header.
type ReadingError struct {
	Err     error   // why the record fails under its own Ruleset header
	Suggest Ruleset // the reading it plays: DLPChoro()
}

// Error names the fault and the Ruleset header that makes the record play.
func (e *ReadingError) Error() string {
	return fmt.Sprintf("%v; this record plays the DLP reading: set [Ruleset %q]", e.Err, e.Suggest.String())
}

// Unwrap returns the error under the record's own Ruleset header.
func (e *ReadingError) Unwrap() error { return e.Err }

// suggestReading returns err as a *ReadingError when the record text, read
// as Choro's DLP reading instead of its default one, parses and replays;
// else err unchanged.
func suggestReading(text string, rs Ruleset, err error) error {
	if rs != Default(Choro) {
		return err
	}
	dlp := DLPChoro()
	p := recordParser{rec: &Record{}, reading: &dlp}
	if p.parse(text) != nil {
		return err
	}
	if _, rerr := p.rec.replay(); rerr != nil {
		return err
	}
	return &ReadingError{Err: err, Suggest: dlp}
}

// ParseRecord reads a game record (RULES.md §5). It checks the syntax, the
// headers (the Ruleset, Result and Position headers must be valid, Ruleset
// and Result are required, no header twice), the move numbers and the
// trailing result; whether the actions are legal is for Replay to say.
// A record of Choro at its defaults that reads only as the DLP's reading
// gets a *ReadingError saying so.
func ParseRecord(text string) (*Record, error) {
	p := recordParser{rec: &Record{}}
	if err := p.parse(text); err != nil {
		return nil, suggestReading(text, p.rec.Ruleset, err)
	}
	return p.rec, nil
}

type recordParser struct {
	rec       *Record
	reading   *Ruleset // when set, read the record as this ruleset instead of its header's
	line      int
	seen      map[string]bool
	order     turnOrder
	number    int // move number read and not yet followed by its turn (0: none)
	numberTok string
	numberAt  int
	trailing  string // the trailing result token, "" if none
}

func (p *recordParser) fail(reason string, text string) error {
	return &RecordError{Line: p.line, Text: text, Reason: reason}
}

func (p *recordParser) parse(text string) error {
	if !utf8.ValidString(text) {
		return &RecordError{Reason: "the record is not valid UTF-8 text"}
	}
	p.seen = map[string]bool{}
	text = strings.TrimPrefix(text, "\ufeff") // a byte order mark some editors write
	lines := strings.Split(text, "\n")
	inHeaders := true
	for i, raw := range lines {
		p.line = i + 1
		line := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "[") {
			if !inHeaders {
				return p.fail("header after the turns; headers come first, one per line", line)
			}
			if err := p.header(line); err != nil {
				return err
			}
			continue
		}
		if inHeaders {
			if err := p.endHeaders(); err != nil {
				return err
			}
			inHeaders = false
		}
		for _, tok := range strings.Fields(line) {
			if err := p.token(tok); err != nil {
				return err
			}
		}
	}
	if inHeaders {
		p.line = 0
		if err := p.endHeaders(); err != nil {
			return err
		}
	}
	if p.number != 0 {
		p.line = p.numberAt
		return p.fail(fmt.Sprintf("move number %q is not followed by a turn", p.numberTok), p.numberTok)
	}
	return nil
}

// header reads one line [Key "value"].
func (p *recordParser) header(line string) error {
	const form = `a header is [Key "value"]: a key of letters, digits and _, starting with a letter, then a quoted value with \" and \\ escapes`
	body, ok := strings.CutPrefix(line, "[")
	if ok {
		body, ok = strings.CutSuffix(body, "]")
	}
	if !ok {
		return p.fail(form, line)
	}
	body = strings.TrimSpace(body)
	k := 0
	for k < len(body) && isKeyByte(body[k], k == 0) {
		k++
	}
	key, rest := body[:k], body[k:]
	if key == "" || len(rest) == 0 || (rest[0] != ' ' && rest[0] != '\t') {
		return p.fail(form, line)
	}
	value, ok := unquoteValue(strings.TrimLeft(rest, " \t"))
	if !ok {
		return p.fail(form, line)
	}
	if p.seen[key] {
		return p.fail(fmt.Sprintf("header %s given twice; each header may appear once", key), line)
	}
	if len(p.seen) >= MaxHeaders {
		return p.fail(fmt.Sprintf("more than %d headers; a record has at most %d headers, Ruleset, Result and Position included", MaxHeaders, MaxHeaders), key)
	}
	if len(value) > MaxHeaderValue {
		return p.fail(fmt.Sprintf("header %s has a value of %d bytes; a header value is at most %d bytes", key, len(value), MaxHeaderValue), key)
	}
	p.seen[key] = true
	switch key {
	case "Ruleset":
		rs, err := ParseRuleset(value)
		if err != nil {
			return &RecordError{Line: p.line, Text: line, Reason: "bad Ruleset header", Err: err}
		}
		p.rec.Ruleset = rs
	case "Result":
		r, err := ParseResult(value)
		if err != nil {
			return &RecordError{Line: p.line, Text: line, Reason: "bad Result header", Err: err}
		}
		p.rec.Result = r
	case "Position":
		if value == "" {
			return p.fail("the Position header is empty; leave it out to start from the ruleset's start position", line)
		}
		p.rec.Position = value
	default:
		p.rec.Tags = append(p.rec.Tags, Tag{Key: key, Value: value})
	}
	return nil
}

// endHeaders checks the headers once they have all been read: Ruleset and
// Result are required, and the Position must fit the ruleset.
func (p *recordParser) endHeaders() error {
	line := p.line
	p.line = 0
	defer func() { p.line = line }()
	if !p.seen["Ruleset"] {
		return p.fail(`no Ruleset header; a record starts with headers such as [Ruleset "tsoro size=8"] and [Result "*"]`, "")
	}
	if !p.seen["Result"] {
		return p.fail(`no Result header; add [Result "S"], [Result "N"], [Result "draw"] or [Result "*"] (in play)`, "")
	}
	if p.reading != nil {
		p.rec.Ruleset = *p.reading
	}
	if p.rec.Position != "" {
		s, err := NewGame(p.rec.Ruleset)
		if err != nil {
			return &RecordError{Reason: "bad Ruleset header", Err: err}
		}
		if err := s.SetPosition(p.rec.Position); err != nil {
			return &RecordError{Text: p.rec.Position, Reason: "bad Position header", Err: err}
		}
		p.rec.Position = s.Position()
	}
	p.order = p.rec.order()
	return nil
}

// token reads one token of the turns: a move number, a turn, or the result.
func (p *recordParser) token(tok string) error {
	if p.trailing != "" {
		return p.fail(fmt.Sprintf("%q after the result %s; the result ends the record", tok, p.trailing), tok)
	}
	if r, ok := resultNames[tok]; ok {
		if p.number != 0 {
			return p.fail(fmt.Sprintf("move number %q is followed by the result, not a turn", p.numberTok), p.numberTok)
		}
		if r != p.rec.Result {
			return p.fail(fmt.Sprintf("the result after the turns is %s but the Result header says %s; they must agree", tok, p.rec.Result), tok)
		}
		p.trailing = tok
		return nil
	}
	if tok[0] >= '0' && tok[0] <= '9' {
		rest, err := p.moveNumber(tok)
		if err != nil || rest == "" {
			return err
		}
		tok = rest
	}
	t := len(p.rec.Turns)
	side, _, both := p.order.turn(t)
	fail := func(k int, reason string, err error) error {
		return &RecordError{Line: p.line, Turn: t + 1, Side: side.Name(), Action: k, Text: tok, Reason: reason, Err: err}
	}
	parts := strings.Split(tok, actionSeparator(both))
	switch {
	case both && (strings.Contains(tok, ",") || len(parts) > 2):
		return fail(0, "the simultaneous opening is one turn of two choices, South's then North's, joined by \"|\", such as a6|d3", nil)
	case !both && strings.Contains(tok, "|"):
		return fail(0, "\"|\" joins only the two choices of a simultaneous Choro opening (the first turn of choro with opening=simultaneous); the actions of a turn are joined by \",\"", nil)
	}
	var turn []Action
	for k, text := range parts {
		a, err := ParseAction(text)
		if err != nil {
			reason := "bad action"
			if text == "" {
				reason = "empty action; a turn is its actions joined by \",\" with no spaces, such as a7,stop or b2,xd4,xc7"
				if both {
					reason = "empty choice; the simultaneous opening is written South's choice|North's choice, such as a6|d3"
				}
				err = nil
			}
			if both && k == 1 {
				side = North
			}
			return fail(k+1, reason, err)
		}
		turn = append(turn, a)
	}
	p.number = 0
	p.rec.Turns = append(p.rec.Turns, turn)
	if both {
		p.order = p.rec.order()
	}
	return nil
}

// moveNumber reads a move number "12." or "12..." at the start of tok, checks
// it against the next turn, and returns the rest of tok (a turn written
// without a space after the number, or "").
func (p *recordParser) moveNumber(tok string) (string, error) {
	d := 0
	for d < len(tok) && tok[d] >= '0' && tok[d] <= '9' {
		d++
	}
	dots := 0
	for d+dots < len(tok) && tok[d+dots] == '.' {
		dots++
	}
	num, err := strconv.Atoi(tok[:d])
	if err != nil || (dots != 1 && dots != 3) || tok[0] == '0' {
		return "", p.fail(fmt.Sprintf("%q is not a move number or a turn; move numbers are written 12. before South's turn or 12... before North's", tok), tok)
	}
	if p.number != 0 {
		return "", p.fail(fmt.Sprintf("move number %q is followed by another move number, not a turn", p.numberTok), tok)
	}
	t := len(p.rec.Turns)
	side, want, _ := p.order.turn(t)
	wantDots := 1
	if side == North {
		wantDots = 3
	}
	if num != want || dots != wantDots {
		wantTok := strconv.Itoa(want) + strings.Repeat(".", wantDots)
		return "", &RecordError{Line: p.line, Turn: t + 1, Side: side.Name(), Text: tok,
			Reason: fmt.Sprintf("move number %q does not fit: turn %d is %s's, numbered %s", tok[:d+dots], t+1, side.Name(), wantTok)}
	}
	p.number, p.numberTok, p.numberAt = num, tok[:d+dots], p.line
	return tok[d+dots:], nil
}

func isKeyByte(c byte, first bool) bool {
	switch {
	case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		return true
	case c >= '0' && c <= '9', c == '_':
		return !first
	}
	return false
}

// unquoteValue reads a quoted header value that makes up all of s, with \"
// and \\ as its only escapes and no control characters.
func unquoteValue(s string) (string, bool) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", false
	}
	var b strings.Builder
	for i := 1; i < len(s)-1; i++ {
		c := s[i]
		switch {
		case c == '\\':
			if i+1 >= len(s)-1 || (s[i+1] != '"' && s[i+1] != '\\') {
				return "", false
			}
			i++
			b.WriteByte(s[i])
		case c == '"', c < 0x20, c == 0x7f:
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

func quoteValue(v string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + `"`
}

// checkTag reports whether a tag can be written and read back: a key as in
// [Key "value"] that is not one of the typed headers, and a value of valid
// UTF-8 without control characters, at most MaxHeaderValue bytes.
func checkTag(key, value string) error {
	ok := key != ""
	for i := 0; i < len(key); i++ {
		ok = ok && isKeyByte(key[i], i == 0)
	}
	if !ok {
		return fmt.Errorf("mancala: %q is not a header key; keys are letters, digits and _, starting with a letter", key)
	}
	if key == "Ruleset" || key == "Result" || key == "Position" {
		return fmt.Errorf("mancala: header %s is set by the record itself, not as a tag", key)
	}
	if !utf8.ValidString(value) || strings.ContainsFunc(value, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return fmt.Errorf("mancala: header %s: the value %q has control characters or is not UTF-8; values are one line of text", key, value)
	}
	if len(value) > MaxHeaderValue {
		return fmt.Errorf("mancala: header %s: the value has %d bytes; a header value is at most %d bytes", key, len(value), MaxHeaderValue)
	}
	return nil
}

// SetTag sets the tag key to value, replacing a tag of the same key or
// adding it at the end. Ruleset, Position and Result are fields of the
// record, not tags. Values are one line of UTF-8 text of at most
// MaxHeaderValue bytes; a tag that would take the record beyond MaxHeaders
// headers is refused (so a replacement scans at most MaxHeaders tags).
func (r *Record) SetTag(key, value string) error {
	if err := checkTag(key, value); err != nil {
		return err
	}
	for i := range r.Tags {
		if r.Tags[i].Key == key {
			r.Tags[i].Value = value
			return nil
		}
	}
	n := 2 + len(r.Tags) // Ruleset and Result
	if r.Position != "" {
		n++
	}
	if n >= MaxHeaders {
		return fmt.Errorf("mancala: header %s: the record has %d headers already; a record has at most %d", key, n, MaxHeaders)
	}
	r.Tags = append(r.Tags, Tag{key, value})
	return nil
}

// Tag returns the value of the tag key, and whether it is set.
func (r *Record) Tag(key string) (string, bool) {
	for _, t := range r.Tags {
		if t.Key == key {
			return t.Value, true
		}
	}
	return "", false
}

// Equal reports whether r and o are the same record: same rules, start,
// result, tags (in order) and turns.
func (r *Record) Equal(o *Record) bool {
	if r.Ruleset != o.Ruleset || r.Position != o.Position || r.Result != o.Result ||
		len(r.Tags) != len(o.Tags) || len(r.Turns) != len(o.Turns) {
		return false
	}
	for i := range r.Tags {
		if r.Tags[i] != o.Tags[i] {
			return false
		}
	}
	for i := range r.Turns {
		if len(r.Turns[i]) != len(o.Turns[i]) {
			return false
		}
		for j := range r.Turns[i] {
			if r.Turns[i][j] != o.Turns[i][j] {
				return false
			}
		}
	}
	return true
}

// recordWidth is the column at which String wraps the turns.
const recordWidth = 80

// Headers returns every header of r in the order String prints them:
// Ruleset, Position (if any), Result, then the tags in their order.
func (r *Record) Headers() []Tag {
	h := []Tag{{"Ruleset", r.Ruleset.String()}}
	if r.Position != "" {
		h = append(h, Tag{"Position", r.Position})
	}
	h = append(h, Tag{"Result", r.Result.String()})
	return append(h, r.Tags...)
}

// String prints r canonically: the Ruleset header, the Position header if
// any, the Result header, the tags in their order, a blank line, then the
// numbered turns wrapped at 80 columns and the result. ParseRecord reads it
// back to an Equal record, provided its tags are as SetTag accepts them and
// its turns are non-empty lists of valid actions (as ParseRecord and
// Recorder make them).
func (r *Record) String() string {
	var b strings.Builder
	for _, t := range r.Headers() {
		fmt.Fprintf(&b, "[%s %s]\n", t.Key, quoteValue(t.Value))
	}
	b.WriteByte('\n')
	width := 0
	put := func(unit string) {
		switch {
		case width == 0:
		case width+1+len(unit) > recordWidth:
			b.WriteByte('\n')
			width = 0
		default:
			b.WriteByte(' ')
			width++
		}
		b.WriteString(unit)
		width += len(unit)
	}
	turns := r.WrittenTurns()
	for t, w := range turns {
		put(w.prefix(t, turns) + w.Text)
	}
	put(r.Result.String())
	b.WriteByte('\n')
	return b.String()
}

// Start returns the state the record's game starts from: the ruleset's start
// or the Position header.
func (r *Record) Start() (*State, error) {
	s, err := NewGame(r.Ruleset)
	if err != nil {
		return nil, &RecordError{Reason: "bad ruleset", Err: err}
	}
	if r.Position != "" {
		if err := s.SetPosition(r.Position); err != nil {
			return nil, &RecordError{Text: r.Position, Reason: "bad Position header", Err: err}
		}
	}
	return s, nil
}

// Replay plays the record from its start and returns the final state. It
// checks that every action is legal, that each turn ends exactly after its
// last written action (only the last turn may be unfinished: the game then
// stopped mid-turn, in play or ended outside the rules), and that a game the
// rules have ended carries their result. Errors are *RecordError naming the
// turn, the side and the action; a record of Choro at its defaults that
// replays only as the DLP's reading gets a *ReadingError saying so.
func (r *Record) Replay() (*State, error) {
	s, err := r.replay()
	if err != nil && r.Ruleset == Default(Choro) {
		dlp := *r
		dlp.Ruleset = DLPChoro()
		if _, derr := dlp.replay(); derr == nil {
			return nil, &ReadingError{Err: err, Suggest: dlp.Ruleset}
		}
	}
	return s, err
}

// replay is Replay without the suggestion of another reading.
func (r *Record) replay() (*State, error) {
	s, err := r.Start()
	if err != nil {
		return nil, err
	}
	for t, turn := range r.Turns {
		side := s.ToMove()
		fail := func(k int, text, reason string, err error) error {
			return &RecordError{Turn: t + 1, Side: side.Name(), Action: k, Text: text, Reason: reason, Err: err}
		}
		if s.IsOver() {
			return nil, fail(0, "", fmt.Sprintf("the game ended after turn %d (%s, %s); %d turn(s) too many", t, s.Outcome().Result, s.Outcome().Reason, len(r.Turns)-t), nil)
		}
		if len(turn) == 0 {
			return nil, fail(0, "", "empty turn; a turn has one or more actions", nil)
		}
		for k, a := range turn {
			side = s.ToMove()
			if err := s.Apply(a); err != nil {
				reason := "" // the engine's error names the action: "illegal action d5: …"
				if !strings.Contains(err.Error(), " "+a.String()+":") {
					reason = "illegal action " + a.String()
				}
				return nil, fail(k+1, a.String(), reason, err)
			}
			done := s.AtTurnStart() || s.IsOver()
			switch {
			case done && k < len(turn)-1:
				return nil, fail(k+2, turn[k+1].String(), fmt.Sprintf("the turn ended after action %d (%s); surplus action(s) %s", k+1, a, joinActions(turn[k+1:])), nil)
			case !done && k == len(turn)-1 && t < len(r.Turns)-1:
				return nil, fail(k+1, a.String(), fmt.Sprintf("the turn does not end after its last action %s: it needs more actions (next: %s; legal actions are %s)", a, s.Pending(), joinSorted(s.Legal(nil))), nil)
			}
		}
	}
	if s.IsOver() && s.Outcome().Result != r.Result {
		o := s.Outcome()
		return nil, &RecordError{Text: r.Result.String(), Reason: fmt.Sprintf("the Result header says %s but the game ended %s (%s); a game the rules have ended must carry their result", r.Result, o.Result, o.Reason)}
	}
	return s, nil
}

func joinActions(as []Action) string {
	names := make([]string, len(as))
	for i, a := range as {
		names[i] = a.String()
	}
	return strings.Join(names, ",")
}

// joinSorted lists actions for people, in the order of SortActions.
func joinSorted(as []Action) string {
	as = slices.Clone(as)
	SortActions(as)
	names := make([]string, len(as))
	for i, a := range as {
		names[i] = a.String()
	}
	return strings.Join(names, " ")
}

// Recorder plays a game and records it: each action applied through it is
// added to the current turn, and a turn closes when the rules end it.
type Recorder struct {
	s      *State
	rec    Record
	turn   []Action
	result Result // a result set by hand (resignation); NoResult: none
}

// NewRecorder starts recording a game from s (which it copies; s is not
// changed). s must be at the start of a turn or over. If s is not at its
// ruleset's start position, the record gets a Position header; its replay
// then counts repetitions and turns afresh from there, as SetPosition does.
func NewRecorder(s *State) (*Recorder, error) {
	if !s.AtTurnStart() && !s.IsOver() {
		return nil, fmt.Errorf("mancala: a record starts at the start of a turn; this state is mid-turn (%s)", s.Pending())
	}
	r := &Recorder{s: s.Clone()}
	r.rec.Ruleset = s.Ruleset()
	if start, _ := StartPosition(s.Ruleset()); s.Position() != start {
		r.rec.Position = s.Position()
	}
	return r, nil
}

// State returns the game being recorded. Play it only through Apply, or the
// record no longer matches it.
func (r *Recorder) State() *State { return r.s }

// Apply plays a and records it. An illegal action is refused, with the
// engine's error, and nothing is recorded.
func (r *Recorder) Apply(a Action) error {
	if r.result != NoResult {
		return fmt.Errorf("mancala: the game was given the result %s; no more actions can be recorded", r.result)
	}
	if err := r.s.Apply(a); err != nil {
		return err
	}
	r.turn = append(r.turn, a)
	if r.s.AtTurnStart() || r.s.IsOver() {
		r.rec.Turns = append(r.rec.Turns, r.turn)
		r.turn = nil
	}
	return nil
}

// SetTag sets a tag of the record, as Record.SetTag.
func (r *Recorder) SetTag(key, value string) error { return r.rec.SetTag(key, value) }

// Tag returns the value of the header key, and whether it is set.
func (r *Recorder) Tag(key string) (string, bool) { return r.rec.Tag(key) }

// SetResult records a result decided outside the rules, such as a
// resignation, at any moment, even mid-turn; NoResult takes it back. It is
// refused once the rules have ended the game: their result stands.
func (r *Recorder) SetResult(res Result) error {
	if r.s.IsOver() {
		return fmt.Errorf("mancala: the game is over (%s by %s); its result stands", r.s.Outcome().Result, r.s.Outcome().Reason)
	}
	r.result = res
	return nil
}

// Record returns the record so far: every turn, the unfinished one included,
// and the result (the rules' result once the game is over, else the one set
// by SetResult, else "*"). The record is a copy.
func (r *Recorder) Record() *Record {
	rec := r.rec
	rec.Tags = append([]Tag(nil), r.rec.Tags...)
	rec.Turns = make([][]Action, 0, len(r.rec.Turns)+1)
	for _, t := range r.rec.Turns {
		rec.Turns = append(rec.Turns, append([]Action(nil), t...))
	}
	if len(r.turn) > 0 {
		rec.Turns = append(rec.Turns, append([]Action(nil), r.turn...))
	}
	if len(rec.Turns) == 0 {
		rec.Turns = nil
	}
	rec.Result = r.result
	if r.s.IsOver() {
		rec.Result = r.s.Outcome().Result
	}
	return &rec
}
