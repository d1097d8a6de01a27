package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"matombo/internal/store/storetest"
)

func TestReviewStore(t *testing.T) {
	storetest.RunReviews(t, func(t *testing.T) storetest.ReviewStore {
		s, err := Open(context.Background(), filepath.Join(t.TempDir(), "test.db"))
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
