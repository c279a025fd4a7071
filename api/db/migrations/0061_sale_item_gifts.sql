-- Safe to run again (IF NOT EXISTS): an operator may re-apply the newest migration by hand.
-- A line bought as a gift (for_present) carries who it is for and the buyer's message. With an
-- email, the recipient's own mail is queued at payment in mail_outbox (dedupe_key 'gift:<sale
-- item id>', send_after 09:00 Madrid on gift_send_on, or at once without a day); that row's
-- status 'sent' and sent_at are when the gift was given.
ALTER TABLE sale_items ADD COLUMN IF NOT EXISTS gift_recipient_name text;
ALTER TABLE sale_items ADD COLUMN IF NOT EXISTS gift_recipient_email text;
ALTER TABLE sale_items ADD COLUMN IF NOT EXISTS gift_message text;
ALTER TABLE sale_items ADD COLUMN IF NOT EXISTS gift_send_on date;
