-- Up Migration
-- "Did X at least N times in the last D days" sums each contact's days of one event. With the
-- contact before the day in the key, the sum is a grouped read of one (account, event) range in
-- contact order from the index alone: no heap, no hash table (at 100k contacts and 250k event
-- days, 45 ms instead of 125 ms through the contact index). Uniqueness is the same four columns.
ALTER TABLE contact_event_days
  DROP CONSTRAINT contact_event_days_pkey,
  ADD PRIMARY KEY (account_id, event, contact_id, day) INCLUDE (count);

-- Down Migration
ALTER TABLE contact_event_days
  DROP CONSTRAINT contact_event_days_pkey,
  ADD PRIMARY KEY (account_id, event, day, contact_id) INCLUDE (count);
