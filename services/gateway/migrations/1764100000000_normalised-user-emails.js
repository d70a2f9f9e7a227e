// Sign-in addresses are stored in their one normal form (NFKC, one full case fold, NFKC), so the
// lookup is plain equality and the throttle counts the same string the row holds. Written in JS,
// not SQL: Postgres's lower() follows the database's collation and differs from the fold the
// gateway applies (U+0130 is the case in point). This copy of the fold is frozen with the
// migration on purpose; the live one is src/domain/sign-in-identity.ts.
const fold = (raw) => raw.slice(0, 254).trim().normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');

// A dollar-quoted literal whose tag the text does not contain (no escaping rules to get wrong).
const quoted = (text) => {
  let tag = 'e';
  while (text.includes(`$${tag}$`)) tag += 'e';
  return `$${tag}$${text}$${tag}$`;
};

exports.up = async (pgm) => {
  const rows = await pgm.db.select('SELECT id, email FROM users ORDER BY id');
  const owners = new Map();
  // The old index (on lower(email)) goes first: it must not judge the rows halfway through.
  pgm.sql('DROP INDEX users_email_key');
  for (const row of rows) {
    const email = fold(row.email);
    const earlier = owners.get(email);
    if (earlier !== undefined) {
      // Two users who are one identity under the fold: an operator must decide which one stays.
      throw new Error(`users ${earlier} and ${row.id} have the same normalised email "${email}"; delete or rename one, then start again`);
    }
    owners.set(email, row.id);
    if (email !== row.email) pgm.sql(`UPDATE users SET email = ${quoted(email)} WHERE id = ${Number(row.id)}`);
  }
  pgm.sql('CREATE UNIQUE INDEX users_email_key ON users (email)');
};

exports.down = (pgm) => {
  // The normalised addresses stay (each is a valid spelling of its user); only the index returns.
  pgm.sql('DROP INDEX users_email_key');
  pgm.sql('CREATE UNIQUE INDEX users_email_key ON users (lower(email))');
};
