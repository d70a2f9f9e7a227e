import { randomBytes } from 'node:crypto';
import { serviceTestEnv } from '@mailer/testing';
import { runAdmin } from '../src/cli/admin';
import { createUser } from '../src/domain/create-user';
import { anAccount } from './support/factories';
import { startGateway, stopGateways, uniqueIp, type Gateway } from './support/gateway-harness';
import { postSignIn, tally } from './support/sign-in-client';

const PASSWORD = 'correct horse battery staple';
const PER_ADDRESS = 10;
const PER_USER = 30;

/** A user whose local part starts with "ivy" (the Unicode case-folding attack's target). */
async function aUser(gateway: Gateway) {
  const account = await anAccount(gateway.pool);
  const email = `ivy.${randomBytes(4).toString('hex')}@example.com`;
  await createUser(gateway.pool, { accountId: account.id, email, password: PASSWORD });
  return email;
}

const wrong = (i: number) => `wrong password ${i}`;

describe('sign-in throttle behind the account app (issue #18: racing, Unicode variants, lockout by strangers)', () => {
  let gateway: Gateway;

  beforeAll(async () => {
    gateway = await startGateway({ SIGNIN_FAIL_LIMIT: String(PER_ADDRESS), SIGNIN_USER_FAIL_LIMIT: String(PER_USER) });
  });
  afterAll(() => stopGateways());

  it('80 parallel wrong passwords from one address: exactly the address limit is evaluated, the rest wait', async () => {
    const email = await aUser(gateway);
    const ip = uniqueIp();
    const results = await Promise.all(Array.from({ length: 80 }, (_, i) => postSignIn(gateway.internalUrl, { email, password: wrong(i), ip })));
    expect(tally(results.map((result) => result.status))).toEqual({ 401: PER_ADDRESS, 429: 80 - PER_ADDRESS });
    const waits = results.filter((result) => result.status === 429).map((result) => Number(result.headers.get('retry-after')));
    expect(Math.min(...waits)).toBeGreaterThan(0);
  });

  it('80 parallel wrong passwords from 80 addresses: exactly the user limit is evaluated, then the user is locked', async () => {
    const email = await aUser(gateway);
    const results = await Promise.all(
      Array.from({ length: 80 }, (_, i) => postSignIn(gateway.internalUrl, { email, password: wrong(i), ip: uniqueIp() })),
    );
    expect(tally(results.map((result) => result.status))).toEqual({ 401: PER_USER, 429: 80 - PER_USER });
    // Locked: even the right password, from an address that never failed, waits.
    expect((await postSignIn(gateway.internalUrl, { email, password: PASSWORD, ip: uniqueIp() })).status).toBe(429);
  });

  it('no case or Unicode variant of a locked address signs in (one normalisation for counter, lookup and row)', async () => {
    const email = await aUser(gateway);
    const [local, domain] = email.split('@') as [string, string];
    await Promise.all(Array.from({ length: PER_USER }, (_, i) => postSignIn(gateway.internalUrl, { email, password: wrong(i), ip: uniqueIp() })));
    const variants = [
      email,
      email.toUpperCase(),
      `  ${email}  `,
      `İ${local.slice(1)}@${domain}`, // U+0130: JS lower-cases it to i + U+0307, Postgres lower() to i
      `ı${local.slice(1)}@${domain}`, // U+0131 dotless i: upper-cases to I
      `\uFF49\uFF56\uFF59${local.slice(3)}@${domain}`, // full-width "ivy": NFKC makes it ASCII
      `${local}@${domain.toUpperCase()}`,
    ];
    const statuses = await Promise.all(variants.map((variant) => postSignIn(gateway.internalUrl, { email: variant, password: PASSWORD, ip: uniqueIp() })));
    for (const [i, result] of statuses.entries()) {
      expect([variants[i], result.status]).not.toEqual([variants[i], 200]);
    }
  });

  it('one stranger cannot lock a user out: the address is stopped first, and the user signs in from elsewhere', async () => {
    const email = await aUser(gateway);
    const stranger = uniqueIp();
    const guesses = [];
    for (let i = 0; i < 3 * PER_USER; i++) guesses.push((await postSignIn(gateway.internalUrl, { email, password: wrong(i), ip: stranger })).status);
    expect(tally(guesses)).toEqual({ 401: PER_ADDRESS, 429: 3 * PER_USER - PER_ADDRESS });
    expect((await postSignIn(gateway.internalUrl, { email, password: PASSWORD, ip: uniqueIp() })).status).toBe(200);
  });

  it('a user locked by many addresses gets back in when an operator runs `users unlock`', async () => {
    const email = await aUser(gateway);
    await Promise.all(Array.from({ length: PER_USER }, (_, i) => postSignIn(gateway.internalUrl, { email, password: wrong(i), ip: uniqueIp() })));
    expect((await postSignIn(gateway.internalUrl, { email, password: PASSWORD, ip: uniqueIp() })).status).toBe(429);
    let stdout = '';
    const code = await runAdmin(['users', 'unlock', '--email', email.toUpperCase()], {
      env: serviceTestEnv(),
      stdout: (text) => void (stdout += text),
      stderr: () => undefined,
    });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ email, failures_cleared: true });
    expect((await postSignIn(gateway.internalUrl, { email, password: PASSWORD, ip: uniqueIp() })).status).toBe(200);
  });

  it('`users unlock` for an unknown address exits 1 with a message', async () => {
    let stderr = '';
    const code = await runAdmin(['users', 'unlock', '--email', 'nobody-here@example.com'], {
      env: serviceTestEnv(),
      stdout: () => undefined,
      stderr: (text) => void (stderr += text),
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/no user has this email/);
  });

  it('a lock ends with its window: the user signs in again without anyone doing anything', async () => {
    const short = await startGateway({ SIGNIN_FAIL_LIMIT: '2', SIGNIN_USER_FAIL_LIMIT: '3', SIGNIN_FAIL_WINDOW_S: '2' });
    const email = await aUser(short);
    await Promise.all([0, 1, 2].map((i) => postSignIn(short.internalUrl, { email, password: wrong(i), ip: uniqueIp() })));
    expect((await postSignIn(short.internalUrl, { email, password: PASSWORD, ip: uniqueIp() })).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 3100));
    expect((await postSignIn(short.internalUrl, { email, password: PASSWORD, ip: uniqueIp() })).status).toBe(200);
  });

  it('a successful sign-in is not counted as a failure (a user who signs in often is never locked)', async () => {
    const email = await aUser(gateway);
    const ip = uniqueIp();
    for (let i = 0; i < PER_ADDRESS + 2; i++) expect((await postSignIn(gateway.internalUrl, { email, password: PASSWORD, ip })).status).toBe(200);
  });

  it('a NUL byte in the address or password is a 400 JSON answer, not a 500', async () => {
    const ip = uniqueIp();
    for (const attempt of [{ email: 'ivy\u0000@example.com', password: 'x' }, { email: 'ivy@example.com', password: 'x\u0000' }]) {
      const result = await postSignIn(gateway.internalUrl, { ...attempt, ip });
      expect(result.status).toBe(400);
      expect(result.headers.get('content-type')).toMatch(/^application\/json/);
      expect(JSON.parse(result.text)).toEqual({ error: 'email and password must not contain NUL characters' });
    }
  });

  it('the verify endpoint answers only a signed request and is not on the public listener', async () => {
    const response = await fetch(`${gateway.internalUrl}/internal/v1/users/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ivy@example.com', password: PASSWORD, ip: uniqueIp() }),
    });
    expect(response.status).toBe(401);
    expect((await fetch(`${gateway.url}/internal/v1/users/verify`, { method: 'POST', headers: { 'x-forwarded-for': uniqueIp() } })).status).toBe(404);
  });

  it('refuses a configuration where one address could lock a user (address limit not below the user limit)', async () => {
    await expect(startGateway({ SIGNIN_FAIL_LIMIT: '30', SIGNIN_USER_FAIL_LIMIT: '30' })).rejects.toThrow(/SIGNIN_USER_FAIL_LIMIT/);
  });
});
