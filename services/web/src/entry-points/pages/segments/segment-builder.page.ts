import type { Segment } from '../../../data-access/segments.client';
import { html, type SafeHtml } from '../html';
import { csrfField, page, type Viewer } from '../layout';
import { fieldMessages, invalidAttrs, textField } from '../workflows/form-fields';
import { CONDITION_TYPES, type ConditionRow, type SegmentForm } from './segment-form';
import { segmentPreviewPartial, type PreviewState } from './segment-preview.partial';

const OPS: Record<string, Array<[string, string]>> = {
  tag: [
    ['has', 'has the tag'],
    ['has_not', 'does not have the tag'],
  ],
  field: [
    ['eq', 'is'],
    ['neq', 'is not'],
    ['contains', 'contains'],
    ['exists', 'is set'],
    ['in', 'is one of (comma separated)'],
  ],
  property: [
    ['eq', 'is'],
    ['neq', 'is not'],
    ['lt', 'is less than'],
    ['gt', 'is greater than'],
    ['contains', 'contains'],
    ['exists', 'is set'],
    ['in', 'is one of (comma separated)'],
  ],
  last_engaged: [
    ['within_days', 'opened or clicked within the last'],
    ['not_within_days', 'has not opened or clicked within the last'],
  ],
  campaign: [
    ['opened', 'opened'],
    ['clicked', 'clicked'],
    ['not_opened', 'did not open'],
    ['not_clicked', 'did not click'],
  ],
};

const select = (
  id: string,
  name: string,
  label: string,
  options: Array<[string, string]>,
  chosen: string,
  errors?: string[],
) =>
  html`<div class="field">
    <label for="${id}">${label}</label
    ><select id="${id}" name="${name}" ${invalidAttrs(id, errors)}>
      ${options.map(
        ([value, words]) =>
          html`<option value="${value}" ${value === chosen ? html` selected` : ''}>${words}</option>`,
      )}
    </select>
  </div>`;

const typeLabel = (type: ConditionRow['type']) =>
  type === 'group' ? 'Nested group' : CONDITION_TYPES.find((entry) => entry.type === type)!.label;

/** The inputs of one row, by its type; every input labelled, named `c.<n>.<field>`. */
function rowFields(row: ConditionRow, n: number, campaigns: Array<{ id: number; name: string }>): SafeHtml {
  const id = (field: string) => `c-${n}-${field}`;
  const name = (field: string) => `c.${n}.${field}`;
  const op = (label: string) => select(id('op'), name('op'), label, OPS[row.type] ?? [], row.op);
  const input = (field: string, label: string, value: string, type = 'text') =>
    textField({ id: id(field), name: name(field), label, value, type });
  switch (row.type) {
    case 'tag':
      return html`${op('Contact')}${input('tag', 'Tag', row.tag)}`;
    case 'field':
      return html`${select(
        id('field'),
        name('field'),
        'Field',
        [
          ['email', 'Email'],
          ['first_name', 'First name'],
          ['last_name', 'Last name'],
          ['source', 'Source'],
        ],
        row.field,
      )}${op('Comparison')}${input('value', 'Value', row.value)}`;
    case 'property':
      return html`${input('key', 'Property name', row.key)}${op('Comparison')}${input('value', 'Value', row.value)}`;
    case 'subscribed':
      return select(
        id('value'),
        name('value'),
        'Contact is',
        [
          ['true', 'subscribed'],
          ['false', 'unsubscribed'],
        ],
        row.value,
      );
    case 'last_engaged':
      return html`${op('Contact')}${input('days', 'Days', row.days, 'number')}`;
    case 'event':
      return html`${input('event', 'Event name', row.event)}${input('min_count', 'At least this many times', row.minCount, 'number')}${input('days', 'In the last days', row.days, 'number')}`;
    case 'campaign': {
      const known = campaigns.some((campaign) => String(campaign.id) === row.campaignId);
      const options: Array<[string, string]> = [
        ['', 'Choose a campaign'],
        ...campaigns.map((campaign): [string, string] => [String(campaign.id), campaign.name]),
      ];
      if (!known && row.campaignId) options.push([row.campaignId, `Campaign #${row.campaignId}`]);
      return html`${op('Contact')}${select(id('campaign_id'), name('campaign_id'), 'Campaign', options, row.campaignId)}`;
    }
    case 'never_opened':
      return html`<p class="hint">Contacts who have never opened or clicked any email (readers only).</p>`;
    case 'group':
      return html`<p class="hint">A nested group made through the API; it is kept as it is.</p>
        <input type="hidden" name="${name('group')}" value="${row.group}" />`;
  }
}

