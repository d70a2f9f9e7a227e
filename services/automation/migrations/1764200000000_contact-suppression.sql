-- Up Migration
-- The standing suppression of each contact's address, as the contacts service's facts say (or as an
-- unsubscribe click or a bounce here said first): the pre-send check reads it (docs/consent.md).
ALTER TABLE contacts ADD COLUMN suppression text;

-- Down Migration
ALTER TABLE contacts DROP COLUMN suppression;
