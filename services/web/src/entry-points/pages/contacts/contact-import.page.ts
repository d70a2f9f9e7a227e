import type { FailedLine, ImportJob } from '../../../data-access/imports.repository';
import type { ImportOutcome } from '../../../data-access/contacts.client';
import type { StagedLine } from '../../../data-access/imports.repository';
import { html, type SafeHtml } from '../html';
import { csrfField, page, type Viewer } from '../layout';

const count = (value: number) => value.toLocaleString('en-US');

/** Step 1: choose a file (a plain multipart form; no script needed). */
export function importUploadPage(options: { viewer: Viewer; error?: string | undefined; maxMegabytes: number; maxRows: number }): string {
  return page({
    title: 'Import contacts',
    viewer: options.viewer,
    section: 'contacts',
    body: html`<p><a href="/app/contacts">All contacts</a></p>
<div class="card"><h1>Import contacts from a CSV file</h1>
${options.error ? html`<div class="notice error" role="alert">${options.error}</div>` : ''}
<p>The first row names the columns: <code>email</code> (required), <code>first_name</code>, <code>last_name</code>,
<code>subscribed</code> (true/false), <code>tags</code> (separated by <code>;</code>). Any other column becomes a custom property.
An address already in your contacts is updated: names given are set, tags added, properties merged; empty cells change nothing.</p>
<form method="post" action="/app/contacts/import" enctype="multipart/form-data">
${csrfField(options.viewer)}
<div class="field"><label for="import-file">CSV file</label>
<input id="import-file" name="file" type="file" accept=".csv,text/csv" required aria-describedby="import-file-hint">
<p class="hint" id="import-file-hint">Up to ${options.maxMegabytes} MB and ${count(options.maxRows)} rows. You see a preview before anything is imported.</p></div>
<button type="submit">Upload and preview</button>
</form></div>`,
  });
}

const rowEmail = (line: StagedLine) => line.fields.email ?? '—';

function previewRow(line: StagedLine, outcome: ImportOutcome | undefined): SafeHtml {
  const errors = 'errors' in line.fields ? line.fields.errors : outcome?.outcome === 'failed' ? outcome.errors : [];
  const verdict =
    errors.length > 0
      ? html`<span class="badge bounced">Will fail</span>`
      : outcome?.outcome === 'valid' && outcome.existing
        ? html`<span class="badge">Updates a contact</span>`
        : html`<span class="badge subscribed">New contact</span>`;
  return html`<tr><td data-label="Row">${line.line}</td><td data-label="Email">${rowEmail(line)}</td><td data-label="Result">${verdict}</td>
<td data-label="Why">${errors.length ? errors.join('; ') : '—'}</td></tr>`;
}

/** Step 2: what the file holds, its first rows checked by the contacts service, and the import button. */
export function importPreviewPage(options: { viewer: Viewer; job: ImportJob; lines: StagedLine[]; outcomes: ImportOutcome[] }): string {
  const { job, viewer } = options;
  return page({
    title: 'Preview import',
    viewer,
    section: 'contacts',
    body: html`<p><a href="/app/contacts/import">Choose another file</a></p>
<div class="card"><h1>Preview: ${job.file_name}</h1>
<p>${count(job.total_rows)} ${job.total_rows === 1 ? 'row' : 'rows'} read. Columns: ${job.columns.names.join(', ')}.
${job.columns.properties.length ? html`Custom properties: ${job.columns.properties.join(', ')}.` : ''}</p>
<h2>First ${options.lines.length} rows</h2>
<div class="table-wrap"><table class="stack-table">
<caption class="visually-hidden">The first rows of the file and what importing them will do</caption>
<thead><tr><th scope="col">Row</th><th scope="col">Email</th><th scope="col">Result</th><th scope="col">Why</th></tr></thead>
<tbody>${options.lines.map((line, index) => previewRow(line, options.outcomes[index]))}</tbody></table></div>
<form method="post" action="/app/contacts/import/${job.id}/start">${csrfField(viewer)}
<p class="hint">Rows that fail are listed in the report with their reasons; the others are imported.</p>
<div class="actions"><button type="submit">Import ${count(job.total_rows)} ${job.total_rows === 1 ? 'row' : 'rows'}</button>
<a class="button secondary" href="/app/contacts">Cancel</a></div></form></div>`,
  });
}

/** The live part of a running import: htmx replaces it every second; without script, the link reloads it. */
export function importProgress(job: ImportJob): SafeHtml {
  const running = job.state !== 'done';
  return html`<section id="import-progress" aria-live="polite"${running ? html` hx-get="/app/contacts/import/${job.id}/progress" hx-trigger="every 1s" hx-swap="outerHTML"` : ''}>
<p><label for="import-bar">${running ? 'Importing…' : 'Import finished.'}</label>
<progress id="import-bar" max="${Math.max(job.total_rows, 1)}" value="${job.processed_rows}">${count(job.processed_rows)} of ${count(job.total_rows)}</progress></p>
<p>${count(job.processed_rows)} of ${count(job.total_rows)} rows: <strong>${count(job.created_count)}</strong> created,
<strong>${count(job.updated_count)}</strong> updated, <strong>${count(job.failed_count)}</strong> failed.</p>
${running ? html`<p><a href="/app/contacts/import/${job.id}">Show the latest progress</a></p>` : ''}
</section>`;
}

function failedRow(line: FailedLine): SafeHtml {
  const email = line.fields.email ?? '—';
  return html`<tr><td data-label="Row">${line.line}</td><td data-label="Email">${email}</td><td data-label="Why">${line.errors.join('; ')}</td></tr>`;
}

/** Step 3: progress while running, then the report: counts and every failed row with its reasons. */
export function importReportPage(options: { viewer: Viewer; job: ImportJob; failed: FailedLine[] }): string {
  const { job } = options;
  const done = job.state === 'done';
  return page({
    title: done ? 'Import report' : 'Importing',
    viewer: options.viewer,
    section: 'contacts',
    body: html`<p><a href="/app/contacts">All contacts</a></p>
<div class="card"><h1>${done ? 'Import report' : 'Importing'}: ${job.file_name}</h1>
${importProgress(job)}
</div>
${done && job.failed_count > 0
  ? html`<div class="card"><h2>Failed rows</h2>
<p>${job.failed_count > options.failed.length ? html`The first ${options.failed.length} of ${count(job.failed_count)} failed rows. ` : ''}<a href="/app/contacts/import/${job.id}/failed.csv" download>Download every failed row with its reason (CSV)</a></p>
<div class="table-wrap"><table class="stack-table">
<caption class="visually-hidden">Rows that were not imported, with the reasons</caption>
<thead><tr><th scope="col">Row</th><th scope="col">Email</th><th scope="col">Why</th></tr></thead>
<tbody>${options.failed.map(failedRow)}</tbody></table></div></div>`
  : ''}`,
  });
}
