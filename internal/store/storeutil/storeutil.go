// Package storeutil holds what every app.Store implementation does the same
// way, whatever its database: reading numbered migrations and checking that
// a write finds its game in play at the expected ply.
package storeutil

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"matombo/internal/app"
	"matombo/mancala"
)

// MarshalHeaders encodes a game's record headers for the headers column: a
// JSON array of [key, value] pairs, in order.
func MarshalHeaders(tags []mancala.Tag) string {
	pairs := make([][2]string, len(tags))
	for i, t := range tags {
		pairs[i] = [2]string{t.Key, t.Value}
	}
	out, _ := json.Marshal(pairs) // strings always encode
	return string(out)
}

// UnmarshalHeaders decodes the headers column written by MarshalHeaders;
// an empty array gives nil.
func UnmarshalHeaders(data []byte) ([]mancala.Tag, error) {
	var pairs [][2]string
	if err := json.Unmarshal(data, &pairs); err != nil {
		return nil, fmt.Errorf("headers: %w", err)
	}
	var tags []mancala.Tag
	for _, p := range pairs {
		tags = append(tags, mancala.Tag{Key: p[0], Value: p[1]})
	}
	return tags, nil
}

// Migration is one numbered migration file, such as 0001_init.sql.
type Migration struct {
	Version int    // the file's number
	Name    string // the file's name
	Body    string // its SQL
}

// Migrations returns the *.sql files of fsys's directory dir in the order of
// their numbers; every file must be named like 0001_name.sql.
func Migrations(fsys fs.FS, dir string) ([]Migration, error) {
	names, err := fs.Glob(fsys, dir+"/*.sql")
	if err != nil {
		return nil, err
	}
	var out []Migration
	seen := map[int]string{}
	for _, name := range names {
		base := strings.TrimPrefix(name, dir+"/")
		num, _, _ := strings.Cut(base, "_")
		version, err := strconv.Atoi(num)
		if err != nil || version < 1 {
			return nil, fmt.Errorf("storeutil: migration %s is not numbered like 0001_name.sql", base)
		}
		if other, ok := seen[version]; ok {
			return nil, fmt.Errorf("storeutil: migrations %s and %s have the same number", other, base)
		}
		seen[version] = base
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		out = append(out, Migration{Version: version, Name: base, Body: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	return out, nil
}

// CheckInPlay returns an app.EConflict error unless game id, stored with
// plies actions and result, is in play with exactly want actions.
func CheckInPlay(id string, plies int, result string, want int) error {
	if result != "*" {
		return app.Errorf(app.EConflict, "game %s is over (%s); nothing more can be played", id, result)
	}
	if plies != want {
		return app.Errorf(app.EConflict, "stale ply %d: game %s is at ply %d", want, id, plies)
	}
	return nil
}

// RenamePlayer returns the players of a game, stored as the JSON array
// players, with side's player named name if its name is from, and the name
// in effect; changed says whether they differ from players.
func RenamePlayer(players []byte, side mancala.Player, from, name string) (out []byte, got string, changed bool, err error) {
	var ps [2]app.Player
	if err := json.Unmarshal(players, &ps); err != nil {
		return nil, "", false, fmt.Errorf("storeutil: players %q: %w", players, err)
	}
	if ps[side].Name != from {
		return players, ps[side].Name, false, nil
	}
	ps[side].Name = name
	out, err = json.Marshal(ps)
	return out, name, true, err
}

// ParseSide returns the side stored as "S" or "N".
func ParseSide(s string) mancala.Player {
	if s == "N" {
		return mancala.North
	}
	return mancala.South
}

// Sides encodes a set of sides for a column: "", "S", "N" or "SN".
func Sides(set [2]bool) string {
	out := ""
	for i, in := range set {
		if in {
			out += mancala.Player(i).String()
		}
	}
	return out
}

// ParseSides decodes a set of sides written by Sides.
func ParseSides(s string) [2]bool {
	return [2]bool{strings.Contains(s, "S"), strings.Contains(s, "N")}
}

// CheckInvite returns the error of a join by invite at side of game id
// whose invite at that side is stored as stored, with the sets of sides
// whose invites seat one player (once) and have seated them (taken); nil
// if the join may seat its player.
func CheckInvite(id string, side mancala.Player, stored, invite []byte, once, taken [2]bool) error {
	if len(stored) == 0 || !bytes.Equal(stored, invite) {
		return app.Errorf(app.EForbidden, "the invite code is not valid for game %s: a new link replaced it; ask for the new link", id)
	}
	if once[side] && taken[side] {
		return app.Errorf(app.EConflict, "this invite to game %s has seated its player already: it seats one opponent; ask whoever invited you for a new link", id)
	}
	return nil
}
