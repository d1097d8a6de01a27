-- Clocks (internal/app/clock.go): each game's time control, when the
-- decision in play began and when it ends the game, the offer waiting
-- for an answer, the takebacks accepted, whether the game is rated (it
-- has no takebacks); each
-- action's clock (the mover's time left after it, in milliseconds).
ALTER TABLE games ADD COLUMN time_control TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN clock_from INTEGER;  -- unix microseconds; NULL: the game's creation
ALTER TABLE games ADD COLUMN deadline INTEGER;    -- unix microseconds; NULL: none
ALTER TABLE games ADD COLUMN offer TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN takebacks INTEGER NOT NULL DEFAULT 0;  -- takebacks accepted: a view with more is newer whatever its ply
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE actions ADD COLUMN clock_ms INTEGER;  -- NULL: no clock
UPDATE games SET rated = 1 WHERE id IN (SELECT game_id FROM rated_games);
-- The sweeper's two questions: the games whose deadline has passed, and
-- the games without a clock nobody has acted in for a while.
CREATE INDEX games_due ON games (deadline) WHERE result = '*' AND deadline IS NOT NULL;
CREATE INDEX games_idle ON games (updated) WHERE result = '*' AND time_control = '' AND mode <> 'imported';
