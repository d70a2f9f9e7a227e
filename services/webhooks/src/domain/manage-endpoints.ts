import { AppError, notFound, validationFailed, withTransaction, type Pool, type RoutedWrites } from '@mailer/shared';
import { z } from 'zod';
import { listDeliveries, resendDelivery, type DeliveryLogEntry } from '../data-access/deliveries.repository';
import {
  deleteEndpoint as deleteEndpointRow,
  findEndpoint,
  insertEndpoint,
  listEndpoints as listEndpointRows,
  rotateSecret as rotateSecretRow,
  updateEndpoint as updateEndpointRow,
  type EndpointRow,
} from '../data-access/endpoints.repository';
import { newEndpointSecret } from './signing';
import { WEBHOOK_EVENT_TYPES } from './webhook-events';
import { WebhookErrorCodes } from './webhook.errors';

/**
 * How endpoint writes keep `webhooks.facts` routed (the service's FactSubscriptions), by the event
 * types they subscribe to. The operator CLI has none (no broker): its writes reach a running
 * service through the table's NOTIFY.
 */
export type EndpointFactRouting = RoutedWrites<string>;

/** What managing endpoints needs: the database, the address check for new URLs, the rotation overlap, the fact routing. */
export interface EndpointDeps {
  pool: Pool;
  /** Why this URL may not be delivered to (private address, does not resolve), or undefined. */
  refusal: (url: URL) => Promise<string | undefined>;
  secretOverlapMs: number;
  factRouting?: EndpointFactRouting | undefined;
}

const urlField = z
  .string()
  .max(2000)
  .refine((value) => URL.canParse(value), 'must be an absolute URL')
  .transform((value) => new URL(value))
  .refine((url) => url.protocol === 'https:' || url.protocol === 'http:', 'must be http or https')
  .refine((url) => url.username === '' && url.password === '', 'must not carry a user name or password');

const eventTypesField = z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1, 'name at least one event type').transform((types) => [...new Set(types)]);

export const createEndpointInput = z.strictObject({
  url: urlField,
  event_types: eventTypesField,
  description: z.string().max(500).default(''),
  enabled: z.boolean().default(true),
});

export const updateEndpointInput = z.strictObject({
  url: urlField.optional(),
  event_types: eventTypesField.optional(),
  description: z.string().max(500).optional(),
  enabled: z.boolean().optional(),
});

function parsed<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationFailed(result.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`));
  return result.data;
}

async function checkedUrl(deps: EndpointDeps, url: URL): Promise<string> {
  const refusal = await deps.refusal(url);
  if (refusal) throw new AppError(WebhookErrorCodes.ADDRESS_REFUSED, `url refused: ${refusal}`, { field: 'url' });
  return url.href;
}

async function ownEndpoint(deps: EndpointDeps, accountId: number | undefined, id: number): Promise<EndpointRow> {
  const endpoint = await findEndpoint(deps.pool, accountId, id);
  if (!endpoint) throw notFound('webhook endpoint');
  return endpoint;
}

/**
 * A new endpoint and its secret: the only time the secret is shown. It commits only once its
 * facts are routed, so every fact published after the answer reaches it.
 */
export async function createEndpoint(deps: EndpointDeps, accountId: number, input: unknown): Promise<{ endpoint: EndpointRow; secret: string }> {
  const fields = parsed(createEndpointInput, input);
  const url = await checkedUrl(deps, fields.url);
  const secret = newEndpointSecret();
  const endpoint = await withTransaction(deps.pool, async (client) => {
    const row = await insertEndpoint(client, { accountId, url, description: fields.description, eventTypes: fields.event_types, enabled: fields.enabled, secret });
    if (row.enabled) await deps.factRouting?.routeWithin(client, row.event_types);
    return row;
  });
  return { endpoint, secret };
}

/** Changed event types or `enabled` route the facts the endpoint now needs before committing, and unbind the unneeded after. */
export async function updateEndpoint(deps: EndpointDeps, accountId: number | undefined, id: number, input: unknown): Promise<EndpointRow> {
  const fields = parsed(updateEndpointInput, input);
  await ownEndpoint(deps, accountId, id);
  const url = fields.url ? await checkedUrl(deps, fields.url) : undefined;
  const routing = fields.event_types !== undefined || fields.enabled !== undefined ? deps.factRouting : undefined;
  const endpoint = await withTransaction(deps.pool, async (client) => {
    const row = await updateEndpointRow(client, id, { url, description: fields.description, eventTypes: fields.event_types, enabled: fields.enabled });
    if (row.enabled) await routing?.routeWithin(client, row.event_types);
    return row;
  });
  await routing?.afterChange();
  return endpoint;
}

/** A new secret, shown once; the old one keeps signing for the overlap window. */
export async function rotateEndpointSecret(deps: EndpointDeps, accountId: number | undefined, id: number): Promise<{ endpoint: EndpointRow; secret: string }> {
  await ownEndpoint(deps, accountId, id);
  const secret = newEndpointSecret();
  return { endpoint: await rotateSecretRow(deps.pool, id, secret, deps.secretOverlapMs), secret };
}

export async function deleteEndpoint(deps: EndpointDeps, accountId: number | undefined, id: number): Promise<void> {
  await ownEndpoint(deps, accountId, id);
  await deleteEndpointRow(deps.pool, id);
  await deps.factRouting?.afterChange();
}

export const getEndpoint = ownEndpoint;

export const listEndpoints = (deps: EndpointDeps, accountId: number) => listEndpointRows(deps.pool, accountId);

export async function endpointDeliveries(
  deps: EndpointDeps,
  accountId: number | undefined,
  id: number,
  page: { limit: number; before?: number | undefined },
): Promise<DeliveryLogEntry[]> {
  await ownEndpoint(deps, accountId, id);
  return listDeliveries(deps.pool, id, page.limit, page.before);
}

/** Queues a delivery again at once, with the same webhook-id. */
export async function resend(deps: EndpointDeps, accountId: number | undefined, endpointId: number, deliveryId: number): Promise<void> {
  await ownEndpoint(deps, accountId, endpointId);
  if (!(await resendDelivery(deps.pool, endpointId, deliveryId))) throw notFound('delivery');
}
