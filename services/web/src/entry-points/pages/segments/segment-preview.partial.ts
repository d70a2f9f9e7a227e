import type { SegmentPreview } from '../../../data-access/segments.client';
import { html, type SafeHtml } from '../html';

/** What the preview region shows: the count and a sample, the rule's problems, or a prompt. */
export type PreviewState =
  { kind: 'result'; preview: SegmentPreview } | { kind: 'refused'; problems: string[] } | { kind: 'empty' };

/**
 * The live count and sample of the rule being edited. The builder's form posts here through htmx
 * on each change; without JavaScript its Preview button renders the whole page with the same region.
 */
export function segmentPreviewPartial(state: PreviewState): SafeHtml {
  const body =
    state.kind === 'empty'
      ? html`<p>Add a condition to see who matches.</p>`
      : state.kind === 'refused'
        ? html`<p><strong>This rule cannot be counted yet:</strong></p>
            <ul>
              ${state.problems.map((problem) => html`<li>${problem}</li>`)}
            </ul>`
        : html`<p>
              <span class="number" data-segment-count>${state.preview.count.toLocaleString('en-US')}</span>
              matching contact${state.preview.count === 1 ? '' : 's'} now
            </p>
            ${
              state.preview.sample.length === 0
                ? ''
                : html`<p class="hint">
                      ${state.preview.count > state.preview.sample.length ? `A sample of ${state.preview.sample.length}:` : 'They are:'}
                    </p>
                    <ul class="sample">
                      ${state.preview.sample.map(
                        (contact) =>
                          html`<li>
                            <a href="/app/contacts/${contact.id}">${contact.email}</a
                            >${contact.first_name || contact.last_name ? html` <span class="hint">${[contact.first_name, contact.last_name].filter(Boolean).join(' ')}</span>` : ''}
                          </li>`,
                      )}
                    </ul>`
            }`;
  return html`<section
    id="segment-preview"
    class="preview-result"
    aria-live="polite"
    aria-labelledby="segment-preview-title"
  >
    <h2 id="segment-preview-title">Who matches</h2>
    ${body}
  </section>`;
}
