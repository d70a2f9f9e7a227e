import { html } from '../html';
import { page } from '../layout';

export function signInPage(options: { csrfToken: string; next?: string; email?: string; error?: string; notice?: string }): string {
  return page({
    title: 'Sign in',
    body: html`<div class="card narrow">
<h1>Sign in</h1>
${options.error ? html`<div class="notice error" role="alert">${options.error}</div>` : ''}
${options.notice ? html`<div class="notice" role="status">${options.notice}</div>` : ''}
<form method="post" action="/app/sign-in">
<input type="hidden" name="_csrf" value="${options.csrfToken}">
${options.next ? html`<input type="hidden" name="next" value="${options.next}">` : ''}
<div class="field"><label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ''}"></div>
<div class="field"><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required></div>
<button type="submit">Sign in</button>
</form>
<p class="hint"><a href="/app/forgot-password">Forgot your password?</a></p>
</div>`,
  });
}
