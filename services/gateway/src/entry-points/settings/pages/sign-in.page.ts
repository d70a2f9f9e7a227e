import { html } from '../html';
import { page } from '../layout';

export function signInPage(options: { csrfToken: string; email?: string; error?: string }): string {
  return page(
    'Sign in',
    html`<div class="card narrow">
<h1>Sign in</h1>
${options.error ? html`<div class="notice error" role="alert">${options.error}</div>` : ''}
<form method="post" action="/settings/sign-in">
<input type="hidden" name="_csrf" value="${options.csrfToken}">
<div class="field"><label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ''}"></div>
<div class="field"><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required></div>
<button type="submit">Sign in</button>
</form>
</div>`,
  );
}
