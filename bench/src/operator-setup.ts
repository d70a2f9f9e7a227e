import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './start-stack';

const run = promisify(execFile);

/** The event that enrols a contact in the bench welcome workflow. */
export const SIGNUP_EVENT = 'bench_signup';
export const WELCOME_WORKFLOW = {
  name: 'Bench welcome',
  trigger: { event: SIGNUP_EVENT },
  fallbacks: { first_name: 'there' },
  steps: [
    {
      id: 'welcome',
      type: 'email',
      subject: 'Welcome, {{ first_name }}',
      html: '<p>Hi {{ first_name }}, thanks for signing up.</p>',
    },
  ],
};

export interface BenchAccount {
  accountId: number;
  apiKey: string;
  workflowId: number;
}

/** Runs an operator CLI as an operator would, with the run's env; its stdout is JSON. */
export async function cli<T>(env: NodeJS.ProcessEnv, script: string, args: string[]): Promise<T> {
  const { stdout } = await run(process.execPath, [path.join(REPO_ROOT, script), ...args], {
    env,
    maxBuffer: 1 << 20,
  }).catch((error: Error & { stderr?: string }) => {
    throw new Error(`${script} ${args.join(' ')} failed: ${error.stderr ?? error.message}`);
  });
  return JSON.parse(stdout) as T;
}

/** A pro account, one API key, and the welcome workflow imported for it. */
export async function createBenchAccount(env: NodeJS.ProcessEnv): Promise<BenchAccount> {
  const gatewayCli = 'services/gateway/dist/cli/admin.js';
  const account = await cli<{ id: number }>(env, gatewayCli, [
    'accounts',
    'create',
    '--name',
    'Bench',
    '--plan',
    'pro',
  ]);
  const key = await cli<{ key: string }>(env, gatewayCli, [
    'keys',
    'create',
    '--account',
    String(account.id),
    '--name',
    'bench',
  ]);
  const folder = await mkdtemp(path.join(tmpdir(), 'mailer-bench-'));
  try {
    const file = path.join(folder, 'welcome.json');
    await writeFile(file, JSON.stringify(WELCOME_WORKFLOW));
    await cli(env, 'services/automation/dist/cli/admin.js', [
      'workflows',
      'import',
      file,
      '--account',
      String(account.id),
    ]);
    const listed = await cli<{ data: Array<{ id: number; name: string }> }>(
      env,
      'services/automation/dist/cli/admin.js',
      ['workflows', 'list', '--account', String(account.id)],
    );
    const workflow = listed.data.find((candidate) => candidate.name === WELCOME_WORKFLOW.name);
    if (!workflow) throw new Error('the imported workflow is not listed');
    return { accountId: account.id, apiKey: key.key, workflowId: Number(workflow.id) };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
