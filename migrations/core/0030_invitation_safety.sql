-- Meeting invitations to addresses outside the platform (issue 30: an open mail relay).
-- Each host's budget of outside addresses, in a window that starts with the first of them (taken
-- before the meeting is made, so no foreign key: account deletion removes the row itself).
CREATE TABLE invitation_budgets (
  host_id INTEGER PRIMARY KEY,
  window_start INTEGER NOT NULL,
  used INTEGER NOT NULL
);

-- Addresses whose owner asked for no more meeting mail (by the link in it): a hash, never the address.
CREATE TABLE mail_opt_outs (
  address_hash TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL
);

-- The local outbox keeps a mail's extra headers (List-Unsubscribe) as the provider would send them.
ALTER TABLE mail_outbox ADD COLUMN headers TEXT;
