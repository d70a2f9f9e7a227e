import { html, type SafeHtml } from '../html';

/** Where people manage their account; the account app at `/app` will take this over when it lands. */
export const ACCOUNT_APP_PATH = '/app';

const entry = (href: string, label: string, description: SafeHtml | string) =>
  html`<li><a href="${href}">${label}</a><p class="hint">${description}</p></li>`;

/**
 * `GET /`: where a person who opens the gateway's address in a browser starts. Static, no script,
 * the account app's stylesheet and header, so it looks like the rest of the product.
 */
export function homePage(): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mailer</title>
<link rel="stylesheet" href="/app/assets/style.css">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header><div class="bar"><span class="brand">Mailer</span>
<nav aria-label="Start"><a href="${ACCOUNT_APP_PATH}">Account</a><a href="/docs">API reference</a></nav></div></header>
<main id="main">
<h1>Mailer</h1>
<p>Self-hosted email marketing: contacts and tags over a JSON REST API, read-only campaigns, and
product events that start automated email workflows.</p>
<section class="card" aria-labelledby="account">
<h2 id="account">Your account</h2>
<ul>
${entry(ACCOUNT_APP_PATH, 'Account app', 'Sign in to manage contacts, see your account and create or revoke API keys.')}
</ul>
</section>
<section class="card" aria-labelledby="api">
<h2 id="api">The API</h2>
<ul>
${entry('/docs', 'API reference', html`Every operation, its parameters and answers. REST paths start with <code>/api/v1</code> on this address and need <code>Authorization: Bearer &lt;API key&gt;</code>.`)}
${entry('/api/v1/openapi.json', 'OpenAPI document', 'The same reference, machine-readable (OpenAPI 3.1), for client generators and tests.')}
</ul>
<p class="hint">Product events go to <code>POST /v1/events</code> on the events listener, a second port of this gateway (3001 unless configured otherwise).</p>
</section>
<section class="card" aria-labelledby="status">
<h2 id="status">Status</h2>
<ul>
${entry('/healthz', 'Health', 'Answers while the gateway runs.')}
${entry('/readyz', 'Readiness', 'Answers 200 when the gateway reaches its database and Redis, 503 when not.')}
</ul>
</section>
</main>
</body>
</html>`.value;
}
