-- A voucher once per person, not only once per account row (newcomer walk): an account deleted and signed up
-- again with the same address is a new row, and could redeem BISAYA30 again. Each redemption keeps the
-- SHA-256 of the address it was made with (lower case); erasure keeps it (product.md#erasure: a pseudonym
-- kept only so a code is not given twice to one address).
ALTER TABLE voucher_redemptions ADD COLUMN email_hash text;
UPDATE voucher_redemptions x SET email_hash = encode(sha256(convert_to(lower(u.email), 'UTF8')), 'hex')
  FROM users u WHERE u.id = x.user_id AND u.deleted_at IS NULL;
CREATE INDEX voucher_redemptions_email ON voucher_redemptions (code, email_hash);
