import { percentile, round } from './percentile';
import type { StoredStageTimes } from './stored-stage-times';

/**
 * The stages of event -> email in the order they happen. `arrived` comes before `recorded`: the
 * sink stamps an email when its last byte arrives, before it answers 250, and automation records
 * sent_at only after that answer. `enriched` is listed but has no stored time (see STAGE_SOURCES).
 * `sent` is the load generator's own lateness: its process shares the two cores (and its event loop
 * the SMTP sink), so a request may leave after it was due; that wait is counted, as a user's would be.
 */
export const STAGES = ['sent', 'accepted', 'upserted', 'enriched', 'enrolled', 'claimed', 'arrived', 'recorded'] as const;
export type Stage = (typeof STAGES)[number];

/** Where each stage's time comes from; null for a stage nothing stores. */
export const STAGE_SOURCES: Record<Stage, string | null> = {
  sent: 'bench: the generator wrote the request',
  accepted: 'bench: the 202 fully answered',
  // Contacts upserts the contact when it consumes the event, after the 202.
  upserted: 'contacts.contacts.created_at',
  // Contacts publishes the enriched event after the contact's commit; nothing stores that moment,
  // and automation's first write for it is the enrolment statement, so this wait is inside
  // upserted -> enrolled.
  enriched: null,
  enrolled: 'automation.workflow_runs.created_at',
  claimed: 'automation.sends.claimed_at',
  arrived: 'bench: the sink got the last byte',
  recorded: 'automation.sends.sent_at',
};

/** One sign-up's times (epoch ms): the bench's own, and what the services stored. */
export interface SignupTimes extends StoredStageTimes {
  scheduled: number;
  sent: number;
  accepted: number;
  arrived?: number;
}

/** p50/p99 in ms. */
export interface Spread {
  p50Ms: number;
  p99Ms: number;
}

export interface StageFigures {
  stage: Stage;
  source: string | null;
  /** Sign-ups with a time for this stage (and, for `step`, for the stage before). */
  count: number;
  /** From the event's scheduled send time to this stage. */
  sinceScheduled: Spread;
  /** From the previous stage that has a time (named in `after`) to this one, per sign-up. */
  step: Spread;
  after: Stage | 'scheduled';
}

const spread = (values: number[]): Spread => ({ p50Ms: round(percentile(values, 50)), p99Ms: round(percentile(values, 99)) });
const NONE: Spread = { p50Ms: Number.NaN, p99Ms: Number.NaN };

/** p50/p99 of every stage, cumulative and step by step, over the sign-ups that reached it. */
export function stageBreakdown(signups: readonly SignupTimes[]): StageFigures[] {
  const figures: StageFigures[] = [];
  let previous: Stage | 'scheduled' = 'scheduled';
  for (const stage of STAGES) {
    if (stage === 'enriched') {
      figures.push({ stage, source: null, count: 0, sinceScheduled: NONE, step: NONE, after: previous });
      continue;
    }
    const source = STAGE_SOURCES[stage];
    const cumulative: number[] = [];
    const steps: number[] = [];
    for (const signup of signups) {
      const at = signup[stage];
      if (at === undefined) continue;
      cumulative.push(at - signup.scheduled);
      const before = signup[previous];
      if (before !== undefined) steps.push(at - before);
    }
    figures.push({ stage, source, count: cumulative.length, sinceScheduled: spread(cumulative), step: spread(steps), after: previous });
    previous = stage;
  }
  return figures;
}

const ms = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(1));
// A step can be negative: the contact is often upserted before the client has read its 202.
const signed = (value: number) => (value < 0 ? ms(value) : `+${ms(value)}`);

/** One line per stage: ms since scheduled p50/p99, then the step from the stage before p50/p99. */
export function describeStages(figures: readonly StageFigures[]): string {
  const lines = ['  stage       since scheduled p50/p99 ms   step p50/p99 ms    n      from'];
  for (const figure of figures) {
    if (figure.source === null) {
      lines.push(`  ${figure.stage.padEnd(10)}  not stored (handed on after the contact's commit; its wait is in ${figure.after} -> next)`);
      continue;
    }
    const since = `${ms(figure.sinceScheduled.p50Ms)} / ${ms(figure.sinceScheduled.p99Ms)}`;
    const step = `${signed(figure.step.p50Ms)} / ${signed(figure.step.p99Ms)}`;
    lines.push(`  ${figure.stage.padEnd(10)}  ${since.padEnd(27)}  ${step.padEnd(17)}  ${String(figure.count).padEnd(5)}  ${figure.source}`);
  }
  return lines.join('\n');
}
