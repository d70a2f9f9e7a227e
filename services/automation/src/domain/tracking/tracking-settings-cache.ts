import type { Pool } from '@mailer/shared';
import { findTrackingSettings, type TrackingSettings } from '../../data-access/tracking-settings.repository';

const FRESH_MS = 30_000;
const CAPACITY = 10_000;

/**
 * Each account's tracking settings as the sending path reads them: a campaign renders a hundred
 * thousand emails of one account, and one query per email would cost more than the rewriting. A
 * change applies to emails rendered up to FRESH_MS later (on every instance); concurrent reads of
 * one account share one query.
 */
export class TrackingSettingsCache {
  private readonly byAccount = new Map<number, { settings: Promise<TrackingSettings>; readAt: number }>();

  constructor(
    private readonly pool: Pool,
    private readonly freshMs = FRESH_MS,
  ) {}

  get(accountId: number): Promise<TrackingSettings> {
    const now = Date.now();
    const cached = this.byAccount.get(accountId);
    if (cached && now - cached.readAt < this.freshMs) return cached.settings;
    const settings = findTrackingSettings(this.pool, accountId);
    this.byAccount.delete(accountId);
    this.byAccount.set(accountId, { settings, readAt: now });
    // A failed read is not remembered: the next email asks again.
    settings.catch(() => this.byAccount.get(accountId)?.settings === settings && this.byAccount.delete(accountId));
    if (this.byAccount.size > CAPACITY) this.byAccount.delete(this.byAccount.keys().next().value!);
    return settings;
  }

  /** This instance saw the change (its own route): the next email reads it. */
  forget(accountId: number): void {
    this.byAccount.delete(accountId);
  }
}
