import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { signTrackingToken, trackingUrl, type TrackedEmail } from '@mailer/shared';
import type { TrackingSettings } from '../../data-access/tracking-settings.repository';

export interface TrackingOptions {
  publicBaseUrl: string;
  secret: string;
  settings: TrackingSettings;
}

interface Splice {
  start: number;
  end: number;
  url: string;
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&#34;').replace(/</g, '&lt;');

const noop = () => undefined;
/** htmlparser2's QuoteType for a single- or double-quoted value (Single = 2, Double = 3), which its index does not export. */
const isQuoted = (quote: number) => quote === 2 || quote === 3;

/**
 * The `href` of every `<a>` whose address is an http(s) URL, except those under
 * `${publicBaseUrl}/unsubscribe/` (an unsubscribe must never wait on a redirect): the attribute's
 * place in the source and its value with entities decoded, as a browser would follow it. Found by
 * htmlparser2's tokenizer, so comments, scripts and attribute quoting are read as a browser reads
 * them, and the HTML around them is left byte for byte. The tokenizer alone, not its Parser: the
 * Parser slices every text node and builds every tag's attributes, twice the time for nothing here.
 */
function trackableLinks(html: string, unsubscribePrefix: string): Splice[] {
  const splices: Splice[] = [];
  let inAnchor = false;
  let hrefSeen = false;
  let attribute: { start: number; value: string } | undefined;
  const callbacks: TokenizerCallbacks = {
    onopentagname(start, end) {
      inAnchor = end - start === 1 && (html.charCodeAt(start) | 0x20) === 0x61; // a or A
      hrefSeen = false;
    },
    onattribname(start, end) {
      // A browser follows the first href of a tag; a repeated one is ignored, so left as it is.
      const isHref = inAnchor && !hrefSeen && end - start === 4 && html.slice(start, end).toLowerCase() === 'href';
      attribute = isHref ? { start, value: '' } : undefined;
      if (isHref) hrefSeen = true;
    },
    onattribdata(start, end) {
      if (attribute) attribute.value += html.slice(start, end);
    },
    onattribentity(codePoint) {
      if (attribute) attribute.value += String.fromCodePoint(codePoint);
    },
    onattribend(quote, endIndex) {
      if (!attribute) return;
      const url = attribute.value.trim();
      if (/^https?:\/\//i.test(url) && !url.startsWith(unsubscribePrefix)) {
        // A quoted value ends at its closing quote (endIndex points at it); an unquoted one just before endIndex.
        const end = isQuoted(quote) ? endIndex + 1 : endIndex;
        splices.push({ start: attribute.start, end, url });
      }
      attribute = undefined;
    },
    onopentagend: noop,
    onselfclosingtag: noop,
    onclosetag: noop,
    ontext: noop,
    ontextentity: noop,
    oncomment: noop,
    oncdata: noop,
    ondeclaration: noop,
    onprocessinginstruction: noop,
    onend: noop,
  };
  const tokenizer = new Tokenizer({ decodeEntities: true }, callbacks);
  tokenizer.write(html);
  tokenizer.end();
  return splices;
}

/** The 1×1 open pixel: before the last `</body>`, else at the end. */
function withOpenPixel(html: string, pixelUrl: string): string {
  const pixel = `<img src="${escapeAttribute(pixelUrl)}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px">`;
  const at = html.search(/<\/body\s*>(?![\s\S]*<\/body\s*>)/i);
  return at < 0 ? html + pixel : html.slice(0, at) + pixel + html.slice(at);
}

/**
 * The HTML part as sent: with link tracking, each trackable link (see trackableLinks) points to
 * its click URL, whose token carries the original address and the link's position; with open
 * tracking, the open pixel is added. Settings off: the HTML is returned unchanged. The text part
 * is never passed here: it keeps the original addresses.
 */
export function trackHtml(html: string, email: TrackedEmail, options: TrackingOptions): string {
  const { settings, publicBaseUrl, secret } = options;
  let tracked = html;
  if (settings.link_tracking) {
    const unsubscribePrefix = `${publicBaseUrl.replace(/\/+$/, '')}/unsubscribe/`;
    const splices = trackableLinks(html, unsubscribePrefix);
    if (splices.length > 0) {
      const parts: string[] = [];
      let from = 0;
      splices.forEach((splice, link) => {
        const token = signTrackingToken({ kind: 'click', email, url: splice.url, link }, secret);
        parts.push(html.slice(from, splice.start), `href="${escapeAttribute(trackingUrl(publicBaseUrl, 'click', token))}"`);
        from = splice.end;
      });
      parts.push(html.slice(from));
      tracked = parts.join('');
    }
  }
  if (settings.open_tracking) {
    tracked = withOpenPixel(tracked, trackingUrl(publicBaseUrl, 'open', signTrackingToken({ kind: 'open', email }, secret)));
  }
  return tracked;
}
