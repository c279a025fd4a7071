-- What a partner is owed, the record: statements («liquidaciones») of an organisation's coupons,
-- one line per coupon whose facts changed since its last statement, numbered in yearly series;
-- the commission invoices they carry; and payouts. An issued statement, its lines and its payout
-- never change: the database refuses it (ADR 036).

-- The last number given in each series and year; taken in the issuing transaction, so numbers
-- are correlative without gaps (a rolled-back statement gives its number back).
CREATE TABLE document_numbers (
  series text NOT NULL,
  year integer NOT NULL,
  last integer NOT NULL,
  PRIMARY KEY (series, year)
);

CREATE TABLE statements (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations(id),
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL CHECK (period_end > period_start),
  number text UNIQUE,
  issued_at timestamptz,
  payable_on text NOT NULL CHECK (payable_on IN ('sold', 'redeemed', 'expiry')),
  -- Who is who, as on the day it was issued: {name, legal_name, tax_id, address, iban} and {name, tax_id, address}.
  partner jsonb NOT NULL,
  shop jsonb NOT NULL,
  vat_rate_bp integer NOT NULL,
  line_count integer NOT NULL DEFAULT 0,
  sold integer NOT NULL DEFAULT 0,
  refunded integer NOT NULL DEFAULT 0,
  redeemed integer NOT NULL DEFAULT 0,
  expired integer NOT NULL DEFAULT 0,
  gross_cents bigint NOT NULL DEFAULT 0,
  commission_cents bigint NOT NULL DEFAULT 0,
  vat_cents bigint NOT NULL DEFAULT 0,
  net_cents bigint NOT NULL DEFAULT 0,
  -- The commission newly owed, invoiced (series C), and the commission given back on lines an
  -- earlier invoice charged, in a rectifying invoice (series R) naming the invoices it rectifies.
  invoice_number text UNIQUE,
  invoice_base_cents bigint NOT NULL DEFAULT 0,
  invoice_vat_cents bigint NOT NULL DEFAULT 0,
  rectifying_number text UNIQUE,
  rectifying_base_cents bigint NOT NULL DEFAULT 0,
  rectifying_vat_cents bigint NOT NULL DEFAULT 0,
  rectified_invoices text[] NOT NULL DEFAULT '{}',
  -- A negative balance of the statement before, set off against this one.
  carried_from uuid REFERENCES statements(id),
  carried_cents bigint NOT NULL DEFAULT 0,
  payable_cents bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, period_start, period_end),
  CHECK (issued_at IS NULL OR number IS NOT NULL),
  CHECK (commission_cents = invoice_base_cents + rectifying_base_cents),
  CHECK (vat_cents = invoice_vat_cents + rectifying_vat_cents),
  CHECK (net_cents = gross_cents - commission_cents - vat_cents),
  CHECK (payable_cents = net_cents + carried_cents)
);
CREATE INDEX statements_organization_idx ON statements (organization_id, period_end DESC);
CREATE INDEX statements_issued_idx ON statements (issued_at DESC);

-- One line per coupon per statement: how each fact moved (+1, −1 or 0) since the coupon's last
-- statement, and the money that moved with them. Titles and dates are copied: a statement reads
-- the same in ten years, whatever happens to the offer.
CREATE TABLE statement_lines (
  statement_id uuid NOT NULL REFERENCES statements(id),
  line_no integer NOT NULL,
  organization_id uuid NOT NULL,
  coupon_id uuid NOT NULL REFERENCES coupons(id),
  sale_id uuid NOT NULL,
  code text NOT NULL,
  sold_at timestamptz NOT NULL,
  offer_title text NOT NULL,
  option_title text NOT NULL,
  redeemed_at timestamptz,
  refunded_at timestamptz,
  valid_until date,
  sold smallint NOT NULL CHECK (sold BETWEEN -1 AND 1),
  refunded smallint NOT NULL CHECK (refunded BETWEEN -1 AND 1),
  redeemed smallint NOT NULL CHECK (redeemed BETWEEN -1 AND 1),
  expired smallint NOT NULL CHECK (expired BETWEEN -1 AND 1),
  payable smallint NOT NULL CHECK (payable BETWEEN -1 AND 1),
  percent_bp integer,
  fixed_cents integer,
  gross_cents integer NOT NULL,
  commission_cents integer NOT NULL,
  vat_cents integer NOT NULL,
  net_cents integer NOT NULL,
  PRIMARY KEY (statement_id, line_no),
  CHECK (net_cents = gross_cents - commission_cents - vat_cents)
);
-- What was already stated of each coupon: the sum of its lines.
CREATE INDEX statement_lines_coupon_idx ON statement_lines (organization_id, coupon_id);

