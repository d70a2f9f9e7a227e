import type { TrackingSettings } from '../../../data-access/engagement.client';
import { html } from '../html';
import { csrfField, type Viewer } from '../layout';
import { settingsPage } from './settings.page';

/** Settings → Tracking: whether emails carry tracked links and the open pixel (automation renders both). */
export function trackingSettingsPage(options: {
  viewer: Viewer;
  settings: TrackingSettings;
  saved?: boolean;
  errors?: string[] | undefined;
}): string {
  const { settings } = options;
  return settingsPage({
    title: 'Tracking',
    current: 'tracking',
    viewer: options.viewer,
    body: html`<div class="card">
      <h1>Tracking</h1>
      ${options.saved ? html`<div class="notice" role="status">Saved. Emails rendered from now on follow these settings.</div>` : ''}
      ${options.errors?.length ? html`<div class="notice error" role="alert">${options.errors.join(' ')}</div>` : ''}
      <form method="post" action="/app/settings/tracking">
        ${csrfField(options.viewer)}
        <div class="toggle">
          <input
            id="link-tracking"
            name="link_tracking"
            type="checkbox"
            value="on"
            ${settings.link_tracking ? html` checked` : ''}
            aria-describedby="link-tracking-hint"
          />
          <div>
            <label for="link-tracking">Track link clicks</label>
            <p class="hint" id="link-tracking-hint">
              Links in the HTML part go through a short redirect on this platform, so a campaign’s report and
              its links table show who clicked. On by default. The unsubscribe link and the text part are
              never rewritten.
            </p>
          </div>
        </div>
        <div class="toggle">
          <input
            id="open-tracking"
            name="open_tracking"
            type="checkbox"
            value="on"
            ${settings.open_tracking ? html` checked` : ''}
            aria-describedby="open-tracking-hint"
          />
          <div>
            <label for="open-tracking">Track opens</label>
            <p class="hint" id="open-tracking-hint">
              Adds a 1×1 image to the HTML part. Off by default: Apple Mail Privacy Protection and other mail
              proxies load every image of every email they receive, whether or not anyone reads it, so opens
              are inflated. Clicks are the reliable signal.
            </p>
          </div>
        </div>
        <button type="submit">Save</button>
      </form>
    </div>`,
  });
}
