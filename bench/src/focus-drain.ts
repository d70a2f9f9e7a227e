import type { FocusContext } from './focus-context';
import { measureBacklogDrain } from './backlog-drain';
import { measureNodemailerBaseline } from './nodemailer-baseline';
import { forgetSinkMessages } from './sink-arrivals';

/** The backlog drain against baseline B of the same run, as the full benchmark measures them; returns the problems seen. */
export async function focusDrain(options: FocusContext): Promise<string[]> {
  const { config, stack, account, log } = options;
  await options.settler.before('backlog drain');
  const drain = await measureBacklogDrain({ env: stack.env, sink: stack.sink, account, runId: stack.names.id, count: config.backlog });
  forgetSinkMessages(stack.sink);
  const baseline = await measureNodemailerBaseline({ sink: stack.sink, runId: stack.names.id, count: config.backlog, maxConnections: config.smtpPoolSize });
  log(
    `backlog drain ${drain.emailsPerS} emails/s (${drain.arrived}/${drain.emails}), nodemailer ${baseline.emailsPerS}/s: ` +
      `${Math.round((100 * drain.emailsPerS) / baseline.emailsPerS)}%`,
  );
  return [drain, baseline].filter((run) => run.missing > 0).map((run) => `${run.missing} of ${run.emails} emails never arrived`);
}
