-- Invoices and credit memos (issue 34, docs/product.md#invoices). Every successful payment gets a
-- sales invoice, every void or refund of one a credit memo naming it; each is a snapshot of what was
-- true when it was issued (the seller, the buyer, the plan, the money), numbered from one gap-free
-- series per kind, and never edited or deleted (the trigger below).

/* ------------------------------------------------------------------ the seller */

-- At most one row: the seller the documents name (SELLER_NAME, SELLER_TIN, SELLER_ADDRESS, written at
-- start by server/billing/invoices.ts `writeSeller`). Until settings name one it is a sample, and
-- every document issued under it says so.
CREATE TABLE invoice_seller (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  name text NOT NULL,
  -- With its branch code: 123-456-789-00000.
  tin text NOT NULL,
  address text NOT NULL,
  sample boolean NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
INSERT INTO invoice_seller (name, tin, address, sample)
VALUES ('Sine Bisaya (SAMPLE — not a registered seller)', '000-000-000-00000', 'Sample address, Cebu City, Cebu 6000, Philippines', true);

/* ------------------------------------------------------------------ the series */

-- One counter per series, bumped with UPDATE … SET last = last + 1 RETURNING last in the transaction
-- that decides the payment (or records the reversal): the row stays locked until that transaction
-- ends, so two processes never take one number, and a rollback gives the number back (no gap).
CREATE TABLE document_series (
  series text PRIMARY KEY CHECK (series IN ('INVOICE', 'CREDIT_MEMO')),
  prefix text NOT NULL,
  last bigint NOT NULL DEFAULT 0 CHECK (last >= 0)
);
INSERT INTO document_series (series, prefix) VALUES ('INVOICE', 'SB-INV-'), ('CREDIT_MEMO', 'SB-CM-');

/* ------------------------------------------------------------------ the documents */

CREATE TABLE tax_documents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('INVOICE', 'CREDIT_MEMO')),
  -- The series' counter when it was taken, and the number printed: SB-INV-00000001, SB-CM-00000001.
  serial bigint NOT NULL CHECK (serial > 0),
  number text NOT NULL UNIQUE,
  -- An invoice: when the payment was paid. A credit memo: when the reversal was recorded.
  issued_at timestamptz NOT NULL,
  -- Never deleted with what it documents: a payment or account that has documents cannot be deleted.
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  payment_record_id uuid NOT NULL REFERENCES payment_records (id) ON DELETE RESTRICT,
  -- A credit memo: the invoice it credits.
  invoice_id uuid REFERENCES tax_documents (id) ON DELETE RESTRICT,
  seller_name text NOT NULL,
  seller_tin text NOT NULL,
  seller_address text NOT NULL,
  seller_sample boolean NOT NULL,
  buyer_name text NOT NULL,
  buyer_email text NOT NULL,
  buyer_tin text,
  -- What was sold, in English as issued (the sales book's words); the pages and PDFs write it in the
  -- reader's language from `purpose` and the plan's names.
  description text NOT NULL,
  purpose text NOT NULL CHECK (purpose IN ('PURCHASE', 'RENEWAL', 'PLAN_CHANGE')),
  plan_id integer REFERENCES plans (id),
  -- The plan's name in each language when issued: {"en": "Monthly", "ceb": "Binulan"}.
  plan_names jsonb NOT NULL CHECK (jsonb_typeof(plan_names) = 'object'),
  period_start timestamptz,
  period_end timestamptz,
  -- Positive on both kinds: a credit memo's amounts are what it takes back (docs/product.md#invoices).
  vatable numeric(12, 2) NOT NULL CHECK (vatable >= 0),
  vat numeric(12, 2) NOT NULL CHECK (vat >= 0),
  total numeric(12, 2) NOT NULL CHECK (total >= 0),
  currency text NOT NULL,
  payment_method text NOT NULL,
  card_type text,
  card_last4 text,
  reference_id text NOT NULL,
  maya_payment_id text,
  -- The buyer's language when issued (their mail's).
  language text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  CHECK (vatable + vat = total),
  CHECK ((kind = 'CREDIT_MEMO') = (invoice_id IS NOT NULL)),
  UNIQUE (kind, serial)
);
-- One invoice per successful payment, whichever path decided it; one credit memo per invoice.
CREATE UNIQUE INDEX tax_documents_one_invoice ON tax_documents (payment_record_id) WHERE kind = 'INVOICE';
CREATE UNIQUE INDEX tax_documents_one_memo ON tax_documents (invoice_id) WHERE kind = 'CREDIT_MEMO';
CREATE INDEX tax_documents_user ON tax_documents (user_id, issued_at DESC, serial DESC);
CREATE INDEX tax_documents_issued ON tax_documents (issued_at);

-- Issued documents are never edited or deleted. (TRUNCATE, an operator's act on the whole table, is
-- not a row's edit: the dev routes' reset of the demo data uses it; production has no dev routes.)
CREATE FUNCTION tax_documents_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'tax documents are never edited or deleted (% of %)', TG_OP, OLD.number USING ERRCODE = 'restrict_violation';
END;
$$;
CREATE TRIGGER tax_documents_never_change BEFORE UPDATE OR DELETE ON tax_documents
  FOR EACH ROW EXECUTE FUNCTION tax_documents_refuse_change();

/* ------------------------------------------------------------------ the buyer's TIN */

-- A viewer may give their TIN (with branch code) on their account; invoices issued after name it.
ALTER TABLE users ADD COLUMN tin text CHECK (tin IS NULL OR tin ~ '^[0-9]{3}-[0-9]{3}-[0-9]{3}-[0-9]{3,5}$');
