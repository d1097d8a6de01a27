-- An invite seats one player (a friend game's link for the opponent) or a
-- team (the creator's link for team mates). invite_once holds the sides
-- whose invite seats one player, invite_taken those whose one player has
-- joined ("", "S", "N" or "SN"). A friend game created before these
-- columns gets them from its seats: the first seat is its creator's, so
-- the other side's invite seats one player, taken if that side has a seat.
ALTER TABLE games ADD COLUMN invite_once TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN invite_taken TEXT NOT NULL DEFAULT '';
UPDATE games SET invite_once = coalesce((
	SELECT CASE side WHEN 'S' THEN 'N' ELSE 'S' END FROM seats
	WHERE seats.game_id = games.id ORDER BY created, seq LIMIT 1), '')
WHERE mode = 'friend';
UPDATE games SET invite_taken = invite_once
WHERE invite_once <> '' AND EXISTS (SELECT 1 FROM seats WHERE seats.game_id = games.id AND seats.side = games.invite_once);
