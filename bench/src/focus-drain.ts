import type { BenchConfig } from './bench-config';
import { measureBacklogDrain } from './backlog-drain';
import type { BrokerSettler } from './broker-quiet';
import { measureNodemailerBaseline } from './nodemailer-baseline';
import type { BenchAccount } from './operator-setup';
import { forgetSinkMessages } from './sink-arrivals';
import type { Stack } from './start-stack';

/** The backlog drain against baseline B of the same run, as the full benchmark measures them; returns the problems seen. */
export async function focusDrain(options: {
  config: BenchConfig;
  stack: Stack;
  account: BenchAccount;
  settler: BrokerSettler;
  log: (text: string) => void;
}): Promise<string[]> {
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
