import type { BenchConfig } from './bench-config';
import type { BrokerSettler } from './broker-quiet';
import type { BenchAccount } from './operator-setup';
import type { Stack } from './start-stack';

/** What every focused scenario is handed: one fresh stack, its account, and where to report. */
export interface FocusContext {
  config: BenchConfig;
  stack: Stack;
  account: BenchAccount;
  settler: BrokerSettler;
  log: (text: string) => void;
}
