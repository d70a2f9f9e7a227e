import { z } from 'zod';
import { ConfigError, envFields, loadConfig, serviceDatabaseUrl } from '@mailer/shared';

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
