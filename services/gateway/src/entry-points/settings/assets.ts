// The screen's only stylesheet and script, served from /settings/assets (CSP allows 'self' only).
// Kept as strings so the build needs no asset step.

export const STYLESHEET = `
:root { --ink: #1b1f24; --muted: #4a5563; --line: #d6dbe1; --bg: #f6f7f9; --accent: #1f4fd1; --danger: #b42318;
  --ok-bg: #dcfce7; --ok-ink: #14532d; --warn-bg: #fef3c7; --warn-ink: #78350f; --off-bg: #e5e7eb; --off-ink: #1f2937; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .5rem; }
header { background: #fff; border-bottom: 1px solid var(--line); }
header .bar { max-width: 60rem; margin: 0 auto; padding: .75rem 1rem; display: flex; gap: 1.5rem; align-items: center; }
header .brand { font-weight: 700; margin-right: auto; }
header nav a { margin-right: 1rem; text-decoration: none; } header nav a[aria-current="page"] { font-weight: 700; text-decoration: underline; }
main { max-width: 60rem; margin: 2rem auto; padding: 0 1rem; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 1.5rem; margin-bottom: 1.5rem; }
h1 { font-size: 1.6rem; margin: 0 0 1rem; } h2 { font-size: 1.2rem; margin: 0 0 1rem; }
label { display: block; font-weight: 600; margin-bottom: .25rem; }
.hint { color: var(--muted); font-size: .9rem; margin: .25rem 0 0; }
input[type=text], input[type=email], input[type=password], input[type=date] { font: inherit; padding: .5rem .6rem; border: 1px solid #8b95a1; border-radius: 6px; width: 100%; max-width: 24rem; }
.field { margin-bottom: 1rem; }
button, .button { font: inherit; padding: .5rem 1rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary, .button.secondary { background: #fff; color: var(--accent); }
button.danger { background: var(--danger); border-color: var(--danger); }
button.link { background: none; border: 0; color: var(--accent); padding: 0; text-decoration: underline; }
table { width: 100%; border-collapse: collapse; } th, td { text-align: left; padding: .6rem .5rem; border-bottom: 1px solid var(--line); vertical-align: middle; }
th { font-size: .85rem; text-transform: uppercase; letter-spacing: .03em; color: var(--muted); }
.badge { display: inline-block; padding: .1rem .55rem; border-radius: 999px; font-size: .85rem; font-weight: 600; }
.badge.active { background: var(--ok-bg); color: var(--ok-ink); } .badge.expired { background: var(--warn-bg); color: var(--warn-ink); }
.badge.revoked { background: var(--off-bg); color: var(--off-ink); }
.notice { border-left: 4px solid var(--accent); background: #eef2ff; padding: 1rem; margin-bottom: 1.5rem; border-radius: 4px; }
.notice.error { border-color: var(--danger); background: #fef2f2; }
.secret { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
.secret code { font-size: 1rem; background: #fff; border: 1px solid var(--line); padding: .5rem; border-radius: 6px; word-break: break-all; }
.row-actions form { display: inline; }
.card.narrow { max-width: 28rem; } caption { text-align: left; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .5rem 1.5rem; margin: 0; } dt { font-weight: 600; } dd { margin: 0; }
`;

/** Copy button for the one-time secret; without JavaScript the secret is still selectable text. */
export const SCRIPT = `
document.querySelectorAll('[data-copy]').forEach(function (button) {
  button.hidden = false;
  button.addEventListener('click', function () {
    var target = document.getElementById(button.getAttribute('data-copy'));
    navigator.clipboard.writeText(target.textContent).then(function () {
      var status = document.getElementById('copy-status');
      if (status) status.textContent = 'Copied to the clipboard.';
    });
  });
});
`;
