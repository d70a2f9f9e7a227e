import type { EventAttempts } from './event-client';
import {
  analyse,
  formatReport,
  refusalKinds,
  unexplainedDuplicates,
  type SinkMessage,
} from './jepsen-report';

const event = (index: number, acknowledged: boolean, refusals: string[] = []): EventAttempts => ({
  index,
  email: `c${index}@example.test`,
  acknowledged,
  refusals,
});
const email = (to: string, messageId: string, receivedAt = 0): SinkMessage => ({
  to: [to],
  headers: new Map([['message-id', messageId]]),
  receivedAt,
});

describe('the chaos report (Jepsen form)', () => {
  it('counts an acknowledged event without email or recorded outcome as lost, and a recorded skip as not lost', () => {
    const report = analyse(
      [event(1, true), event(2, true), event(3, true)],
      [email('c1@example.test', '<a@x>')],
      [
        { email: 'C2@example.test', state: 'skipped' },
        { email: 'c3@example.test', state: 'claimed' },
      ],
    );
    expect(report.lost).toEqual(['c3@example.test']);
    expect(report.delivered).toBe(1);
    expect(report.recordedSkipOrFailure).toBe(1);
  });

  it('tells duplicates with one Message-ID from duplicates with different ones', () => {
    const report = analyse(
      [event(1, true), event(2, true)],
      [
        email('c1@example.test', '<a@x>', 1),
        email('c1@example.test', '<a@x>', 2),
        email('c2@example.test', '<b@x>'),
        email('c2@example.test', '<c@x>'),
      ],
      [],
    );
    expect(report.duplicatedSameMessageId).toEqual(['c1@example.test']);
    expect(report.duplicatedDifferentMessageId).toEqual(['c2@example.test']);
    expect(report.lost).toEqual([]);
  });

  it('counts emails for unacknowledged events as unexpected and retried deliveries as recovered', () => {
    const report = analyse(
      [event(1, false, ['503']), event(2, true, ['503', 'TimeoutError'])],
      [email('c1@example.test', '<a@x>'), email('c2@example.test', '<b@x>')],
      [],
    );
    expect(report.unexpected).toEqual(['c1@example.test']);
    expect(report.neverAcknowledged).toBe(1);
    expect(report.retried).toBe(1);
    expect(report.recovered).toBe(1);
    expect(formatReport(report, { 'dead-lettered messages': 0 })).toMatch(/\| LOST +\| +0 \|/);
  });
});

describe('duplicates explained by a worker kill', () => {
  it('accepts a second copy only when a kill fell between the copies, soon after the first', () => {
    const messages = [
      email('a@example.test', '<a@x>', 1000),
      email('a@example.test', '<a@x>', 9000),
      email('b@example.test', '<b@x>', 1000),
      email('b@example.test', '<b@x>', 1100),
    ];
    expect(unexplainedDuplicates(['a@example.test', 'b@example.test'], messages, [1200])).toEqual([
      'b@example.test',
    ]);
    expect(unexplainedDuplicates(['a@example.test'], messages, [60_000])).toEqual(['a@example.test']);
    expect(refusalKinds([event(1, true, ['503', '503', '409'])])).toBe('503: 2, 409: 1');
  });
});
