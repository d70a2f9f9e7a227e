import { randomUUID } from 'node:crypto';
import { chunksOf } from '../batching/chunks';
import type { MessageContract } from '../contracts/message-contract';
import type { PublishOptions } from './broker';

/** One outbox row as a relay pass reads it. */
export interface OutboxRow {
  id: number;
  message_id: string;
  type: string;
  payload: unknown;
  trace_context?: string | null;
}

/**
 * Rows of one type that travel together: those of a pass go as messages of `contract`, at most
 * `max` rows each, routed by the rows' own type; a lone row still travels alone as its own type.
 */
export interface OutboxBundle {
  type: string;
  max: number;
  contract: MessageContract;
  /** The bundle message's payload, from its rows (each fact keeps its row's message id). */
  payloadOf: (rows: OutboxRow[]) => unknown;
}

/** What one publish carries, and the rows it settles. */
export interface OutboxMessage {
  /** Undefined for a type this service does not know: its row stays, reported, and the rest go on. */
  contract: MessageContract | undefined;
  payload: unknown;
  options: PublishOptions;
  rowIds: number[];
}

/**
 * A pass's rows as messages: the bundled type's rows first (a creation before any change to what it
 * created), a message's worth each, then every other row alone in id order, under its message id.
 */
export function outboxMessages(rows: OutboxRow[], contracts: ReadonlyMap<string, MessageContract>, bundle?: OutboxBundle): OutboxMessage[] {
  if (!bundle) return rows.map((row) => rowMessage(row, contracts));
  const chunks = chunksOf(
    rows.filter((row) => row.type === bundle.type),
    bundle.max,
  );
  const alone = [...chunks.filter((chunk) => chunk.length === 1).flat(), ...rows.filter((row) => row.type !== bundle.type)];
  return [
    ...chunks.filter((chunk) => chunk.length > 1).map((chunk) => bundleMessage(chunk, bundle)),
    ...alone.map((row) => rowMessage(row, contracts)),
  ];
}

// One trace context per message: for a bundle the first row's; the others' traces end at their commit.
const traceHeaders = (row: OutboxRow | undefined) => (row?.trace_context ? { traceparent: row.trace_context } : undefined);

function bundleMessage(rows: OutboxRow[], bundle: OutboxBundle): OutboxMessage {
  return {
    contract: bundle.contract,
    payload: bundle.payloadOf(rows),
    options: { messageId: randomUUID(), routingKey: bundle.type, headers: traceHeaders(rows[0]) },
    rowIds: rows.map((row) => row.id),
  };
}

function rowMessage(row: OutboxRow, contracts: ReadonlyMap<string, MessageContract>): OutboxMessage {
  return { contract: contracts.get(row.type), payload: row.payload, options: { messageId: row.message_id, headers: traceHeaders(row) }, rowIds: [row.id] };
}
