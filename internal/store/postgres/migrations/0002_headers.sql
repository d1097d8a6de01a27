-- The headers of an imported record other than Ruleset, Position and
-- Result (which have columns of their own), kept so that its export gives
-- them back in their order: a JSON array of [key, value] pairs.
ALTER TABLE games ADD COLUMN headers JSONB NOT NULL DEFAULT '[]';
