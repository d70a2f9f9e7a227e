import { NewKeyFlash } from '../src/entry-points/settings/new-key-flash';
import { html } from '../src/entry-points/settings/html';
import { apiKeysPage } from '../src/entry-points/settings/pages/api-keys.page';

describe('settings rendering', () => {
  it('escapes every interpolated value, so a key name cannot inject markup', () => {
    const name = '<script>alert("x")</script>';
    const page = apiKeysPage({
      keys: [
        { id: 1, accountId: 1, name, keyId: 'abcdefABCDEF', expiresOn: null, revokedAt: null, createdAt: new Date(), lastUsedAt: null, status: 'active' },
      ],
      viewer: { email: 'a"b@example.test', csrfToken: 'tok' },
      today: '2026-01-01',
      apiAccess: false,
    });
    expect(page).not.toContain('<script>alert');
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(page).toContain('a&quot;b@example.test');
    expect(page).toContain('does not include API access');
    expect(html`<p>${html`<b>${'&'}</b>`}</p>`.value).toBe('<p><b>&amp;</b></p>');
  });

  it('opens a sealed new key only with the same session token, and refuses tampering', () => {
    const flash = new NewKeyFlash('a-signing-secret-of-at-least-32-characters');
    const sealed = flash.seal({ plaintext: 'mk_live_x', name: 'n' }, 'session-a');
    expect(sealed).not.toContain('mk_live_x');
    expect(flash.open(sealed, 'session-a')).toEqual({ plaintext: 'mk_live_x', name: 'n' });
    expect(flash.open(sealed, 'session-b')).toBeUndefined();
    const flipped = `${sealed.slice(0, -2)}${sealed.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(flash.open(flipped, 'session-a')).toBeUndefined();
    expect(new NewKeyFlash('another-signing-secret-of-32-characters!').open(sealed, 'session-a')).toBeUndefined();
  });
});
