import type { SendingSettings } from '../../../data-access/campaigns.client';
import { html } from '../html';
import { csrfField, type Viewer } from '../layout';
import { textField } from '../workflows/form-fields';
import { settingsPage } from './settings.page';

export interface SendingForm {
  rate: string;
  fromName: string;
  fromAddress: string;
}

export const sendingFormOf = (settings: SendingSettings): SendingForm => ({
  rate: settings.rate_per_second === null ? '' : String(settings.rate_per_second),
  fromName: settings.from_name ?? '',
  fromAddress: settings.from_address ?? '',
});

/** Settings → Sending: the account's campaign rate and default sender (empty: the platform's default). */
export function sendingSettingsPage(options: { viewer: Viewer; form: SendingForm; errors?: Record<string, string[]>; saved?: boolean }): string {
  const errors = options.errors ?? {};
  return settingsPage({
    title: 'Sending',
    current: 'sending',
    viewer: options.viewer,
    body: html`<div class="card">
<h1>Sending</h1>
${options.saved ? html`<div class="notice" role="status">Saved. Campaigns started from now on use these settings.</div>` : ''}
${errors.form ? html`<div class="notice error" role="alert">${errors.form.join(' ')}</div>` : ''}
<form method="post" action="/app/settings/sending">${csrfField(options.viewer)}
${textField({ id: 'sending-rate', name: 'rate_per_second', label: 'Campaign emails per second', value: options.form.rate, errors: errors.rate_per_second, hint: 'Leave empty for the platform default (100). Workflow emails always go first.' })}
${textField({ id: 'sending-from-name', name: 'from_name', label: 'From name', value: options.form.fromName, errors: errors.from_name, maxlength: 200 })}
${textField({ id: 'sending-from-address', name: 'from_address', label: 'From address', value: options.form.fromAddress, type: 'email', errors: errors.from_address, hint: 'Leave empty for the platform’s sender.' })}
<button type="submit">Save</button>
</form>
</div>`,
  });
}
