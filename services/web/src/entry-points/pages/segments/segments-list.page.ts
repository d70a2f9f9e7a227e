import type { Segment } from '../../../data-access/segments.client';
import { html } from '../html';
import { csrfField, page, type Viewer } from '../layout';

const day = (iso: string) => iso.slice(0, 10);

/** The account's segments with how many contacts each selects now. */
export function segmentsListPage(options: {
  viewer: Viewer;
  segments: Array<Segment & { count: number | null }>;
  notice?: string | undefined;
}): string {
  return page({
    title: 'Segments',
    section: 'segments',
    viewer: options.viewer,
    body: html`<h1>Segments</h1>
      ${options.notice ? html`<div class="notice" role="status">${options.notice}</div>` : ''}
      <p>
        A segment is a saved rule over contacts’ fields, tags, properties, events and engagement. A campaign
        can go to its members.
      </p>
      <p><a class="button" href="/app/segments/new">New segment</a></p>
      ${
        options.segments.length === 0
          ? html`<div class="card"><p>No segment yet.</p></div>`
          : html`<div class="card table-wrap">
              <table class="stack-table">
                <caption class="visually-hidden">
                  Segments by name
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Contacts now</th>
                    <th scope="col">Conditions</th>
                    <th scope="col">Changed</th>
                  </tr>
                </thead>
                <tbody>
                  ${options.segments.map(
                    (segment) =>
                      html`<tr>
                        <td data-label="Name"><a href="/app/segments/${segment.id}">${segment.name}</a></td>
                        <td data-label="Contacts now">
                          ${segment.count === null ? '—' : segment.count.toLocaleString('en-US')}
                        </td>
                        <td data-label="Conditions">
                          ${segment.rule.match === 'all' ? 'All' : 'Any'} of ${segment.rule.conditions.length}
                        </td>
                        <td data-label="Changed">${day(segment.updated_at)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }`,
  });
}

/** The confirmation step before a segment is deleted (a campaign already sent keeps its recipients). */
export function deleteSegmentPage(options: { viewer: Viewer; segment: Segment }): string {
  return page({
    title: `Delete ${options.segment.name}`,
    section: 'segments',
    viewer: options.viewer,
    body: html`<div class="card narrow">
      <h1>Delete the segment ${options.segment.name}?</h1>
      <p>The contacts stay; only the rule goes. Campaigns already sent keep their recipients.</p>
      <form method="post" action="/app/segments/${options.segment.id}/delete">
        ${csrfField(options.viewer)}
        <div class="actions">
          <button type="submit" class="danger">Delete segment</button>
          <a href="/app/segments/${options.segment.id}">Keep it</a>
        </div>
      </form>
    </div>`,
  });
}
