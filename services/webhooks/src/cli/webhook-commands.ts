import { UsageError } from '@mailer/shared';
import type { Pool } from '@mailer/shared';
import {
  createEndpoint,
  deleteEndpoint,
  endpointDeliveries,
  getEndpoint,
  listEndpoints,
  resend,
  rotateEndpointSecret,
  updateEndpoint,
  type EndpointDeps,
} from '../domain/manage-endpoints';
import { deliveryJson, endpointJson } from '../entry-points/api/endpoint.json';

export interface CommandOptions {
  account?: string | undefined;
  id?: string | undefined;
  url?: string | undefined;
  events?: string | undefined;
  description?: string | undefined;
  enable?: boolean | undefined;
  disable?: boolean | undefined;
  delivery?: string | undefined;
  limit?: string | undefined;
}

/** Bad command-line use: printed with the usage, exit code 2. */
// Bad arguments: the CLI exits 2 with its usage text (one class for every service's CLI).
export { UsageError };

function positiveId(value: string | undefined, flag: string): number {
  if (value === undefined) throw new UsageError(`${flag} is required`);
  if (!/^[1-9][0-9]{0,14}$/.test(value))
    throw new UsageError(`${flag} must be a positive integer, got "${value}"`);
  return Number(value);
}

const eventList = (events: string | undefined) =>
  events
    ?.split(',')
    .map((type) => type.trim())
    .filter((type) => type !== '');

function enabledFlag(options: CommandOptions): boolean | undefined {
  if (options.enable && options.disable) throw new UsageError('--enable and --disable exclude each other');
  return options.enable ? true : options.disable ? false : undefined;
}

/** Runs one `webhooks` command with the same use cases as the internal API; the operator may address any account's endpoint by id. */
export async function runWebhookCommand(
  deps: Omit<EndpointDeps, 'pool'> & { pool: Pool },
  command: string,
  options: CommandOptions,
): Promise<unknown> {
  switch (command) {
    case 'create': {
      const { endpoint, secret } = await createEndpoint(deps, positiveId(options.account, '--account'), {
        url: options.url,
        event_types: eventList(options.events),
        ...(options.description === undefined ? {} : { description: options.description }),
        enabled: enabledFlag(options) ?? true,
      });
      return { ...endpointJson(endpoint), secret, note: 'the secret is shown once: store it now' };
    }
    case 'list':
      return (await listEndpoints(deps, positiveId(options.account, '--account'))).map(endpointJson);
    case 'update': {
      const changes = {
        url: options.url,
        event_types: eventList(options.events),
        description: options.description,
        enabled: enabledFlag(options),
      };
      const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      return endpointJson(await updateEndpoint(deps, undefined, positiveId(options.id, '--id'), given));
    }
    case 'rotate-secret': {
      const { endpoint, secret } = await rotateEndpointSecret(
        deps,
        undefined,
        positiveId(options.id, '--id'),
      );
      return {
        ...endpointJson(endpoint),
        secret,
        note: 'the new secret is shown once; the old one keeps signing until previous_secret_expires_at',
      };
    }
    case 'delete': {
      const id = positiveId(options.id, '--id');
      await deleteEndpoint(deps, undefined, id);
      return { deleted: id };
    }
    case 'deliveries': {
      const id = positiveId(options.id, '--id');
      const limit = options.limit === undefined ? 20 : Math.min(100, positiveId(options.limit, '--limit'));
      await getEndpoint(deps, undefined, id);
      return (await endpointDeliveries(deps, undefined, id, { limit })).map(deliveryJson);
    }
    case 'resend': {
      const id = positiveId(options.id, '--id');
      const delivery = positiveId(options.delivery, '--delivery');
      await resend(deps, undefined, id, delivery);
      return { resent: delivery, note: 'the running webhooks service sends it within a moment' };
    }
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}
