import { z } from 'zod';

/** Reusable environment fields, so every service reads a variable the same way. */

const urlWithProtocols = (protocols: string[]) =>
  z
    .string()
    .trim()
    .refine((value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`);

export const envFields = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  postgresUrl: urlWithProtocols(['postgres:', 'postgresql:']),
  redisUrl: urlWithProtocols(['redis:', 'rediss:']),
  amqpUrl: urlWithProtocols(['amqp:', 'amqps:']),
  smtpUrl: urlWithProtocols(['smtp:', 'smtps:']),
  httpUrl: urlWithProtocols(['http:', 'https:']),
  positiveInt: (fallback: number) => z.coerce.number().int().positive().default(fallback),
  secret: z.string().min(32, 'must be at least 32 characters'),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  dbPrefix: z
    .string()
    .regex(/^[a-z0-9_]*$/, 'must be lower-case letters, digits and underscores')
    .default('mailer_'),
};

/** The variables every service reads. */
export const commonEnvSchema = z.object({
  LOG_LEVEL: envFields.logLevel,
  INTERNAL_SIGNING_SECRET: envFields.secret,
});
