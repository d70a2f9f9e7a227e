import { cpuPerRequest, cpuSnapshot } from './cpu-meter';
import type { FocusContext } from './focus-context';
import { measureBacklogDrain } from './backlog-drain';
import { measureNodemailerBaseline } from './nodemailer-baseline';
import { forgetSinkMessages } from './sink-arrivals';

/** The backlog drain against baseline B of the same run, as the full benchmark measures them; returns the problems seen. */
export async function focusDrain(options: FocusContext & { pids: ReadonlyMap<string, number> }): Promise<string[]> {
  const { config, stack, account, log } = options;
  // In the full benchmark automation has sent thousands of emails before its drain; a fresh
  // process would spend the first seconds loading modules and compiling, so a smaller drain
  // goes first, unrecorded.
  await measureBacklogDrain({
    env: stack.env,
    sink: stack.sink,
    account,
    runId: `${stack.names.id}.warm-up`,
    count: Math.max(1, Math.round(config.backlog / 5)),
    contactIdOffset: config.backlog,
  });
  forgetSinkMessages(stack.sink);
  await options.settler.before('backlog drain');
  const cpuBefore = cpuSnapshot(options.pids);
  const drain = await measureBacklogDrain({ env: stack.env, sink: stack.sink, account, runId: stack.names.id, count: config.backlog });
  forgetSinkMessages(stack.sink);
  // The drain's facts are still being relayed and consumed: not while the baseline runs.
  await options.settler.before('baseline B');
  // Until the broker is quiet: the facts each email leaves (relayed, consumed) are part of its cost.
  log(`CPU µs per email, until the broker was quiet: ${JSON.stringify(cpuPerRequest(cpuBefore, cpuSnapshot(options.pids), drain.arrived))}`);
  const baseline = await measureNodemailerBaseline({ sink: stack.sink, runId: stack.names.id, count: config.backlog, maxConnections: config.smtpPoolSize });
  log(
    `backlog drain ${drain.emailsPerS} emails/s (${drain.arrived}/${drain.emails}), nodemailer ${baseline.emailsPerS}/s: ` +
      `${Math.round((100 * drain.emailsPerS) / baseline.emailsPerS)}%`,
  );
  return [drain, baseline].filter((run) => run.missing > 0).map((run) => `${run.missing} of ${run.emails} emails never arrived`);
}
