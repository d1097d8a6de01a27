package storeutil

import (
	"testing"
	"testing/fstest"

	"matombo/internal/app"
	"matombo/mancala"
)

func TestMigrationsInOrder(t *testing.T) {
	fsys := fstest.MapFS{
		"m/0010_ten.sql": {Data: []byte("ten")},
		"m/0002_two.sql": {Data: []byte("two")},
		"m/0001_one.sql": {Data: []byte("one")},
		"m/README":       {Data: []byte("not a migration")},
	}
	ms, err := Migrations(fsys, "m")
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, m := range ms {
		got = append(got, m.Version)
	}
	if len(ms) != 3 || got[0] != 1 || got[1] != 2 || got[2] != 10 || ms[2].Body != "ten" || ms[0].Name != "0001_one.sql" {
		t.Errorf("migrations %+v", ms)
	}
}

func TestMigrationsBadNames(t *testing.T) {
	for _, files := range []fstest.MapFS{
		{"m/init.sql": {}},
		{"m/0000_zero.sql": {}},
		{"m/0001_a.sql": {}, "m/01_b.sql": {}},
	} {
		if _, err := Migrations(files, "m"); err == nil {
			t.Errorf("%v: no error", files)
		}
	}
}

func TestCheckInPlay(t *testing.T) {
	if err := CheckInPlay("g", 3, "*", 3); err != nil {
		t.Errorf("in play at the right ply: %v", err)
	}
	for _, tc := range []struct {
		plies  int
		result string
		want   int
	}{{3, "*", 2}, {3, "*", 4}, {3, "S", 3}, {0, "draw", 0}} {
		if err := CheckInPlay("g", tc.plies, tc.result, tc.want); app.ErrorCode(err) != app.EConflict {
			t.Errorf("CheckInPlay(%d, %s, %d) = %v, want a conflict", tc.plies, tc.result, tc.want, err)
		}
	}
}

func TestParseSide(t *testing.T) {
	if ParseSide("N") != mancala.North || ParseSide("S") != mancala.South {
		t.Error("ParseSide")
	}
}
