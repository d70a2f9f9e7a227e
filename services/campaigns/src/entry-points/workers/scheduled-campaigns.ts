import { WakeableLoop } from '@mailer/shared';
import type { Logger } from 'pino';
import type { Pool } from '@mailer/shared';
import { startDueCampaigns } from '../../domain/sending/start-due-campaigns';

/** Starts scheduled campaigns when their send_at passes (checked every `pollMs`), then wakes the relay. */
export function scheduledCampaignsLoop(
  pool: Pool,
  logger: Logger,
  pollMs: number,
  onStarted: () => void,
): WakeableLoop {
  return new WakeableLoop(
    'scheduled-campaigns',
    async () => {
      const started = await startDueCampaigns(pool);
      if (started > 0) onStarted();
      return false;
    },
    pollMs,
    logger,
  );
}
