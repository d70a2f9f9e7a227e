import { waitFor } from '@mailer/testing';
import { EmailRenderer } from '../src/domain/rendering/render-email';
import { templateScope } from '../src/domain/rendering/template-scope';
import { newAccountId, newContact, startAutomationHarness, type AutomationHarness } from './support/automation-harness';

// Render budget lowered so a runaway template is aborted quickly; the product default is 1000 ms.
const RENDER_TIMEOUT_MS = 300;

const SCRIPT_PAYLOAD = '<script>alert(1)</script>"><img src=x onerror=alert(2)>javascript:alert(3){{ 6 | times: 7 }}{% assign pwned = "yes" %}{{ pwned }}';
const HEADER_PAYLOADS = ['a\r\nBcc: bcc@evil.test', 'b\nX-Injected-Lf: 1', 'c\rX-Injected-Cr: 1'];

const personalised = (subjectPrefix: string) => ({
  name: `Personalised ${subjectPrefix}`,
  trigger: { event: 'signup' },
  steps: [
    {
      id: 'mail',
      type: 'email',
      subject: `${subjectPrefix} {{ first_name }}|{{ last_name }}|{{ plan }}|{{ event.properties.ref }}`,
      html: '<p>{{ first_name }}|{{ contact.last_name }}|{{ plan }}|{{ event.properties.ref }}</p><a href="{{ unsubscribe_url }}">Unsubscribe</a>',
    },
  ],
});

/** The raw header block: the map the sink builds keeps one value per name, so count lines here. */
const headerBlock = (raw: string) => raw.split(/\r?\n\r?\n/, 1)[0] ?? '';

