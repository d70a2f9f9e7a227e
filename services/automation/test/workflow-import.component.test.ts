import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { triggerRoutingKey } from '@mailer/shared';
import { brokerRoutes, serviceTestEnv, testServers } from '@mailer/testing';
import { runAdmin } from '../src/cli/run-admin';
import { newAccountId } from './support/automation-harness';

const env = serviceTestEnv({ DB_PREFIX: `${testServers().dbPrefix}cli_` });

async function admin(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, env, { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, json: out.length ? (JSON.parse(out.join('')) as Record<string, unknown>) : undefined, stderr: err.join('') };
}

async function file(content: unknown): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'workflows-'));
  const target = path.join(dir, 'workflow.json');
  await writeFile(target, typeof content === 'string' ? content : JSON.stringify(content));
  return target;
}

const welcome = {
  name: 'Welcome sequence',
  trigger: { event: 'signup', where: [{ property: 'plan', op: 'eq', value: 'trial' }] },
  transactional: false,
  fallbacks: { first_name: 'there' },
  steps: [
    { id: 'welcome', type: 'email', subject: 'Welcome, {{ first_name }}!', html: "<p>Hi {{ first_name }}, glad you joined {{ company | default: 'us' }}.</p>", text: 'Hi {{ first_name }}' },
    { id: 'pause', type: 'wait', duration: '2d' },
    { id: 'tips', type: 'email', subject: 'Three tips', html: '<p>…</p>' },
  ],
};

describe('workflows import (admin CLI)', () => {
  it('imports a welcome workflow and prints it as JSON; importing the same name replaces it', async () => {
    const account = newAccountId();
    const first = await admin('workflows', 'import', await file(welcome), '--account', String(account));
    expect(first.code).toBe(0);
    expect(first.json).toEqual({ data: [{ id: expect.any(Number), name: 'Welcome sequence', trigger: 'signup', steps: 3, replaced: false }] });
    const id = (first.json!.data as Array<{ id: number }>)[0]!.id;
    const again = await admin('workflows', 'import', await file({ ...welcome, steps: welcome.steps.slice(0, 1) }), '--account', String(account));
    expect(again.json).toEqual({ data: [{ id, name: 'Welcome sequence', trigger: 'signup', steps: 1, replaced: true }] });
    const list = await admin('workflows', 'list', '--account', String(account));
    expect(list.json).toEqual({ data: [expect.objectContaining({ id, name: 'Welcome sequence', steps: 1 })] });
  });

  it('routes the trigger to automation before it answers, and imports nothing while the broker is unreachable', async () => {
    const account = newAccountId();
    expect((await admin('workflows', 'import', await file(welcome), '--account', String(account))).code).toBe(0);
    expect(await brokerRoutes(env.BROKER_NAMESPACE!, triggerRoutingKey(account, 'signup'))).toBe(true);
    // Nothing listens on port 9: the CLI's entry prints the failure and exits non-zero.
    const io = { out: () => undefined, err: () => undefined };
    const unrouted = ['workflows', 'import', await file({ ...welcome, name: 'Unrouted' }), '--account', String(account)];
    await expect(runAdmin(unrouted, { ...env, AMQP_URL: 'amqp://guest:guest@127.0.0.1:9' }, io)).rejects.toThrow('the message broker (127.0.0.1:9) is unreachable');
    expect((await admin('workflows', 'list', '--account', String(account))).json).toEqual({ data: [expect.objectContaining({ name: 'Welcome sequence' })] });
  }, 30_000);

  it('refuses a file with problems whole, listing every problem, and imports nothing', async () => {
    const account = newAccountId();
    const broken = [
      { ...welcome, name: 'Good one' },
      {
        name: 'Broken',
        trigger: { event: 'signup', where: [{ property: 'usage', op: 'between', value: 1 }] },
        steps: [
          { id: 'a', type: 'email', subject: 'Hi {{ first_name | shout }}', text: 'x' },
          { id: 'a', type: 'email', subject: 'Hi', html: '{% include "footer" %}' },
          { id: 'w', type: 'wait', duration: '2 weeks' },
          { id: 'b', type: 'email', subject: 'No body' },
          { id: 'c', type: 'email', subject: 'Broken {% if %}', text: 'x', extra: true },
        ],
      },
    ];
    const result = await admin('workflows', 'import', await file(broken), '--account', String(account));
    expect(result.code).toBe(1);
    const errors = result.json!.errors as string[];
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\[1\]\.trigger\.where\.0\.op /),
        expect.stringMatching(/^\[1\]\.steps\.2\.duration /),
        expect.stringMatching(/^\[1\]\.steps\.3\.html an email step needs html or text/),
        expect.stringMatching(/^\[1\]\.steps\.4 /),
      ]),
    );
    expect(result.stderr).toMatch(/nothing imported/);
    expect((await admin('workflows', 'list', '--account', String(account))).json).toEqual({ data: [] });
  });

  it('refuses broken Liquid templates at import, with every template problem listed', async () => {
    const account = newAccountId();
    const result = await admin(
      'workflows',
      'import',
      await file({
        name: 'Templates',
        trigger: { event: 'signup' },
        steps: [
          { id: 'a', type: 'email', subject: 'Hi {{ first_name | shout }}', text: 'x' },
          { id: 'b', type: 'email', subject: 'Hi', html: '{% include "footer" %}' },
          { id: 'c', type: 'email', subject: 'Hi', text: '{% if %}' },
        ],
      }),
      '--account',
      String(account),
    );
    expect(result.code).toBe(1);
    expect(result.json).toEqual({
      errors: [
        expect.stringMatching(/^steps\.0\.subject: invalid Liquid template: undefined filter: shout/),
        expect.stringMatching(/^steps\.1\.html: invalid Liquid template: the "include" tag is not allowed/),
        expect.stringMatching(/^steps\.2\.text: invalid Liquid template: /),
      ],
    });
  });

  it('exits non-zero with a message on stderr for bad arguments or an unreadable file', async () => {
    expect((await admin('workflows', 'import', 'x.json')).code).toBe(2);
    expect((await admin('workflows', 'import', '--account', '1')).code).toBe(2);
    expect((await admin('workflows', 'frobnicate', '--account', '1')).code).toBe(2);
    const missing = await admin('workflows', 'import', '/nonexistent/file.json', '--account', '1');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read/);
    const notJson = await admin('workflows', 'import', await file('{ nope'), '--account', '1');
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/not valid JSON/);
  });
});
