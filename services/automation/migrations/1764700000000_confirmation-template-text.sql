-- Up Migration
-- The confirmation email's own text part; NULL (every template saved before) keeps the text
-- generated from the HTML, as a workflow step without `text` has.
ALTER TABLE confirmation_templates ADD COLUMN text text;

-- Down Migration
ALTER TABLE confirmation_templates DROP COLUMN text;
