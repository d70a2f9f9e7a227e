import { EmailRenderer, RenderError, sanitizeSubject } from '../src/domain/rendering/render-email';
import { htmlToText } from '../src/domain/rendering/html-to-text';
import { templateScope } from '../src/domain/rendering/template-scope';
import type { EmailStep } from '../src/domain/workflows/workflow-schema';

const renderer = new EmailRenderer();
const url = 'http://127.0.0.1:3000/unsubscribe/v1.1.2.x';

const scope = (properties: Record<string, unknown> = {}, contact: { first_name?: string | null } = {}, fallbacks = { first_name: 'there' }) =>
  templateScope({
    contact: { email: 'ann@example.test', first_name: null, last_name: null, tags: ['vip'], custom_properties: { plan: 'pro' }, ...contact },
    event: { name: 'signup', properties },
    fallbacks,
    unsubscribeUrl: url,
  });

const step = (parts: Partial<EmailStep>): EmailStep => ({ id: 's', type: 'email', subject: 'S', ...parts });

describe('rendering a step', () => {
  it('applies the fallback order: template default:, then workflow fallback, then empty', async () => {
    const html = '{{ first_name | default: "friend" }}|{{ first_name }}|{{ nickname }}|{{ contact.first_name }}';
    expect((await renderer.render(step({ text: html }), scope(), url)).text).toMatch(/^friend\|there\|\|there/);
    expect((await renderer.render(step({ text: html }), scope({ first_name: 'Bo' }), url)).text).toMatch(/^Bo\|Bo\|\|there/);
    expect((await renderer.render(step({ text: html }), scope({}, { first_name: 'Cy' }), url)).text).toMatch(/^Cy\|Cy\|\|Cy/);
  });

  it('lets an event property win over a contact detail, and exposes custom properties, tags and the event', async () => {
    const text = '{{ plan }} {{ contact.custom_properties.plan }} {{ tags | join: "," }} {{ event.name }} {{ email }}';
    expect((await renderer.render(step({ text }), scope({ plan: 'trial' }), url)).text).toMatch(/^trial pro vip signup ann@example\.test/);
  });

  it('escapes HTML output but not the text part, and strips CR, LF and NUL from the subject', async () => {
    const rendered = await renderer.render(
      step({ subject: 'Hi {{ first_name }}', html: '<b>{{ first_name }}</b>', text: '{{ first_name }}' }),
      scope({ first_name: '<i>x</i>\r\nBcc: a@b.test\u0000' }),
      url,
    );
    expect(rendered.subject).toBe('Hi <i>x</i> Bcc: a@b.test');
    expect(rendered.html).toContain('<b>&lt;i&gt;x&lt;/i&gt;');
    expect(rendered.text).toContain('<i>x</i>');
  });

  it('generates the text part from HTML and appends the unsubscribe link when the template has none', async () => {
    const rendered = await renderer.render(step({ html: '<h1>Hello</h1><p>Read <a href="https://x.test/a">this</a> &amp; that</p><ul><li>one</li></ul>' }), scope(), url);
    expect(rendered.text).toBe(`Hello\n\nRead this (https://x.test/a) & that\n\n- one\n\nUnsubscribe: ${url}`);
    expect(rendered.html).toContain(`<a href="${url}">Unsubscribe</a>`);
  });

  it('aborts a runaway template within a second', async () => {
    const started = Date.now();
    const loop = '{% for i in (1..3000) %}{% for j in (1..3000) %}{% if j == 0 %}x{% endif %}{% endfor %}{% endfor %}';
    await expect(renderer.render(step({ text: loop }), scope(), url)).rejects.toBeInstanceOf(RenderError);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('refuses output that grows without bound', async () => {
    const bomb = '{% assign s = "xxxxxxxxxx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s }}';
    await expect(renderer.render(step({ text: bomb }), scope(), url)).rejects.toBeInstanceOf(RenderError);
  });

  it('refuses file-system tags and unknown filters when a template is checked', () => {
    expect(() => renderer.check('{% include "x" %}', 'html')).toThrow(/not allowed/);
    expect(() => renderer.check('{% render "x" %}', 'text')).toThrow(/not allowed/);
    expect(() => renderer.check('{% layout "x" %}', 'text')).toThrow(/not allowed/);
    expect(() => renderer.check('{{ a | nope }}', 'text')).toThrow(/undefined filter/);
  });

  it('does not read inherited properties', async () => {
    expect((await renderer.render(step({ text: '[{{ contact.constructor }}{{ first_name.length }}]' }), scope({ first_name: 'ab' }), url)).text).toMatch(/^\[(2)?\]/);
  });
});

describe('sanitizeSubject and htmlToText', () => {
  it('keeps a subject on one line', () => {
    expect(sanitizeSubject('a\r\n\r\nb\u2028c\td')).toBe('a b c d');
  });

  it('drops scripts and styles and decodes entities', () => {
    expect(htmlToText('<style>p{}</style><script>x()</script><p>a&nbsp;&lt;b&gt;&#39;&#x41;</p>')).toBe("a <b>'A");
  });
});
