import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError, CommonErrorCodes, createLogger, createPool, migrateDatabase } from '@mailer/shared';
import { loadCampaignsCliConfig } from '../config';
import { campaignsDatabaseUrl, MIGRATIONS_DIR } from '../database';
import { importCampaigns, prepareCampaignImport } from '../domain/import-campaigns';

export interface CliIo {
  env: NodeJS.ProcessEnv;
  /** Where relative file names start: npm runs scripts from the repository root, INIT_CWD is the operator's. */
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

async function readJsonFile(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new AppError('CLI.BAD_FILE', `${file} is not valid JSON: ${(error as Error).message}`);
  }
}

function validate(json: unknown, file: string, io: CliIo) {
  try {
    return prepareCampaignImport(json);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== CommonErrorCodes.VALIDATION) throw error;
    io.stderr(`nothing imported from ${file}; ${error.messages.length} problem(s):\n`);
    for (const problem of error.messages) io.stderr(`  ${problem}\n`);
    return undefined;
  }
}

/** `campaigns import FILE --account ID`: validate the whole file, migrate, insert all or nothing. */
export async function runImport(file: string, accountId: number, io: CliIo): Promise<number> {
  const config = loadCampaignsCliConfig(io.env);
  const fullPath = path.resolve(io.cwd, file);
  // Refuse a bad file before touching the database: the operator fixes it and runs again.
  const campaigns = validate(await readJsonFile(fullPath), fullPath, io);
  if (!campaigns) return 1;
  const logger = createLogger('campaigns-cli', { level: config.LOG_LEVEL, destination: process.stderr });
  const databaseUrl = campaignsDatabaseUrl(config);
  await migrateDatabase({ databaseUrl, migrationsDir: MIGRATIONS_DIR, logger });
  const pool = createPool(databaseUrl, logger);
  try {
    const ids = await importCampaigns(pool, accountId, campaigns);
    io.stdout(`${JSON.stringify({ account_id: accountId, imported: ids.length, ids })}\n`);
    return 0;
  } finally {
    await pool.end();
  }
}
