/** One fault: injects itself and resolves once the service it broke is back. */
export interface Fault {
  name: string;
  run(): Promise<void>;
}

export interface FaultTiming {
  name: string;
  startedMs: number;
  recoveredMs: number;
}

/**
 * Spreads faults over a stream of `count` events: fault k starts when client
 * round(count * (k + 1) / (faults + 1)) is due. Faults run one after another: the stream is held
 * at a checkpoint until the previous fault has recovered, so each fault lands in live traffic
 * instead of all piling up inside the first broker outage.
 */
export function faultSchedule(count: number, faults: Fault[], origin: number, notBefore: number) {
  const checkpoints = faults.map((_, k) => Math.round((count * (k + 1)) / (faults.length + 1)));
  const timings: FaultTiming[] = [];
  let previous: Promise<void> = Promise.resolve();
  let failure: unknown;

  async function gate(index: number) {
    const k = checkpoints.indexOf(index);
    if (k < 0) return;
    const fault = faults[k]!;
    await previous;
    if (failure) throw failure;
    if (Date.now() < notBefore) await new Promise((resolve) => setTimeout(resolve, notBefore - Date.now()));
    const startedMs = Date.now() - origin;
    previous = fault.run().then(
      () => {
        timings.push({ name: fault.name, startedMs, recoveredMs: Date.now() - origin });
      },
      (error: unknown) => {
        failure = error;
      },
    );
  }

  return {
    gate,
    timings,
    /** Resolves once the last fault recovered (rejects if one could not be injected or undone). */
    async finished(): Promise<void> {
      await previous;
      if (failure) throw failure;
    },
  };
}
