import type { UnusableLink } from '../../../data-access/password-reset.client';
import { html } from '../html';
import { page } from '../layout';

export function forgotPasswordPage(options: { csrfToken: string; email?: string; error?: string }): string {
  return page({
    title: 'Reset your password',
    body: html`<div class="card narrow">
<h1>Reset your password</h1>
${options.error ? html`<div class="notice error" role="alert">${options.error}</div>` : ''}
<p>Enter the address you sign in with. We email you a link to choose a new password.</p>
<form method="post" action="/app/forgot-password">
<input type="hidden" name="_csrf" value="${options.csrfToken}">
<div class="field"><label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ''}"></div>
<button type="submit">Email me a link</button>
</form>
<p class="hint"><a href="/app/sign-in">Back to sign in</a></p>
</div>`,
  });
}

/** No email can go out now (automation's SMTP server does not answer): the operator is the way. */
export function askTheOperatorPage(): string {
  return page({
    title: 'Ask your operator',
    body: html`<div class="card narrow">
<h1>Ask your operator</h1>
<p>This installation cannot send email right now, so no reset link can reach you. Your operator can set a new password for you (<code>users set-password</code>).</p>
<p><a href="/app/sign-in">Back to sign in</a></p>
</div>`,
  });
}

/** The one answer to every accepted request: the same words whether or not the address has a user. */
export function checkEmailPage(): string {
  return page({
    title: 'Check your email',
    body: html`<div class="card narrow">
<h1>Check your email</h1>
<p role="status">If an account has this address, an email with a link is on its way. The link works once, for one hour.</p>
<p class="hint">No email after a few minutes? Look in the spam folder, or ask your operator to set a new password (<code>users set-password</code>).</p>
<p><a href="/app/sign-in">Back to sign in</a></p>
</div>`,
  });
}

export function resetPasswordPage(options: { csrfToken: string; token: string; error?: string }): string {
  return page({
    title: 'Choose a new password',
    body: html`<div class="card narrow">
<h1>Choose a new password</h1>
${options.error ? html`<div class="notice error" role="alert">${options.error}</div>` : ''}
<form method="post" action="/app/reset/${options.token}">
<input type="hidden" name="_csrf" value="${options.csrfToken}">
<div class="field"><label for="new-password">New password</label>
<input id="new-password" name="new_password" type="password" autocomplete="new-password" required minlength="10" aria-describedby="new-password-hint">
<p id="new-password-hint" class="hint">At least 10 characters. Every session of your account ends.</p></div>
<div class="field"><label for="repeat-password">Repeat the new password</label>
<input id="repeat-password" name="repeat_password" type="password" autocomplete="new-password" required minlength="10"></div>
<button type="submit">Set new password</button>
</form>
</div>`,
  });
}

const WHY: Record<UnusableLink, string> = {
  expired: 'This link expired: a reset link works for one hour.',
  used: 'This link was already used, or a newer link was sent: only the newest link works, once.',
  unknown: 'This link is not valid. Copy the whole address from the email, or ask for a new one.',
};

export function unusableLinkPage(why: UnusableLink): string {
  return page({
    title: 'Reset link not usable',
    body: html`<div class="card narrow">
<h1>Reset link not usable</h1>
<p>${WHY[why]}</p>
<p><a href="/app/forgot-password">Ask for a new link</a> · <a href="/app/sign-in">Sign in</a></p>
</div>`,
  });
}
