-- Up Migration
CREATE TABLE plans (
  name text PRIMARY KEY,
  api_access boolean NOT NULL
);
INSERT INTO plans (name, api_access) VALUES ('free', false), ('pro', true);

CREATE TABLE accounts (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  plan text NOT NULL REFERENCES plans (name),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE accounts;
DROP TABLE plans;
