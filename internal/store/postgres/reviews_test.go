package postgres

import (
	"testing"

	"matombo/internal/store/postgres/pgtest"
	"matombo/internal/store/storetest"
)

func TestReviewStore(t *testing.T) {
	pgtest.DSN(t) // skip (or fail under CI) when there is no PostgreSQL
	storetest.RunReviews(t, func(t *testing.T) storetest.ReviewStore { return open(t, pgtest.Schema(t)) })
}