-- A payout: staff paid an issued statement by bank transfer.
CREATE TABLE statement_payouts (
  statement_id uuid PRIMARY KEY REFERENCES statements(id),
  paid_on date NOT NULL,
  transfer_reference text NOT NULL CHECK (length(transfer_reference) BETWEEN 1 AND 140),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  iban text NOT NULL,
  recorded_by uuid,
  recorded_at timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION statements_issued_stay() RETURNS trigger LANGUAGE plpgsql AS $issued$
BEGIN
  IF OLD.issued_at IS NOT NULL THEN
    RAISE EXCEPTION 'La liquidación % está emitida: no se modifica ni se borra.', OLD.number USING ERRCODE = 'check_violation';
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END
$issued$;
CREATE TRIGGER statements_immutable BEFORE UPDATE OR DELETE ON statements
  FOR EACH ROW EXECUTE FUNCTION statements_issued_stay();

CREATE FUNCTION money_record_stays() RETURNS trigger LANGUAGE plpgsql AS $stays$
BEGIN
  RAISE EXCEPTION '% es un registro de dinero: no se modifica ni se borra.', TG_TABLE_NAME USING ERRCODE = 'check_violation';
END
$stays$;
CREATE TRIGGER statement_lines_immutable BEFORE UPDATE OR DELETE ON statement_lines
  FOR EACH ROW EXECUTE FUNCTION money_record_stays();
CREATE TRIGGER statement_payouts_immutable BEFORE UPDATE OR DELETE ON statement_payouts
  FOR EACH ROW EXECUTE FUNCTION money_record_stays();
CREATE TRIGGER statements_no_truncate BEFORE TRUNCATE ON statements
  FOR EACH STATEMENT EXECUTE FUNCTION money_record_stays();
CREATE TRIGGER statement_lines_no_truncate BEFORE TRUNCATE ON statement_lines
  FOR EACH STATEMENT EXECUTE FUNCTION money_record_stays();
CREATE TRIGGER statement_payouts_no_truncate BEFORE TRUNCATE ON statement_payouts
  FOR EACH STATEMENT EXECUTE FUNCTION money_record_stays();

-- Lines join a statement only while it is being drafted, in its issuing transaction.
CREATE FUNCTION statement_lines_into_drafts() RETURNS trigger LANGUAGE plpgsql AS $drafts$
BEGIN
  IF EXISTS (SELECT 1 FROM statements s WHERE s.issued_at IS NOT NULL AND s.id IN (SELECT statement_id FROM new_lines)) THEN
    RAISE EXCEPTION 'Una liquidación emitida no admite líneas nuevas.' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END
$drafts$;
CREATE TRIGGER statement_lines_only_drafts AFTER INSERT ON statement_lines
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION statement_lines_into_drafts();

-- Only a payout of an issued statement.
CREATE FUNCTION statement_payouts_of_issued() RETURNS trigger LANGUAGE plpgsql AS $payout$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM statements s WHERE s.id = NEW.statement_id AND s.issued_at IS NOT NULL) THEN
    RAISE EXCEPTION 'Solo se paga una liquidación emitida.' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$payout$;
CREATE TRIGGER statement_payouts_issued BEFORE INSERT ON statement_payouts
  FOR EACH ROW EXECUTE FUNCTION statement_payouts_of_issued();
