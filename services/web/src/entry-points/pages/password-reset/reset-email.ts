import { html } from '../html';

/** The email with the reset link: short, the link twice (button and plain), what to do if unasked. */
export function resetEmail(link: string): { subject: string; html: string; text: string } {
  return {
    subject: 'Reset your password',
    html: String(html`<p>Someone (hopefully you) asked to reset the password of this address.</p>
<p><a href="${link}">Choose a new password</a></p>
<p>Or open this address: ${link}</p>
<p>The link works once, for one hour. If you did not ask, ignore this email: your password stays as it is.</p>`),
    text: `Someone (hopefully you) asked to reset the password of this address.\n\nChoose a new password: ${link}\n\nThe link works once, for one hour. If you did not ask, ignore this email: your password stays as it is.\n`,
  };
}
