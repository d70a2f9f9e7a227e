import { verifyTrackingToken, type TrackedEmail } from '@mailer/shared';
import { trackHtml } from '../src/domain/tracking/track-links';

const base = 'https://mail.example.test';
const secret = 'a-tracking-secret-for-the-unit-tests';
const email: TrackedEmail = { accountId: 7, contactId: 42, workflowId: 3, stepId: 'welcome', sentAt: 1_800_000_000 };
const on = { publicBaseUrl: base, secret, settings: { link_tracking: true, open_tracking: true } };

const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]!.replace(/&amp;/g, '&'));
const targetOf = (href: string) => verifyTrackingToken(href.slice(`${base}/t/c/`.length), secret);

describe('trackHtml', () => {
  it('points each http(s) link to its click URL, whose token names the original address (entities decoded) and position', () => {
    const html = `<p><a href="https://shop.test/a?x=1&amp;y=2">A</a> <a class=b href='http://shop.test/b'>B</a> <a href=https://shop.test/c>C</a></p>`;
    const tracked = trackHtml(html, email, { ...on, settings: { link_tracking: true, open_tracking: false } });
    const links = hrefs(tracked);
    expect(links).toHaveLength(3);
    expect(links.every((href) => href.startsWith(`${base}/t/c/`))).toBe(true);
    expect(links.map(targetOf)).toEqual([
      { kind: 'click', email, url: 'https://shop.test/a?x=1&y=2', link: 0 },
      { kind: 'click', email, url: 'http://shop.test/b', link: 1 },
      { kind: 'click', email, url: 'https://shop.test/c', link: 2 },
    ]);
    // Everything around the links is left as it was.
    expect(tracked.replace(/href="[^"]*"/g, 'HREF')).toBe(`<p><a HREF>A</a> <a class=b HREF>B</a> <a HREF>C</a></p>`);
  });

  it('leaves the unsubscribe link, mailto:, tel:, fragments, and links in comments alone', () => {
    const html =
      `<a href="${base}/unsubscribe/w1.7.42.3.d2VsY29tZQ.sig">Unsubscribe</a><a href="mailto:a@b.test">m</a>` +
      `<a href="tel:+331">t</a><a href="#top">top</a><!-- <a href="https://shop.test/hidden">x</a> --><img src="https://shop.test/i.png">`;
    expect(trackHtml(html, email, { ...on, settings: { link_tracking: true, open_tracking: false } })).toBe(html);
  });

  it('reads tags as a browser does: upper-case names, the first of two hrefs, nothing inside a script', () => {
    const html = `<A HREF="https://shop.test/up">U</A><a href="https://shop.test/one" href="https://shop.test/two">1</a><script>var s = '<a href="https://shop.test/js">';</script>`;
    const tracked = trackHtml(html, email, { ...on, settings: { link_tracking: true, open_tracking: false } });
    expect(hrefs(tracked).map((href) => (href.startsWith(base) ? targetOf(href)! : href))).toEqual([
      { kind: 'click', email, url: 'https://shop.test/up', link: 0 },
      { kind: 'click', email, url: 'https://shop.test/one', link: 1 },
      'https://shop.test/two',
      'https://shop.test/js',
    ]);
  });

  it('adds the open pixel before </body> only with open tracking on', () => {
    const html = '<html><body><p>Hi</p></body></html>';
    const tracked = trackHtml(html, email, on);
    const pixel = /<img src="([^"]+)" width="1" height="1"[^>]*><\/body><\/html>$/.exec(tracked);
    expect(pixel).not.toBeNull();
    expect(verifyTrackingToken(pixel![1]!.slice(`${base}/t/o/`.length), secret)).toEqual({ kind: 'open', email });
    expect(trackHtml('<p>no body</p>', email, on)).toMatch(/^<p>no body<\/p><img src="https:\/\/mail\.example\.test\/t\/o\/[^"]+"/);
  });

  it('with tracking off, returns the HTML unchanged: no click URL, no pixel', () => {
    const html = '<html><body><a href="https://shop.test/a">A</a></body></html>';
    expect(trackHtml(html, email, { ...on, settings: { link_tracking: false, open_tracking: false } })).toBe(html);
  });

  it('rewrites the links of a large email quickly (a campaign renders one per recipient)', () => {
    const html = `<html><body>${'<p>Some text <a href="https://shop.test/p?id=1&amp;ref=mail">a link</a></p>'.repeat(200)}</body></html>`;
    const started = performance.now();
    for (let i = 0; i < 50; i++) trackHtml(html, email, on);
    expect((performance.now() - started) / 50).toBeLessThan(50);
  });
});
