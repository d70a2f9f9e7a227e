import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@mailer/testing';
import { operatorEnvironment, runAdminCli, type CliRun, type OperatorEnvironment } from './admin-cli';
import type { Inputs, Invocation, Lookup, Made } from './cli-invocation';
import { ACCOUNT_INVOCATIONS, QUICKSTART_INVOCATIONS } from './gateway-cli-invocations';
import { CAMPAIGN_INVOCATIONS } from './campaigns-cli-invocations';
import { CONTACT_INVOCATIONS, WEBHOOK_INVOCATIONS, WORKFLOW_INVOCATIONS } from './service-cli-invocations';
import { groupsOf, untried, usageLinesOf } from './usage-lines';

// The account comes first (every other command names it); then each service's commands run in order,
// the services side by side. Quickstart follows the workflows: both import into automation's database.
const TRACKS_AFTER_THE_ACCOUNT = [
  [...WORKFLOW_INVOCATIONS, ...QUICKSTART_INVOCATIONS],
  CAMPAIGN_INVOCATIONS,
  CONTACT_INVOCATIONS,
  WEBHOOK_INVOCATIONS,
];
const EVERY_INVOCATION = [...ACCOUNT_INVOCATIONS, ...TRACKS_AFTER_THE_ACCOUNT.flat()];

/** Every usage line the CLIs print: each group the dispatcher lists, run with no command. */
async function printedUsageLines(env: NodeJS.ProcessEnv): Promise<string[]> {
  const dispatcher = await runAdminCli([], env);
  if (dispatcher.code !== 2) throw new Error(`admin.mjs alone: ${describeRun([], dispatcher)}`);
  const groups = groupsOf(dispatcher.stderr);
  const printed = await Promise.all(
    groups.map(async (group) => {
      const run = await runAdminCli([group], env);
      if (run.code !== 2)
        throw new Error(`a group alone prints its usage and exits 2: ${describeRun([group], run)}`);
      const lines = usageLinesOf(run.stderr, groups);
      if (!lines.some((line) => line.startsWith(`${group} `)))
        throw new Error(`"${group}" printed no usage line of its own:\n${run.stderr}`);
      return lines;
    }),
  );
  return [...new Set(printed.flat())];
}

const describeRun = (args: readonly string[], run: CliRun) =>
  `npm run admin -- ${args.join(' ')} exited ${run.code}\n--- stdout\n${run.stdout}--- stderr\n${run.stderr}`;

/** Runs one invocation and checks how it ended; keeps what later invocations name. */
async function runInvocation(
  invocation: Invocation,
  made: Map<Made, string>,
  inputs: Inputs,
  env: NodeJS.ProcessEnv,
) {
  const lookup: Lookup = (name) => {
    const value = made.get(name);
    if (value === undefined)
      throw new Error(`"${invocation.line}" names ${name}, which no earlier invocation made`);
    return value;
  };
  const args = invocation.args(lookup, inputs);
  const run = await runAdminCli(args, env);
  if ('refusal' in invocation) {
    if (run.code !== 1 || !invocation.refusal.test(run.stderr))
      throw new Error(`expected exit 1 and ${String(invocation.refusal)}: ${describeRun(args, run)}`);
    return;
  }
  if ('output' in invocation) {
    if (run.code !== 0 || !invocation.output.test(run.stdout))
      throw new Error(`expected exit 0 and ${String(invocation.output)}: ${describeRun(args, run)}`);
    return;
  }
  let json: unknown;
  try {
    if (run.code !== 0)
      throw new Error(run.code === 2 ? 'exit 2: refused as bad usage' : `exit ${run.code}, not 0`);
    json = JSON.parse(run.stdout);
    expect(json).toEqual(invocation.prints(lookup));
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${describeRun(args, run)}`, { cause: error });
  }
  const kept = invocation.keeps?.(json) ?? {};
  for (const name of Object.keys(kept) as Made[]) made.set(name, kept[name]!);
}

describe('npm run admin: every usage line of every operator CLI, run against the real servers', () => {
  let folder: string;
  let operator: OperatorEnvironment;
  let inputs: Inputs;
  let printed: string[];

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'operator-cli-'));
    operator = operatorEnvironment(folder);
    inputs = {
      html: path.join(folder, 'body.html'),
      text: path.join(folder, 'body.txt'),
      hookUrl: `http://127.0.0.1:${await freePort()}/hook`,
    };
    writeFileSync(inputs.html, '<p>Hello {{ first_name | default: "there" }}</p>');
    writeFileSync(inputs.text, 'Hello {{ first_name | default: "there" }}, in plain text');
    printed = await printedUsageLines(operator.env);
  });

  afterAll(async () => {
    await operator.remove();
    rmSync(folder, { recursive: true, force: true });
  });

  it('has invocations for exactly the usage lines the CLIs print', () => {
    const covered = new Set(EVERY_INVOCATION.map((invocation) => invocation.line));
    const missing = printed
      .filter((line) => !covered.has(line))
      .map((line) => `no invocation for usage line "${line}"`);
    const stale = [...covered]
      .filter((line) => !printed.includes(line))
      .map((line) => `invocations for "${line}", which no CLI prints`);
    expect([...missing, ...stale]).toEqual([]);
  });

  it('passes every command, option and listed value of each usage line in at least one invocation', () => {
    const anyValue: Lookup = () => '1';
    const problems = printed.flatMap((line) => {
      const argsOfLine = EVERY_INVOCATION.filter((invocation) => invocation.line === line).map((invocation) =>
        invocation.args(anyValue, inputs),
      );
      return untried(line, argsOfLine).map((problem) => `"${line}": ${problem}`);
    });
    expect(problems).toEqual([]);
  });

  it('runs each invocation through scripts/admin.mjs: exit 0 and the JSON expected, or the one refusal expected', async () => {
    const made = new Map<Made, string>();
    for (const invocation of ACCOUNT_INVOCATIONS) await runInvocation(invocation, made, inputs, operator.env);
    const tracks = await Promise.allSettled(
      TRACKS_AFTER_THE_ACCOUNT.map(async (track) => {
        for (const invocation of track) await runInvocation(invocation, made, inputs, operator.env);
      }),
    );
    // Every track's first failure, not just the first track's: one run shows all that drifted.
    const failures = tracks.flatMap((track) => (track.status === 'rejected' ? [String(track.reason)] : []));
    if (failures.length > 0) throw new Error(failures.join('\n\n'));
  }, 180_000);
});
