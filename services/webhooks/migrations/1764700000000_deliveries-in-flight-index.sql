-- Up Migration
-- The claim's "no attempt in flight for this endpoint" test. Without it that test read every
-- delivery the endpoint ever had (succeeded ones too), on each claim: with a dead endpoint the
-- worker, woken by every queued fact, kept Postgres busy and slowed the whole machine's emails.
-- With it: the one in-flight row, or none.
CREATE INDEX deliveries_in_flight_idx ON deliveries (endpoint_id, lease_until) WHERE state = 'delivering';

-- Down Migration
DROP INDEX deliveries_in_flight_idx;
