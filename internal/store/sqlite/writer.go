package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Writing transactions go through one writer goroutine that commits them
// in groups. SQLite has one writer per database; with every request
// beginning its own transaction, the requests queued at that lock (in
// SQLite's busy handler, which sleeps up to 100 ms a try, or at a mutex,
// where a lock holder preempted among thousands of goroutines holds up
// everyone) and a 1,000-actions/s load showed p99 latencies of 100 ms to
// 2 s. The writer instead takes every job waiting when it starts a
// transaction, runs each inside its own savepoint (a job that fails is
// rolled back alone), and commits once: the busier the server, the larger
// the groups, and no job waits for more than the group before it. A job's
// caller returns only after the commit that holds its changes.
//
// The group's transaction belongs to no one caller: a job runs with the
// group's context, not its caller's, since a context cancelled while a
// statement runs interrupts it (sqlite3_interrupt), and SQLite then rolls
// back the whole transaction, every job of the group with it. A caller
// that goes away (or whose deadline passes) before its job starts has
// nothing written; once its job has started, the job completes with the
// group. Deadlines bound both waits: a job not started within writeTimeout
// of its call (or by its caller's deadline) is not run, and a group's
// transaction has writeTimeout to commit, after which all of it is rolled
// back and every job of the group told so.

// maxGroup bounds the jobs of one transaction.
const maxGroup = 256

// writeTimeout bounds a write's wait for its group to start, and each
// group's transaction.
const writeTimeout = 10 * time.Second

// writeJob is one transaction's worth of work: f's changes are kept if f
// returns nil and the group commits. f runs with the group's context.
type writeJob struct {
	ctx  context.Context // the caller's, with the start deadline: a job whose ctx is done before it starts is not run
	f    func(context.Context, *sql.Tx) error
	done chan error // receives the job's outcome, once
}

// errClosed is the outcome of a write asked of a closed store.
var errClosed = errors.New("sqlite: the store is closed; nothing was written")

// startWriter starts the writer goroutine.
func (s *Store) startWriter() {
	s.jobs = make(chan *writeJob, maxGroup)
	s.quit = make(chan struct{})
	s.stopped = make(chan struct{})
	go s.writer()
}

// stopWriter lets the writer finish the jobs already queued and waits for
// it to stop. Calling it again only waits.
func (s *Store) stopWriter() {
	s.stopOnce.Do(func() { close(s.quit) })
	<-s.stopped
}

// tx runs f in a transaction, committed with the writer's current group,
// and returns f's error or the commit's. f gets the group's context, which
// its caller cannot cancel: f must use it, not ctx. A write not started
// by ctx's deadline, or within writeTimeout, is not run.
func (s *Store) tx(ctx context.Context, f func(context.Context, *sql.Tx) error) error {
	ctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	j := &writeJob{ctx: ctx, f: f, done: make(chan error, 1)}
	select {
	case s.jobs <- j:
	case <-s.quit:
		return errClosed
	case <-ctx.Done():
		return notStarted(ctx)
	}
	select {
	case err := <-j.done:
		return err
	case <-s.stopped:
		select { // the writer may have finished j just before stopping
		case err := <-j.done:
			return err
		default:
			return errClosed
		}
	}
}

// writer commits the queued jobs in groups until the store closes, then
// commits what is still queued.
func (s *Store) writer() {
	defer close(s.stopped)
	group := make([]*writeJob, 0, maxGroup)
	for {
		select {
		case j := <-s.jobs:
			group = append(group[:0], j)
		case <-s.quit:
			for {
				group = s.drain(group[:0])
				if len(group) == 0 {
					return
				}
				s.commitGroup(group)
			}
		}
		s.commitGroup(s.drain(group))
	}
}

// drain adds the jobs waiting in the queue to group, up to maxGroup.
func (s *Store) drain(group []*writeJob) []*writeJob {
	for len(group) < maxGroup {
		select {
		case j := <-s.jobs:
			group = append(group, j)
		default:
			return group
		}
	}
	return group
}

// commitGroup runs the jobs of group in one transaction, each in a
// savepoint, and tells each its outcome after the commit.
func (s *Store) commitGroup(group []*writeJob) {
	outcomes := make([]error, len(group))
	fail := func(err error) {
		for _, j := range group {
			j.done <- err
		}
	}
	// The transaction belongs to no one request: a caller that goes away
	// must not roll back the others' work (see the top of this file).
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		fail(fmt.Errorf("sqlite: begin: %w", err))
		return
	}
	for i, j := range group {
		if j.ctx.Err() != nil {
			outcomes[i] = notStarted(j.ctx)
			continue
		}
		if _, err := tx.ExecContext(ctx, `SAVEPOINT job`); err != nil {
			tx.Rollback()
			fail(fmt.Errorf("sqlite: savepoint: %w", err))
			return
		}
		outcomes[i] = j.f(ctx, tx)
		if outcomes[i] != nil {
			if _, err := tx.ExecContext(ctx, `ROLLBACK TO job`); err != nil {
				tx.Rollback()
				fail(fmt.Errorf("sqlite: roll back a failed write (%v): %w", outcomes[i], err))
				return
			}
		}
		if _, err := tx.ExecContext(ctx, `RELEASE job`); err != nil {
			tx.Rollback()
			fail(fmt.Errorf("sqlite: release savepoint: %w", err))
			return
		}
	}
	if err := tx.Commit(); err != nil {
		fail(fmt.Errorf("sqlite: commit (the writes of the group are rolled back): %w", err))
		return
	}
	for i, j := range group {
		j.done <- outcomes[i]
	}
}

// notStarted is the outcome of a write whose ctx ended before it started.
func notStarted(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("sqlite: the write did not start by its deadline (at most %v); nothing was written: %w", writeTimeout, ctx.Err())
	}
	return fmt.Errorf("sqlite: the caller went away before the write started; nothing was written: %w", ctx.Err())
}
