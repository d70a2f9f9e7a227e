// The app's stylesheet and script, served from /app/assets (CSP allows 'self' only). Kept as
// strings so there is no asset build step; htmx is served from its pinned npm package.

export const STYLESHEET = `
:root { --ink: #1b1f24; --muted: #4a5563; --line: #d6dbe1; --bg: #f6f7f9; --accent: #1f4fd1; --danger: #b42318;
  --ok-bg: #dcfce7; --ok-ink: #14532d; --warn-bg: #fef3c7; --warn-ink: #78350f; --off-bg: #e5e7eb; --off-ink: #1f2937; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); overflow-wrap: anywhere; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .5rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
header { background: #fff; border-bottom: 1px solid var(--line); }
header .bar { max-width: 64rem; margin: 0 auto; padding: .75rem 1rem; display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; }
header .brand { font-weight: 700; margin-right: auto; text-decoration: none; color: var(--ink); }
header nav { order: 3; flex-basis: 100%; display: flex; flex-wrap: wrap; gap: .25rem 1rem; }
header nav a { text-decoration: none; padding: .25rem 0; } header nav a[aria-current="page"] { font-weight: 700; text-decoration: underline; }
header .who { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
main { max-width: 64rem; margin: 1.5rem auto; padding: 0 1rem; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 1.25rem; margin-bottom: 1.5rem; }
h1 { font-size: 1.6rem; margin: 0 0 1rem; } h2 { font-size: 1.2rem; margin: 0 0 1rem; }
label, .label { display: block; font-weight: 600; margin-bottom: .25rem; }
.hint { color: var(--muted); font-size: .9rem; margin: .25rem 0 0; }
input[type=text], input[type=email], input[type=password], input[type=date], input[type=search], input[type=file], select, textarea {
  font: inherit; padding: .5rem .6rem; border: 1px solid #8b95a1; border-radius: 6px; width: 100%; max-width: 28rem; background: #fff; }
textarea { min-height: 6rem; }
.field { margin-bottom: 1rem; } .field.inline { display: flex; gap: .5rem; align-items: center; } .field.inline label { margin: 0; font-weight: 400; }
.field-error { color: var(--danger); font-size: .9rem; margin: .25rem 0 0; }
.filters { display: flex; flex-wrap: wrap; gap: .75rem 1rem; align-items: flex-end; }
.filters .field { margin: 0; flex: 1 1 10rem; }
button, .button { font: inherit; padding: .5rem 1rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary, .button.secondary { background: #fff; color: var(--accent); }
button.danger, .button.danger { background: var(--danger); border-color: var(--danger); color: #fff; }
button.link { background: none; border: 0; color: var(--accent); padding: 0; text-decoration: underline; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: 1rem 0; }
.table-wrap { overflow-x: auto; }
table { width: 100%; border-collapse: collapse; } th, td { text-align: left; padding: .6rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .85rem; text-transform: uppercase; letter-spacing: .03em; color: var(--muted); }
caption { text-align: left; }
.badge { display: inline-block; padding: .1rem .55rem; border-radius: 999px; font-size: .85rem; font-weight: 600; background: var(--off-bg); color: var(--off-ink); }
.badge.active, .badge.subscribed { background: var(--ok-bg); color: var(--ok-ink); } .badge.expired, .badge.bounced { background: var(--warn-bg); color: var(--warn-ink); }
.notice { border-left: 4px solid var(--accent); background: #eef2ff; padding: 1rem; margin-bottom: 1.5rem; border-radius: 4px; }
.notice.error { border-color: var(--danger); background: #fef2f2; }
.secret { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
.secret code { font-size: 1rem; background: #fff; border: 1px solid var(--line); padding: .5rem; border-radius: 6px; word-break: break-all; }
.row-actions form { display: inline; }
.card.narrow { max-width: 28rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .5rem 1.5rem; margin: 0; } dt { font-weight: 600; } dd { margin: 0; }
.stats { display: grid; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); gap: 1rem; margin-bottom: 1.5rem; }
.stat { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 1rem; }
.stat .number { font-size: 2rem; font-weight: 700; display: block; }
.pager { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; margin-top: 1rem; }
.tags { display: flex; flex-wrap: wrap; gap: .25rem; }
/* Workflows, campaigns, activity */
input[type=datetime-local], input[type=number] { font: inherit; padding: .5rem .6rem; border: 1px solid #8b95a1; border-radius: 6px; width: 100%; max-width: 28rem; background: #fff; }
fieldset.row-group { border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; margin: 0 0 1rem; min-width: 0; } fieldset.row-group legend { font-weight: 600; padding: 0 .25rem; } fieldset.branch-fields { border: 1px dashed var(--line); border-radius: 6px; padding: .5rem .75rem; margin: 0 0 1rem; min-width: 0; } fieldset.branch-fields legend { font-size: .9rem; padding: 0 .25rem; }
.badge.failed { background: #fee2e2; color: #7f1d1d; } .badge.disabled { background: var(--off-bg); color: var(--off-ink); }
.email-preview iframe { width: 100%; min-height: 24rem; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
.email-text { white-space: pre-wrap; overflow-wrap: anywhere; background: #fff; border: 1px solid var(--line); padding: .5rem; border-radius: 6px; }
progress { width: 100%; max-width: 20rem; height: 1rem; display: block; margin: .25rem 0; }
.actions form { display: inline; }
fieldset { border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; margin: 0 0 1rem; min-width: 0; } legend { font-weight: 600; padding: 0 .25rem; }
.property-row { display: flex; flex-wrap: wrap; gap: 0 1rem; align-items: flex-end; border-bottom: 1px dashed var(--line); margin-bottom: .75rem; }
.property-row .field { flex: 1 1 12rem; } .property-row .field.inline { flex: 0 0 auto; }
ul.tags { list-style: none; padding: 0; margin: 0; } .tags li.tag { display: inline-flex; align-items: center; gap: .15rem; } .tags li.tag form { display: inline; }
.tags li.tag button.link { font-size: 1.1rem; padding: 0 .35rem; text-decoration: none; min-width: 1.5rem; min-height: 1.5rem; }
.chart { margin: 0 0 1rem; } .chart svg { width: 100%; height: 10rem; display: block; }
.chart-axis { display: flex; justify-content: space-between; gap: .5rem; font-size: .8rem; color: var(--muted); }
.legend { list-style: none; padding: 0; margin: .5rem 0 0; display: flex; flex-wrap: wrap; gap: .25rem 1rem; }
.swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px; margin-right: .35rem; vertical-align: middle; }
.swatch[data-color="opened"], .swatch[data-color="opens"] { background: #1f4fd1; } .swatch[data-color="clicked"], .swatch[data-color="clicks"] { background: #b45309; }
ul.stats { list-style: none; padding: 0; } .stat .label { color: var(--muted); font-weight: 600; }
h3 { font-size: 1.05rem; margin: 1.25rem 0 .5rem; }
.condition { display: flex; flex-wrap: wrap; gap: 0 1rem; align-items: flex-end; border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem .25rem; margin: 0 0 .75rem; }
.condition .field { flex: 1 1 10rem; margin-bottom: .5rem; } .condition .remove { margin-bottom: .75rem; }
.condition legend { font-weight: 600; }
.preview-result { border-left: 4px solid var(--accent); background: #eef2ff; padding: .75rem 1rem; border-radius: 4px; margin-bottom: 1.5rem; }
.preview-result .number { font-size: 1.6rem; font-weight: 700; }
.toggle { display: flex; gap: .6rem; align-items: flex-start; margin-bottom: 1rem; } .toggle input { margin-top: .35rem; width: 1.1rem; height: 1.1rem; flex: none; } .toggle label { margin: 0; }
.swatch[data-color="sent"] { background: #15803d; } .swatch[data-color="failed"] { background: #b42318; } .swatch[data-color="skipped"] { background: #8b95a1; }
progress { width: 100%; max-width: 28rem; height: 1.25rem; display: block; margin-top: .25rem; }
ul.runs, ul.failures { padding-left: 1.25rem; } ul.runs li, ul.failures li { margin-bottom: .4rem; }
@media (max-width: 40rem) {
  .stack-table thead { position: absolute; left: -9999px; }
  .stack-table tr { display: block; border-bottom: 1px solid var(--line); padding: .5rem 0; }
  .stack-table td { display: block; border: 0; padding: .15rem .5rem; }
  /* The header row is hidden when rows stack: each cell says which column it is. */
  .stack-table td[data-label]::before { content: attr(data-label); display: block; font-size: .8rem; font-weight: 600; color: var(--muted); text-transform: uppercase; letter-spacing: .03em; }
  dl { grid-template-columns: 1fr; gap: .1rem; } dd { margin-bottom: .5rem; }
}
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
