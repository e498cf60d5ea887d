-- The local outbox honours a message's idempotency key as the mail provider does: a repeat is kept once.
ALTER TABLE mail_outbox ADD COLUMN idempotency_key TEXT;
CREATE UNIQUE INDEX mail_outbox_key ON mail_outbox (idempotency_key) WHERE idempotency_key IS NOT NULL;
