import { Parser } from 'htmlparser2';
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

/**
 * The `href` of every `<a>` whose address is an http(s) URL, except those under
 * `${publicBaseUrl}/unsubscribe/` (an unsubscribe must never wait on a redirect): the attribute's
 * place in the source and its value with entities decoded, as a browser would follow it. Located
 * by htmlparser2's tokenizer, so comments, scripts and attribute quoting are read as a browser
 * reads them; the HTML around them is left byte for byte.
 */
function trackableLinks(html: string, unsubscribePrefix: string): Splice[] {
  const splices: Splice[] = [];
  let tag = '';
  let hrefSeen = false;
  const parser: Parser = new Parser(
    {
      onopentagname(name) {
        tag = name;
        hrefSeen = false;
      },
      onattribute(name, value, quote) {
        // A browser follows the first href of a tag; a repeated one is ignored, so left as it is.
        if (tag !== 'a' || name !== 'href' || hrefSeen) return;
        hrefSeen = true;
        const url = value.trim();
        if (!/^https?:\/\//i.test(url) || url.startsWith(unsubscribePrefix)) return;
        // A quoted value ends at its closing quote (endIndex points at it); an unquoted one just before endIndex.
        const end = quote === '"' || quote === "'" ? parser.endIndex + 1 : parser.endIndex;
        splices.push({ start: parser.startIndex, end, url });
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
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