describe('template and header safety', () => {
  let harness: AutomationHarness;
  beforeAll(async () => {
    harness = await startAutomationHarness('tplsafety', { env: { RENDER_TIMEOUT_MS: String(RENDER_TIMEOUT_MS) } });
  });
  afterAll(async () => harness.stop());

  async function sendWith(workflow: unknown, payloads: [string, string, string, string]) {
    const account = newAccountId();
    await harness.importWorkflow(account, workflow);
    const contact = newContact({ first_name: payloads[0], last_name: payloads[1], custom_properties: { plan: payloads[2] } });
    await harness.publishEvent(account, contact, 'signup', { ref: payloads[3] });
    const email = await waitFor(() => harness.sink.messagesTo(contact.email)[0], { what: `email to ${contact.email}` });
    return { email, contact, account };
  }

  it('escapes script injection in every personalised field and never evaluates Liquid found in data', async () => {
    const { email } = await sendWith(personalised('Hi'), [SCRIPT_PAYLOAD, SCRIPT_PAYLOAD, SCRIPT_PAYLOAD, SCRIPT_PAYLOAD]);
    const html = String(email.parsed.html);
    const escaped =
      '&lt;script&gt;alert(1)&lt;/script&gt;&#34;&gt;&lt;img src=x onerror=alert(2)&gt;javascript:alert(3){{ 6 | times: 7 }}{% assign pwned = &#34;yes&#34; %}{{ pwned }}';
    expect(html).toContain(`<p>${escaped}|${escaped}|${escaped}|${escaped}</p>`);
    expect(html).not.toMatch(/<script|<img|href="javascript:/i);
    // Only the personalised paragraph: the unsubscribe link's random port may itself contain "42".
    const paragraph = html.slice(0, html.indexOf('</p>'));
    expect(paragraph).not.toMatch(/42|yes(?!&#34;)/);
    // The subject is plain text (no HTML escaping) but data is still never evaluated as Liquid.
    expect(email.parsed.subject).toContain('{{ 6 | times: 7 }}{% assign pwned = "yes" %}{{ pwned }}');
    expect(email.parsed.subject).not.toContain('42');
  });

  it.each(HEADER_PAYLOADS)('keeps one Subject line and no injected header or recipient for %j in every field', async (payload) => {
    const { email, contact } = await sendWith(personalised('Welcome'), [payload, payload, payload, payload]);
    const head = headerBlock(email.raw);
    expect(head.match(/^subject:/gim)).toHaveLength(1);
    expect(head).not.toMatch(/^(bcc|cc|x-injected-[a-z]+):/im);
    expect(head).not.toMatch(/\p{Cc}(?<![\r\n\t])/u);
    for (const name of ['bcc', 'cc', 'x-injected-lf', 'x-injected-cr', 'x-injected-nul']) expect(email.headers.has(name)).toBe(false);
    expect(email.to).toEqual([contact.email]);
    expect(email.parsed.subject).not.toMatch(/\p{Cc}/u);
    expect(harness.sink.messagesTo('bcc@evil.test')).toHaveLength(0);
  });

  // A NUL cannot reach the SMTP path (Postgres text/jsonb refuse U+0000 before a send is claimed),
  // so the renderer itself is checked: the subject it hands to nodemailer carries no control character.
  it('renders a subject without NUL, CR or LF from every field', async () => {
    const payload = 'd\u0000X-Injected-Nul: 1\r\nBcc: bcc@evil.test';
    const scope = templateScope({
      contact: { email: 'n@example.test', first_name: payload, last_name: payload, tags: [], custom_properties: { plan: payload } },
      event: { name: 'signup', properties: { ref: payload } },
      fallbacks: {},
      unsubscribeUrl: 'http://127.0.0.1/unsubscribe/x',
    });
    const step = personalised('Nul').steps[0]!;
    const rendered = await new EmailRenderer().render({ ...step, type: 'email' }, scope, 'http://127.0.0.1/unsubscribe/x');
    expect(rendered.subject).not.toMatch(/\p{Cc}/u);
    expect(rendered.subject).toBe(`Nul ${Array(4).fill('d X-Injected-Nul: 1 Bcc: bcc@evil.test').join('|')}`);
  });

  const runaway = {
    loop: '{% for i in (1..100000000) %}x{% endfor %}',
    nested: '{% for i in (1..100000) %}{% for j in (1..100000) %}{{ i }}{{ j }}{% endfor %}{% endfor %}',
    append: '{% assign s = "xxxxxxxxxx" %}{% for i in (1..60) %}{% assign s = s | append: s %}{% endfor %}{{ s | size }}',
  };

  it.each(Object.entries(runaway))(
    'aborts a runaway %s template, records the failure once, and keeps serving other contacts and /healthz',
    async (_kind, source) => {
      const account = newAccountId();
      await harness.importWorkflow(account, { name: 'Runaway', trigger: { event: 'boom' }, steps: [{ id: 'bad', type: 'email', subject: 'Runaway', html: source }] });
      await harness.importWorkflow(account, personalised('Ordinary'));
      const victim = newContact();
      const bystander = newContact({ first_name: 'Bo' });

      // One warm-up request, so the probe measures the service and not this client's connection setup.
      expect((await fetch(`${harness.url}/healthz`)).status).toBe(200);
      let slowestHealthMs = 0;
      let probing = true;
      const probe = (async () => {
        while (probing) {
          const started = Date.now();
          const response = await fetch(`${harness.url}/healthz`);
          expect(response.status).toBe(200);
          slowestHealthMs = Math.max(slowestHealthMs, Date.now() - started);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      let failed: { reason: string | null } | undefined;
      try {
        await harness.publishEvent(account, victim, 'boom');
        await harness.publishEvent(account, bystander, 'signup', { ref: 'ok' });
        failed = await harness.waitForState(account, victim.id, 'bad', 'failed_permanent');
        expect(failed.reason).toMatch(/^render_failed: html: /);
        const email = await waitFor(() => harness.sink.messagesTo(bystander.email)[0], { what: 'the ordinary email' });
        expect(email.parsed.subject).toBe('Ordinary Bo|||ok');
      } finally {
        probing = false;
        await probe;
      }
      // A render that held the event loop would hold a probe for most of the 300 ms budget (the
      // probe asks every 20 ms); one that gives way answers within a few ms, up to ~220 on a slow,
      // loaded machine.
      expect(slowestHealthMs).toBeLessThan(250);

      // Not retried: one attempt, one failure in the delivery log, nothing sent to the victim.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const [row] = await harness.ledger(account, victim.id);
      expect(row).toMatchObject({ state: 'failed_permanent', attempts: 1, sent_at: null });
      const { rows } = await harness.pool.query<{ outcome: string; reason: string }>(
        "SELECT outcome, reason FROM delivery_log WHERE account_id = $1 AND contact_id = $2 AND outcome <> 'enrolled'",
        [account, victim.id],
      );
      expect(rows).toEqual([{ outcome: 'failed_permanent', reason: failed!.reason }]);
      expect(harness.sink.messagesTo(victim.email)).toHaveLength(0);
    },
  );
});
