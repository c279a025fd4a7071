-- Safe to run again (IF NOT EXISTS): an operator may re-apply the newest migration by hand.
-- «De parte de»: who gives a gift, as they typed it at checkout; shown on the gift's page, PDF and mail.
ALTER TABLE sale_items ADD COLUMN IF NOT EXISTS gift_sender_name text;
