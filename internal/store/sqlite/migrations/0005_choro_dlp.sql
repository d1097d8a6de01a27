-- Choro gained options (RULES.md §3.4) and plain "choro" now means
-- Driberg's reading. Every game stored before, whose ruleset named the one
-- Choro there was, plays the DLP's reading: write it so. The old Choro
-- took only size=8 and opening=sequential, each at most once, in any
-- order; its canonical string, the one stored, was "choro". The ruleset is
-- compared with white space (space, tab, line feed, vertical tab, form
-- feed, carriage return) collapsed to single spaces and trimmed.
UPDATE games SET ruleset = 'choro opening=sequential cw=any leave=no'
WHERE trim(
	replace(replace(replace(replace(replace(
		replace(replace(replace(replace(replace(ruleset,
			char(9), ' '), char(10), ' '), char(11), ' '), char(12), ' '), char(13), ' '),
		'  ', ' '), '  ', ' '), '  ', ' '), '  ', ' '), '  ', ' ')
) IN (
	'choro',
	'choro size=8',
	'choro opening=sequential',
	'choro size=8 opening=sequential',
	'choro opening=sequential size=8'
);
