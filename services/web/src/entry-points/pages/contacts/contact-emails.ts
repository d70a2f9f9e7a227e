import type { ContactEmail } from '../../../data-access/engagement.client';
import { html, type SafeHtml } from '../html';

const minute = (iso: string | null) => (iso === null ? '—' : `${iso.replace('T', ' ').slice(0, 16)} UTC`);

const OUTCOMES: Record<string, string> = {
  sent: 'Sent',
  failed: 'Failed',
  skipped: 'Not sent',
  pending: 'Waiting',
  bounced: 'Bounced',
};

function origin(email: ContactEmail): SafeHtml {
  if (email.kind === 'campaign')
    return html`Campaign <a href="/app/campaigns/${email.campaign_id ?? ''}">#${email.campaign_id ?? ''}</a>`;
  return html`<a href="/app/workflows/${email.workflow_id ?? ''}">${email.workflow_name ?? 'Workflow'}</a
    >${email.step_id ? html` · step ${email.step_id}` : ''}`;
}

function row(email: ContactEmail): SafeHtml {
  const badge =
    email.outcome === 'sent'
      ? 'subscribed'
      : email.outcome === 'failed' || email.outcome === 'bounced'
        ? 'bounced'
        : '';
  return html`<tr>
    <td data-label="Subject">${email.subject ?? html`<span class="hint">(not rendered)</span>`}</td>
    <td data-label="From">${origin(email)}</td>
    <td data-label="Sent">${minute(email.sent_at)}</td>
    <td data-label="Outcome">
      <span class="badge ${badge}">${OUTCOMES[email.outcome] ?? email.outcome}</span>
    </td>
    <td data-label="First opened">${minute(email.first_opened_at)}</td>
    <td data-label="Clicks">
      ${email.clicks}${email.first_clicked_at ? html` <span class="hint">(first ${minute(email.first_clicked_at)})</span>` : ''}
    </td>
  </tr>`;
}

/** Every email sent to the contact (newest first, the last 100) by its subject as rendered, with what the reader did. */
export function contactEmailsCard(emails: ContactEmail[]): SafeHtml {
  return html`<div class="card" id="emails">
    <h2>Emails</h2>
    ${
      emails.length === 0
        ? html`<p>No email has been sent to this contact yet.</p>`
        : html`<div class="table-wrap">
              <table class="stack-table">
                <caption class="visually-hidden">
                  Emails sent to this contact, newest first, with opens and clicks
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Subject</th>
                    <th scope="col">From</th>
                    <th scope="col">Sent</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">First opened</th>
                    <th scope="col">Clicks</th>
                  </tr>
                </thead>
                <tbody>
                  ${emails.map(row)}
                </tbody>
              </table>
            </div>
            <p class="hint">
              Opens and clicks are readers’ own: link scanners and mail-privacy proxies are left out.
            </p>`
    }
  </div>`;
}