function conditionRow(
  row: ConditionRow,
  n: number,
  errors: string[] | undefined,
  campaigns: Array<{ id: number; name: string }>,
): SafeHtml {
  return html`<fieldset class="condition" id="condition-${n}">
    <legend>Condition ${n + 1}: ${typeLabel(row.type)}</legend>
    <input type="hidden" name="c.${n}.type" value="${row.type}" />
    ${rowFields(row, n, campaigns)}
    <button
      type="submit"
      class="secondary remove"
      name="intent"
      value="remove:${n}"
      aria-label="Remove condition ${n + 1}"
    >
      Remove
    </button>
    ${fieldMessages(`c-${n}`, errors)}
  </fieldset>`;
}

/**
 * The segment builder: a name, all/any, a flat list of conditions of every type (nested groups made
 * through the API are kept), the live count beside it. Adding and removing a condition re-renders
 * the form (no JS needed); htmx posts the form to the preview partial on each change.
 */
export function segmentBuilderPage(options: {
  viewer: Viewer;
  form: SegmentForm;
  preview: PreviewState;
  campaigns: Array<{ id: number; name: string }>;
  segment?: Segment | undefined;
  problems?: { rows: Map<number, string[]>; form: string[] } | undefined;
  notice?: string | undefined;
}): string {
  const { form, segment, viewer } = options;
  const action = segment ? `/app/segments/${segment.id}` : '/app/segments';
  const problems = options.problems;
  const problemCount = problems
    ? problems.form.length + [...problems.rows.values()].reduce((sum, list) => sum + list.length, 0)
    : 0;
  return page({
    title: segment ? `Segment ${segment.name}` : 'New segment',
    section: 'segments',
    viewer,
    body: html`<p><a href="/app/segments">← Segments</a></p>
      <h1>${segment ? segment.name : 'New segment'}</h1>
      ${options.notice ? html`<div class="notice" role="status">${options.notice}</div>` : ''}
      ${
        problemCount > 0
          ? html`<div class="notice error" role="alert">
              <p>The segment was not saved: ${problemCount} problem${problemCount === 1 ? '' : 's'}.</p>
              ${
                problems!.form.length
                  ? html`<ul>
                      ${problems!.form.map((m) => html`<li>${m}</li>`)}
                    </ul>`
                  : ''
              }
            </div>`
          : ''
      }
      <form
        method="post"
        action="${action}"
        class="card"
        novalidate
        hx-post="/app/segments/preview"
        hx-trigger="change delay:150ms, input delay:500ms"
        hx-target="#segment-preview"
        hx-swap="outerHTML"
      >
        ${csrfField(viewer)}
        ${textField({ id: 'segment-name', name: 'name', label: 'Name', value: form.name, required: true, maxlength: 255, errors: problems?.form.filter((m) => m.startsWith('name')) })}
        <fieldset>
          <legend>Contacts who match</legend>
          <div class="field inline">
            <input
              id="match-all"
              type="radio"
              name="match"
              value="all"
              ${form.match === 'all' ? html` checked` : ''}
            /><label for="match-all">All of the conditions</label>
          </div>
          <div class="field inline">
            <input
              id="match-any"
              type="radio"
              name="match"
              value="any"
              ${form.match === 'any' ? html` checked` : ''}
            /><label for="match-any">Any of the conditions</label>
          </div>
        </fieldset>
        <h2>Conditions</h2>
        ${form.rows.length === 0 ? html`<p class="hint">No condition yet: add one below.</p>` : form.rows.map((row, n) => conditionRow(row, n, problems?.rows.get(n), options.campaigns))}
        <div class="actions">
          ${select(
            'add-type',
            'add_type',
            'Add a condition',
            CONDITION_TYPES.map((entry): [string, string] => [entry.type, entry.label]),
            'tag',
          )}
          <button type="submit" class="secondary" name="intent" value="add">Add condition</button>
        </div>
        <div class="actions">
          <button type="submit" name="intent" value="save">
            ${segment ? 'Save segment' : 'Create segment'}
          </button>
          <button type="submit" class="secondary" name="intent" value="preview">Preview</button>
        </div>
      </form>
      ${segmentPreviewPartial(options.preview)}
      ${segment ? html`<p><a class="button danger" href="/app/segments/${segment.id}/delete">Delete segment</a></p>` : ''}`,
  });
}
