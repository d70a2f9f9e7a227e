import { html, type SafeHtml } from './html';

/** Who is looking at a page: their address, and the CSRF token every form of theirs echoes. */
export interface Viewer {
  email: string;
  csrfToken: string;
}

export const SECTIONS = [
  { id: 'dashboard', label: 'Dashboard', href: '/app' },
  { id: 'contacts', label: 'Contacts', href: '/app/contacts' },
  { id: 'segments', label: 'Segments', href: '/app/segments' },
  { id: 'campaigns', label: 'Campaigns', href: '/app/campaigns' },
  { id: 'workflows', label: 'Workflows', href: '/app/workflows' },
  { id: 'activity', label: 'Activity', href: '/app/activity' },
  { id: 'settings', label: 'Settings', href: '/app/settings' },
] as const;

export type Section = (typeof SECTIONS)[number]['id'];

export interface PageOptions {
  title: string;
  body: SafeHtml;
  viewer?: Viewer | undefined;
  section?: Section | undefined;
}

/** The hidden field every form of a signed-in viewer carries. */
export const csrfField = (viewer: Viewer) => html`<input type="hidden" name="_csrf" value="${viewer.csrfToken}">`;

/** The page shell: skip link, navigation for a signed-in viewer, one <main>. */
export function page({ title, body, viewer, section }: PageOptions): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Mailer</title>
<meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false}'>
<link rel="stylesheet" href="/app/assets/style.css">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header><div class="bar">
<a class="brand" href="/app">Mailer</a>
${viewer
  ? html`<div class="who"><span class="hint">${viewer.email}</span>
<form method="post" action="/app/sign-out">${csrfField(viewer)}<button class="link" type="submit">Sign out</button></form></div>
<nav aria-label="Main">${SECTIONS.map(
      (item) => html`<a href="${item.href}"${item.id === section ? html` aria-current="page"` : ''}>${item.label}</a>`,
    )}</nav>`
  : ''}
</div></header>
<main id="main">
${body}
</main>
<script src="/app/assets/htmx.min.js" defer></script>
<script src="/app/assets/app.js" defer></script>
</body>
</html>`.value;
}

/** A plain message page (errors, refusals) in the layout. */
export function messagePage(options: { title: string; message: string; viewer?: Viewer | undefined; extra?: SafeHtml }): string {
  return page({
    title: options.title,
    viewer: options.viewer,
    body: html`<div class="card"><h1>${options.title}</h1><p>${options.message}</p>${options.extra ?? ''}
<p><a href="/app">Back to the dashboard</a></p></div>`,
  });
}
