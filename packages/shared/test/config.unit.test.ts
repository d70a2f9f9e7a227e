import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { brokerEnv, ConfigError, envFields, internalListenEnv, loadConfig, serviceDatabaseUrl } from '@mailer/shared';

const schema = z.object({
  PORT: envFields.port(3010),
  POSTGRES_URL: envFields.postgresUrl,
  AMQP_URL: envFields.amqpUrl,
});

describe('loadConfig', () => {
  it('returns typed, frozen values with defaults', () => {
    const config = loadConfig(schema, { POSTGRES_URL: 'postgres://x@h/db', AMQP_URL: 'amqp://h' });
    expect(config.PORT).toBe(3010);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('names every missing or malformed variable at once', () => {
    let error: unknown;
    try {
      loadConfig(schema, { PORT: 'eighty', AMQP_URL: 'http://wrong' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/^PORT:/m);
    expect(problems).toMatch(/^POSTGRES_URL:/m);
    expect(problems).toMatch(/^AMQP_URL:.*amqp:\/\//m);
  });
});

describe('serviceDatabaseUrl', () => {
  it('derives the service database from the server URL and prefix unless DATABASE_URL is set', () => {
    expect(serviceDatabaseUrl({ service: 'contacts', postgresUrl: 'postgres://u@h:5432/postgres', dbPrefix: 'mailer_' })).toBe(
      'postgres://u@h:5432/mailer_contacts',
    );
    expect(
      serviceDatabaseUrl({ service: 'contacts', databaseUrl: 'postgres://u@h/own', postgresUrl: 'postgres://u@h/x', dbPrefix: 'm_' }),
    ).toBe('postgres://u@h/own');
  });
});

describe('loadConfig with NAME_FILE variables (Docker and Kubernetes secrets)', () => {
  const secretSchema = z.object({ INTERNAL_SIGNING_SECRET: envFields.secret });

  it('reads the value from the named file, without its trailing newline', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mailer-config-'));
    const file = path.join(dir, 'secret');
    writeFileSync(file, `${'s'.repeat(40)}\n`);
    expect(loadConfig(secretSchema, { INTERNAL_SIGNING_SECRET_FILE: file }).INTERNAL_SIGNING_SECRET).toBe('s'.repeat(40));
    expect(loadConfig(secretSchema, { INTERNAL_SIGNING_SECRET_FILE: file, INTERNAL_SIGNING_SECRET: 'd'.repeat(32) }).INTERNAL_SIGNING_SECRET).toBe(
      'd'.repeat(32),
    );
  });

  it('names the _FILE variable when its file cannot be read', () => {
    expect(() => loadConfig(secretSchema, { INTERNAL_SIGNING_SECRET_FILE: '/nonexistent/secret' })).toThrow(
      /INTERNAL_SIGNING_SECRET_FILE: cannot read \/nonexistent\/secret \(ENOENT\)/,
    );
  });
});

describe('loadConfig ignores *_FILE variables it does not read', () => {
  it('does not open files named by other programs variables', () => {
    const schema = z.object({ LOG_LEVEL: envFields.logLevel });
    expect(loadConfig(schema, { TF_CLI_CONFIG_FILE: '/nonexistent/terraformrc' }).LOG_LEVEL).toBe('info');
  });
});

describe('BROKER_NAMESPACE', () => {
  const schema = z.object(brokerEnv);
  it.each([
    ['', ''],
    ['staging', 'staging.'],
    ['staging.', 'staging.'],
    ['run_1-', 'run_1-'],
  ])('%j becomes the prefix %j (a separator is added when missing)', (given, prefix) => {
    expect(loadConfig(schema, { BROKER_NAMESPACE: given }).BROKER_NAMESPACE).toBe(prefix);
  });
});

describe('HOST of an internal service', () => {
  it('is loopback unless set (compose and Kubernetes set 0.0.0.0 in their network)', () => {
    const schema = z.object(internalListenEnv);
    expect(loadConfig(schema, {}).HOST).toBe('127.0.0.1');
    expect(loadConfig(schema, { HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });
});
