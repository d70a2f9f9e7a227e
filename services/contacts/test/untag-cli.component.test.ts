import { runAdmin } from '../src/cli/admin';
import { newAccountId, startContactsForTest, uniqueEmail, type ContactsTestService } from './support/contacts-test-service';

let service: ContactsTestService;
beforeAll(async () => {
  service = await startContactsForTest();
});
afterAll(() => service.stop());

/** `npm run admin -- contacts …` in-process, against this test's contacts database. */
async function admin(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const env = { POSTGRES_URL: service.config.POSTGRES_URL, DB_PREFIX: service.config.DB_PREFIX, LOG_LEVEL: 'silent' };
  const code = await runAdmin(['contacts', ...argv], { env, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stderr, json: stdout ? (JSON.parse(stdout) as { data: { tags: string[] } }) : undefined };
}

describe('npm run admin -- contacts untag', () => {
  it('removes one tag (case-insensitively), announces the change, and keeps the tag for other contacts', async () => {
    const account = newAccountId();
    const contact = (await service.api.create(account, { email: uniqueEmail(), tags: ['VIP', 'beta'] })).body.data;
    const other = (await service.api.create(account, { email: uniqueEmail(), tags: ['vip'] })).body.data;
    const untagged = await admin('untag', '--account', String(account), '--id', String(contact.id), '--tag', 'vip');
    expect(untagged).toMatchObject({ code: 0, json: { data: { tags: ['beta'] } } });
    expect((await service.api.get(account, contact.id)).body.data.tags).toEqual(['beta']);
    // One tag per name and account, spelled as first given.
    expect((await service.api.get(account, other.id)).body.data.tags).toEqual(['VIP']);
    const { rows } = await service.pool.query<{ payload: { changed: string[]; contact: { tags: string[] } } }>(
      `SELECT payload FROM outbox WHERE message_type = 'contact.updated.v1' AND (payload->'contact'->>'id')::bigint = $1`,
      [contact.id],
    );
    expect(rows.map((row) => row.payload)).toEqual([expect.objectContaining({ changed: ['tags'], contact: expect.objectContaining({ tags: ['beta'] }) })]);
    // Again: nothing to remove, nothing announced.
    expect(await admin('untag', '--account', String(account), '--id', String(contact.id), '--tag', 'VIP')).toMatchObject({ code: 0, json: { data: { tags: ['beta'] } } });
    const again = await service.pool.query(
      `SELECT 1 FROM outbox WHERE message_type = 'contact.updated.v1' AND (payload->'contact'->>'id')::bigint = $1`,
      [contact.id],
    );
    expect(again.rowCount).toBe(1);
  });

  it('refuses a contact of another account (1) and bad usage (2)', async () => {
    const account = newAccountId();
    const contact = (await service.api.create(account, { email: uniqueEmail(), tags: ['a'] })).body.data;
    expect(await admin('untag', '--account', String(newAccountId()), '--id', String(contact.id), '--tag', 'a')).toMatchObject({
      code: 1,
      stderr: 'contact not found\n',
    });
    expect((await admin('untag', '--account', 'x', '--id', '1', '--tag', 'a')).code).toBe(2);
    expect((await admin('untag', '--account', '1', '--id', '1')).code).toBe(2);
    expect((await service.api.get(account, contact.id)).body.data.tags).toEqual(['a']);
  });
});
