import { html, type SafeHtml } from './html';

export interface Viewer {
  email: string;
  csrfToken: string;
}

export type Section = 'account' | 'api-keys' | undefined;

const navLink = (href: string, label: string, current: boolean) =>
  html`<a href="${href}"${current ? html` aria-current="page"` : ''}>${label}</a>`;

/** The page shell: skip link, navigation for a signed-in viewer, one <main>. */
export function page(title: string, body: SafeHtml, viewer?: Viewer, section?: Section): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Mailer settings</title>
<link rel="stylesheet" href="/settings/assets/style.css">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header><div class="bar">
<span class="brand">Mailer</span>
${viewer
  ? html`<nav aria-label="Settings">${navLink('/settings/account', 'Account', section === 'account')}${navLink('/settings/api-keys', 'API keys', section === 'api-keys')}</nav>
<form method="post" action="/settings/sign-out"><input type="hidden" name="_csrf" value="${viewer.csrfToken}"><span class="hint">${viewer.email}</span> <button class="link" type="submit">Sign out</button></form>`
  : ''}
</div></header>
<main id="main">
${body}
</main>
<script src="/settings/assets/app.js" defer></script>
</body>
</html>`.value;
}

/** A plain message page (errors, refusals). */
export const messagePage = (title: string, message: string, viewer?: Viewer) =>
  page(title, html`<div class="card"><h1>${title}</h1><p>${message}</p><p><a href="/settings">Back to settings</a></p></div>`, viewer);
