/** The dashboard's one stylesheet, served from /assets (CSP: styles only from this origin). */
export const DASHBOARD_CSS = `
:root { --ink: #1d2433; --muted: #5b6475; --line: #d9dee7; --bg: #f6f7fb; --accent: #2456d3; --bad: #b42318; --good: #067647; --warn: #b54708; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
header.top { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; padding: .6rem 1rem; background: #fff; border-bottom: 1px solid var(--line); }
header.top .brand { font-weight: 700; margin-right: auto; }
nav.main { display: flex; flex-wrap: wrap; gap: .25rem .9rem; }
nav.main a { text-decoration: none; padding: .2rem 0; }
nav.main a[aria-current="page"] { font-weight: 700; border-bottom: 2px solid var(--accent); }
main { max-width: 1100px; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
section.card > h2:first-child { margin-top: 0; }
section.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 1rem; margin-bottom: 1rem; overflow-x: auto; }
.stats { margin-bottom: 1rem; display: grid; grid-template-columns: repeat(auto-fit, minmax(160px, 1fr)); gap: 1rem; }
.stat { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: .8rem 1rem; }
.stat .value { font-size: 1.6rem; font-weight: 700; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .85rem; color: var(--muted); font-weight: 600; }
form.stack, form.with-preview > .stack { display: grid; gap: .8rem; max-width: 640px; }
form.inline { display: inline; }
form.with-preview { display: grid; grid-template-columns: minmax(0, 640px) minmax(260px, 1fr); gap: 1.5rem; align-items: start; }
form.with-preview > aside.preview-panel { position: sticky; top: 1rem; margin: 0; max-height: calc(100vh - 2rem); overflow-y: auto; }
.picker-filter { margin-bottom: .3rem; }
.picker-add { margin-top: .3rem; }
.field-problem { color: var(--bad); margin: .3rem 0 0; font-size: .9rem; }
[aria-invalid="true"] { border-color: var(--bad); }
.match-explanation { display: block; font-size: .9rem; }
dl.lead-facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: .5rem 0; }
dl.lead-facts dt { color: var(--muted); font-size: .85rem; }
dl.lead-facts dd { margin: 0; }
label { font-weight: 600; display: block; }
.hint { color: var(--muted); font-size: .85rem; font-weight: 400; }
input[type=text], input[type=search], input[type=email], input[type=password], input[type=url], input[type=number], input[type=date], select, textarea {
  width: 100%; padding: .45rem .5rem; border: 1px solid #aab2c0; border-radius: 6px; font: inherit; background: #fff; }
select[multiple] { min-height: 9rem; }
textarea { min-height: 5rem; }
fieldset { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .8rem; }
fieldset label { font-weight: 400; display: inline-flex; gap: .3rem; margin-right: 1rem; }
button, .button { display: inline-block; padding: .45rem .9rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; font: inherit; cursor: pointer; text-decoration: none; }
button.secondary, .button.secondary { background: #fff; color: var(--accent); }
button.danger { background: var(--bad); border-color: var(--bad); }
button:disabled { opacity: .6; cursor: progress; }
:focus-visible { outline: 3px solid #f5b400; outline-offset: 2px; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.notice { padding: .7rem 1rem; border-radius: 6px; margin-bottom: 1rem; border: 1px solid; }
.notice.error { background: #fef3f2; border-color: #fecdca; color: var(--bad); }
.notice.ok { background: #ecfdf3; border-color: #abefc6; color: var(--good); }
.notice.warn { background: #fffaeb; border-color: #fedf89; color: var(--warn); }
.badge { display: inline-block; padding: 0 .45rem; border-radius: 999px; font-size: .8rem; border: 1px solid var(--line); }
.badge.active, .badge.delivered { color: var(--good); border-color: #abefc6; }
.badge.paused, .badge.pending { color: var(--warn); border-color: #fedf89; }
.badge.failed, .badge.cancelled { color: var(--bad); border-color: #fecdca; }
code.secret { display: inline-block; padding: .3rem .5rem; background: #f2f4f7; border-radius: 4px; word-break: break-all; }
.chart svg { width: 100%; height: auto; max-width: 900px; }
.chart .bar-leads { fill: #2456d3; } .chart .bar-credits { fill: #f79009; } .chart .bar-funnel { fill: #2456d3; }
.chart text { font-size: 11px; fill: var(--muted); }
.legend span { margin-right: 1rem; } .legend .sw { display: inline-block; width: .8rem; height: .8rem; margin-right: .3rem; vertical-align: middle; }
.legend .sw.leads { background: #2456d3; } .legend .sw.credits { background: #f79009; }
details.lead { border-bottom: 1px solid var(--line); padding: .5rem 0; }
details.lead summary { cursor: pointer; }
.pager { display: flex; gap: 1rem; margin-top: .8rem; }
.auth { max-width: 420px; margin: 3rem auto; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 900px) {
  form.with-preview { grid-template-columns: minmax(0, 1fr); }
  form.with-preview > aside.preview-panel { position: static; max-height: none; }
}
@media (max-width: 600px) {
  main { padding: .6rem; }
  table.responsive thead { display: none; }
  table.responsive tr { display: block; border-bottom: 1px solid var(--line); padding: .4rem 0; }
  table.responsive td { display: block; border: 0; padding: .15rem 0; }
  table.responsive td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); font-size: .85rem; }
}
`;
