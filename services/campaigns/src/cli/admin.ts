// The campaigns part of `npm run admin` (scripts/admin.mjs): `campaigns import FILE --account ID`.
import { parseArgs } from 'node:util';
import { AppError, ConfigError } from '@mailer/shared';
import { runImport, type CliIo } from './import-command';

const USAGE = 'usage: npm run admin -- campaigns import FILE --account ID\n';

/** Runs one CLI command and returns the exit code: 0 done, 1 refused or failed, 2 bad usage. */
export async function runAdmin(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { account: { type: 'string' } }, allowPositionals: true, strict: true });
  } catch (error) {
    io.stderr(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const [group, command, file, ...extra] = parsed.positionals;
  const account = parsed.values.account;
  if (group !== 'campaigns' || command !== 'import' || !file || extra.length > 0 || account === undefined) {
    io.stderr(USAGE);
    return 2;
  }
  if (!/^[1-9][0-9]{0,14}$/.test(account)) {
    io.stderr(`--account must be a positive integer account id, got "${account}"\n${USAGE}`);
    return 2;
  }
  try {
    return await runImport(file, Number(account), io);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof AppError) io.stderr(`${error.message}\n`);
    else io.stderr(`import failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

if (require.main === module) {
  void runAdmin(process.argv.slice(2), {
    env: process.env,
    cwd: process.env.INIT_CWD ?? process.cwd(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  }).then((code) => {
    process.exitCode = code;
  });
}
