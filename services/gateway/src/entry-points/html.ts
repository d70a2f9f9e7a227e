// The pages' escaping template tag lives in shared (one implementation for the gateway and the app).
export { escapeHtml, html, SafeHtml } from '@mailer/shared';
