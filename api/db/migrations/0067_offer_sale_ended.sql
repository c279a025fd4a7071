-- Safe to run again (IF EXISTS / IF NOT EXISTS): an operator may re-apply the newest migration by hand.
-- An active offer whose sale end (0064) has passed is 'ended': the listings, their counts, search
-- and its words go by status = 'active', so it leaves them all at once, while its page still says
-- «Ya no está a la venta». The sale-end job, every minute, ends those whose last day in Madrid
-- has gone, through the index below (the active offers with an end: few beside the catalogue).
ALTER TABLE offers DROP CONSTRAINT IF EXISTS offers_status_check;
ALTER TABLE offers ADD CONSTRAINT offers_status_check CHECK (status IN ('draft','pending_review','active','paused','ended','archived'));
CREATE INDEX IF NOT EXISTS offers_sale_until_idx ON offers (sale_until) WHERE status = 'active' AND sale_until IS NOT NULL;
UPDATE offers SET status = 'ended' WHERE status = 'active' AND sale_until < (now() AT TIME ZONE 'Europe/Madrid')::date;
