package storetest

import (
	"bytes"
	"context"
	"testing"

	"matombo/internal/app"
)

// ReviewStore is a game store that keeps finished reviews too.
type ReviewStore interface {
	app.Store
	app.ReviewStore
}

// RunReviews runs the suite of app.ReviewStore; newStore returns an empty
// store, closed by the suite.
func RunReviews(t *testing.T, newStore func(t *testing.T) ReviewStore) {
	ctx := context.Background()
	s := newStore(t)
	defer s.Close()
	if body, err := s.StoredReview(ctx, "g1", "level 6"); err != nil || body != nil {
		t.Fatalf("a review never stored: %q, %v; want none", body, err)
	}
	first, second := []byte(`{"turns":[1]}`), []byte(`{"turns":[2]}`)
	if err := s.PutReview(ctx, "g1", "level 6", first); err != nil {
		t.Fatal(err)
	}
	if err := s.PutReview(ctx, "g1", "level 4", second); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		limits string
		want   []byte
	}{{"level 6", first}, {"level 4", second}} {
		if body, err := s.StoredReview(ctx, "g1", c.limits); err != nil || !bytes.Equal(body, c.want) {
			t.Errorf("review of g1 at %s: %q, %v; want %q", c.limits, body, err, c.want)
		}
	}
	if err := s.PutReview(ctx, "g1", "level 6", second); err != nil { // made again: replaced
		t.Fatal(err)
	}
	if body, err := s.StoredReview(ctx, "g1", "level 6"); err != nil || !bytes.Equal(body, second) {
		t.Errorf("review replaced: %q, %v; want %q", body, err, second)
	}
	if body, err := s.StoredReview(ctx, "g2", "level 6"); err != nil || body != nil {
		t.Errorf("another game's review: %q, %v; want none", body, err)
	}
}
