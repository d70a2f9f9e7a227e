import { z } from 'zod';
import type { DeliveryLogEntry } from '../../data-access/deliveries.repository';
import type { EndpointRow } from '../../data-access/endpoints.repository';
import { WEBHOOK_EVENT_TYPES } from '../../domain/webhook-events';

export const endpointSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  description: z.string(),
  event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.boolean(),
  /** `failing`: the last delivery exhausted its retries; the next success makes it `active` again. */
  status: z.enum(['active', 'failing', 'disabled']),
  failing_since: z.string().nullable(),
  /** Until when the previous secret still signs (after a rotation), else null. */
  previous_secret_expires_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const endpointJson = (row: EndpointRow): z.output<typeof endpointSchema> => ({
  id: row.id,
  url: row.url,
  description: row.description,
  event_types: row.event_types as z.output<typeof endpointSchema>['event_types'],
  enabled: row.enabled,
  status: !row.enabled ? 'disabled' : row.failing_since ? 'failing' : 'active',
  failing_since: row.failing_since?.toISOString() ?? null,
  previous_secret_expires_at: row.previous_secret_expires_at?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export const deliveryJson = (entry: DeliveryLogEntry) => ({
  id: entry.id,
  webhook_id: entry.message_id,
  event_type: entry.event_type,
  state: entry.state,
  attempts: entry.attempt_log,
  next_attempt_at: entry.next_attempt_at?.toISOString() ?? null,
  created_at: entry.created_at.toISOString(),
  payload: JSON.parse(entry.payload) as unknown,
});
