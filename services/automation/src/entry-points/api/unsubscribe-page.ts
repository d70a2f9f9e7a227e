const STYLE = 'body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}button{font-size:1rem;padding:.5rem 1rem}';

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
  `<title>${title}</title><style>${STYLE}</style></head><body><h1>${title}</h1>${body}</body></html>`;

/** GET: a confirmation, never the unsubscription itself (link scanners fetch every URL they see). */
export const confirmPage = () =>
  page(
    'Unsubscribe',
    '<p>Do you want to stop receiving these emails?</p><form method="post"><button type="submit">Unsubscribe</button></form>',
  );

export const donePage = () => page('You are unsubscribed', '<p>You will no longer receive these emails.</p>');

export const invalidLinkPage = () => page('Link not valid', '<p>This unsubscribe link is not valid. Please use the link from your email.</p>');
