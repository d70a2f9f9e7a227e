import type { ReceivedEmail } from '@mailer/testing';
import type { EventAttempts } from './event-client';

/** A ledger row of the workflow's email step, with the contact's address. */
export interface LedgerRow {
  email: string;
  state: string;
}

/** The outcome of the run in the Jepsen form, against the SMTP sink and the automation ledger. */
export interface ChaosReport {
  attempted: number;
  acknowledged: number;
  /** Acknowledged only after at least one refused or unanswered attempt (the client retried). */
  retried: number;
  neverAcknowledged: number;
  delivered: number;
  recordedSkipOrFailure: number;
  /** Acknowledged, but neither an email in the sink nor a recorded skip/failure. */
  lost: string[];
  /** Acknowledged after a retry and ended as an email or a recorded outcome. */
  recovered: number;
  /** Emails to addresses whose event was never acknowledged (or never sent). */
  unexpected: string[];
  /** Addresses that got more than one email for the one step, same Message-ID each time. */
  duplicatedSameMessageId: string[];
  /** Addresses that got more than one email with different Message-IDs: never allowed. */
  duplicatedDifferentMessageId: string[];
}

const TERMINAL_NOT_SENT = new Set(['skipped', 'failed_permanent']);

/** What the analysis needs of a received email. */
export type SinkMessage = Pick<ReceivedEmail, 'to' | 'headers' | 'receivedAt'>;

export function analyse(events: EventAttempts[], messages: SinkMessage[], ledger: LedgerRow[]): ChaosReport {
  const byRecipient = new Map<string, SinkMessage[]>();
  for (const message of messages) {
    for (const to of message.to) {
      const address = to.toLowerCase();
      byRecipient.set(address, [...(byRecipient.get(address) ?? []), message]);
    }
  }
  const recorded = new Set(
    ledger.filter((row) => TERMINAL_NOT_SENT.has(row.state)).map((row) => row.email.toLowerCase()),
  );
  const acknowledged = events.filter((event) => event.acknowledged);
  const ackedAddresses = new Set(acknowledged.map((event) => event.email.toLowerCase()));
  const accountedFor = (email: string) =>
    (byRecipient.get(email.toLowerCase())?.length ?? 0) > 0 || recorded.has(email.toLowerCase());

  const duplicatedSame: string[] = [];
  const duplicatedDifferent: string[] = [];
  for (const [address, received] of byRecipient) {
    if (received.length < 2) continue;
    const ids = new Set(
      received.map((message) => message.headers.get('message-id') ?? `(none ${message.receivedAt})`),
    );
    (ids.size === 1 ? duplicatedSame : duplicatedDifferent).push(address);
  }
  return {
    attempted: events.length,
    acknowledged: acknowledged.length,
    retried: acknowledged.filter((event) => event.refusals.length > 0).length,
    neverAcknowledged: events.length - acknowledged.length,
    delivered: acknowledged.filter((event) => (byRecipient.get(event.email.toLowerCase())?.length ?? 0) > 0)
      .length,
    recordedSkipOrFailure: acknowledged.filter((event) => recorded.has(event.email.toLowerCase())).length,
    lost: acknowledged.filter((event) => !accountedFor(event.email)).map((event) => event.email),
    recovered: acknowledged.filter((event) => event.refusals.length > 0 && accountedFor(event.email)).length,
    unexpected: [...byRecipient.keys()].filter((address) => !ackedAddresses.has(address)),
    duplicatedSameMessageId: duplicatedSame,
    duplicatedDifferentMessageId: duplicatedDifferent,
  };
}

/** The report as a table for the console and docs/reliability.md. */
export function formatReport(report: ChaosReport, extra: Record<string, string | number>): string {
  const rows: Array<[string, string | number]> = [
    ['events attempted', report.attempted],
    ['acknowledged (202)', report.acknowledged],
    ['  of which retried after 503/no answer', report.retried],
    ['never acknowledged', report.neverAcknowledged],
    ['delivered (email in sink)', report.delivered],
    ['recorded skip/failure', report.recordedSkipOrFailure],
    ['LOST', report.lost.length],
    ['recovered', report.recovered],
    ['unexpected', report.unexpected.length],
    ['duplicated, same Message-ID', report.duplicatedSameMessageId.length],
    ['DUPLICATED, different Message-ID', report.duplicatedDifferentMessageId.length],
    ...Object.entries(extra),
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return ['', '| outcome'.padEnd(width + 2) + ' | count |', `|${'-'.repeat(width + 2)}|-------|`]
    .concat(rows.map(([name, value]) => `| ${name.padEnd(width)} | ${String(value).padStart(5)} |`))
    .join('\n');
}

/**
 * Same-Message-ID duplicates that no worker kill explains. A kill explains one when it came after
 * the first copy was stored (within `windowMs`: the send was still in flight, its "sent" not yet
 * committed) and before the second copy. Anything else (e.g. a live claim taken over) is a defect.
 */
export function unexplainedDuplicates(
  addresses: string[],
  messages: SinkMessage[],
  killTimes: number[],
  windowMs = 10_000,
): string[] {
  return addresses.filter((address) => {
    const copies = messages
      .filter((message) => message.to.some((to) => to.toLowerCase() === address))
      .map((message) => message.receivedAt)
      .sort((a, b) => a - b);
    return copies.slice(1).some((later, i) => {
      const earlier = copies[i]!;
      return !killTimes.some((kill) => kill >= earlier - 500 && kill - earlier <= windowMs && kill <= later);
    });
  });
}

/** "503: 612, TimeoutError: 3": what the clients were answered besides 202. */
export function refusalKinds(events: EventAttempts[]): string {
  const counts = new Map<string, number>();
  for (const refusal of events.flatMap((event) => event.refusals))
    counts.set(refusal, (counts.get(refusal) ?? 0) + 1);
  return [...counts].map(([kind, count]) => `${kind}: ${count}`).join(', ') || 'none';
}
