import type { Liquid, Template } from 'liquidjs';
import type { EmailStep } from '../workflows/workflow-schema';
import { createLiquidEngine, RENDER_LIMITS } from './liquid-engine';
import { htmlToText } from './html-to-text';

export interface RenderedEmail {
  subject: string;
  html: string | undefined;
  text: string;
}

/** A template that cannot be rendered (runaway loop, too large, unknown filter). */
export class RenderError extends Error {
  constructor(part: string, cause: unknown) {
    super(`${part}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'RenderError';
  }
}

/** A subject is one header line: CR, LF and NUL (and other control characters) become spaces. */
export const sanitizeSubject = (subject: string) =>
  subject
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim()
    .slice(0, 998);

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&#34;').replace(/</g, '&lt;');

/** Parsed templates kept per engine: a campaign renders the same three sources for every recipient. */
const PARSED_CAPACITY = 200;

export class EmailRenderer {
  private readonly html: Liquid;
  private readonly text: Liquid;
  private readonly parsed = new Map<Liquid, Map<string, Template[]>>();

  constructor(private readonly limits = RENDER_LIMITS) {
    this.html = createLiquidEngine('html', limits);
    this.text = createLiquidEngine('text', limits);
  }

  /** Parses a template without rendering it: the import check. Throws with Liquid's message. */
  check(source: string, mode: 'html' | 'text'): void {
    (mode === 'html' ? this.html : this.text).parse(source);
  }

  async render(step: EmailStep, scope: Record<string, unknown>, unsubscribeUrl: string): Promise<RenderedEmail> {
    const subject = sanitizeSubject(await this.part('subject', this.text, step.subject, scope));
    let html = step.html === undefined ? undefined : await this.part('html', this.html, step.html, scope);
    let text = step.text === undefined ? htmlToText(html ?? '') : await this.part('text', this.text, step.text, scope);
    // Every email carries the unsubscribe link, whether or not the template placed it.
    if (html !== undefined && !html.includes(escapeAttribute(unsubscribeUrl)) && !html.includes(unsubscribeUrl)) {
      html += `\n<p style="font-size:12px;color:#666"><a href="${escapeAttribute(unsubscribeUrl)}">Unsubscribe</a></p>`;
    }
    if (!text.includes(unsubscribeUrl)) text += `\n\nUnsubscribe: ${unsubscribeUrl}`;
    return { subject, html, text };
  }

  /** The parsed template of `source` (parse limits apply once); the oldest entry makes room. */
  private parse(engine: Liquid, source: string): Template[] {
    let cache = this.parsed.get(engine);
    if (!cache) this.parsed.set(engine, (cache = new Map()));
    const known = cache.get(source);
    if (known) return known;
    const templates = engine.parse(source);
    cache.set(source, templates);
    if (cache.size > PARSED_CAPACITY) cache.delete(cache.keys().next().value!);
    return templates;
  }

  private async part(name: string, engine: Liquid, source: string, scope: Record<string, unknown>): Promise<string> {
    let output: string;
    try {
      output = String(await engine.render(this.parse(engine, source), scope));
    } catch (error) {
      throw new RenderError(name, error);
    }
    if (output.length > this.limits.outputChars) throw new RenderError(name, new Error('rendered output is too large'));
    return output;
  }
}
