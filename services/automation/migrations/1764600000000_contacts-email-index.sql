-- Up Migration
-- The account app finds a contact of the projection by address (activity filter, previews and test
-- sends for a chosen contact): without this, each is a scan of the account's contacts.
CREATE INDEX contacts_account_email_idx ON contacts (account_id, lower(email));

-- Down Migration
DROP INDEX contacts_account_email_idx;
