// The contacts part of `npm run admin` (scripts/admin.mjs): `contacts untag --account ID --id N --tag T`.
// The REST interface only adds tags; removing one is an operator's (or the account app's) act.
import { parseArgs } from 'node:util';
import { reportCliFailure, runCliMain, withServiceDatabase, type CliIo } from '@mailer/shared';
import { loadContactsCliConfig } from '../config';
import { contactsDatabaseUrl, MIGRATIONS_DIR } from '../database';
import { removeContactTag } from '../domain/remove-contact-tag';

const USAGE = 'usage: npm run admin -- contacts untag --account ID --id CONTACT_ID --tag NAME\n';

const POSITIVE_ID = /^[1-9][0-9]{0,14}$/;

/** Runs one CLI command and returns the exit code: 0 done, 1 refused or failed, 2 bad usage. */
export async function runAdmin(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { account: { type: 'string' }, id: { type: 'string' }, tag: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    io.stderr(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { account, id, tag } = parsed.values;
  const [group, command, ...extra] = parsed.positionals;
  if (
    group !== 'contacts' ||
    command !== 'untag' ||
    extra.length > 0 ||
    !account ||
    !id ||
    tag === undefined
  ) {
    io.stderr(USAGE);
    return 2;
  }
  if (!POSITIVE_ID.test(account) || !POSITIVE_ID.test(id) || tag.trim() === '') {
    io.stderr(`--account and --id must be positive integers and --tag a tag name\n${USAGE}`);
    return 2;
  }
  try {
    const config = loadContactsCliConfig(io.env);
    const database = {
      service: 'contacts',
      databaseUrl: contactsDatabaseUrl(config),
      migrationsDir: MIGRATIONS_DIR,
      logLevel: config.LOG_LEVEL,
    };
    const contact = await withServiceDatabase(database, (pool) =>
      removeContactTag({ pool }, Number(account), Number(id), tag.trim()),
    );
    io.stdout(
      `${JSON.stringify({ data: { id: contact.id, email: contact.email, tags: contact.tags } }, null, 2)}\n`,
    );
    return 0;
  } catch (error) {
    return reportCliFailure(io, error, USAGE, command);
  }
}

if (require.main === module) runCliMain(runAdmin);
