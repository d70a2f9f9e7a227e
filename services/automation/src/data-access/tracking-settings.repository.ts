import type { Pool, PoolClient } from '@mailer/shared';

type Queryable = Pool | PoolClient;

export interface TrackingSettings {
  link_tracking: boolean;
  open_tracking: boolean;
}

/** An account that never chose: links tracked, opens not (docs/adr/0048). */
export const DEFAULT_TRACKING: Readonly<TrackingSettings> = Object.freeze({ link_tracking: true, open_tracking: false });

export async function findTrackingSettings(db: Queryable, accountId: number): Promise<TrackingSettings> {
  const { rows } = await db.query<TrackingSettings>({
    name: 'automation.find-tracking-settings',
    text: 'SELECT link_tracking, open_tracking FROM tracking_settings WHERE account_id = $1',
    values: [accountId],
  });
  return rows[0] ?? { ...DEFAULT_TRACKING };
}

export async function saveTrackingSettings(db: Queryable, accountId: number, settings: TrackingSettings): Promise<TrackingSettings> {
  const { rows } = await db.query<TrackingSettings>(
    `INSERT INTO tracking_settings (account_id, link_tracking, open_tracking) VALUES ($1, $2, $3)
     ON CONFLICT (account_id) DO UPDATE SET link_tracking = EXCLUDED.link_tracking, open_tracking = EXCLUDED.open_tracking, updated_at = now()
     RETURNING link_tracking, open_tracking`,
    [accountId, settings.link_tracking, settings.open_tracking],
  );
  return rows[0]!;
}
