-- Safe to run again (IF NOT EXISTS): an operator may re-apply the newest migration by hand.
-- The last day an offer is on sale, set by its partner (sold until 23:59 Madrid time that day);
-- null: on sale while active. Separate from valid_until, the last day a bought coupon can be used.
ALTER TABLE offers ADD COLUMN IF NOT EXISTS sale_until date;
