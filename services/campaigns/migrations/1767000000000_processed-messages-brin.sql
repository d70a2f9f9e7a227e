-- Up Migration
-- The inbox pruner finds rows by age. Rows arrive in time order, so a BRIN index (a few pages,
-- next to nothing to maintain per insert) finds the old ones without a B-tree every consumed
-- message would have to update.
CREATE INDEX processed_messages_processed_at ON processed_messages USING brin (processed_at);

-- Down Migration
DROP INDEX processed_messages_processed_at;
