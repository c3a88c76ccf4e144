/**
 * The audit page's stylesheet, inlined in a style element that the page's Content-Security-Policy
 * allows by its hash (no external sheet, no url(), no @import: the page works offline).
 */
export const AUDIT_PAGE_STYLE = `
:root {
  --bg: #f6f7f9; --panel: #fff; --ink: #1d2430; --muted: #667085; --line: #d8dde6; --accent: #2f5fd0;
  --micro: #3b82c4; --auto: #8e44ad; --manual: #e07b16; --spill: #7c8a91; --fallback: #c0392b;
  --ok: #1e8e4e; --bad: #c0392b;
}
* { box-sizing: border-box; }
body { margin: 0; padding: 16px 20px 40px; background: var(--bg); color: var(--ink);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
h1 { font-size: 20px; margin: 0 0 8px; }
h2 { font-size: 15px; margin: 0 0 10px; }
h3 { font-size: 13px; margin: 14px 0 6px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
code, pre, .key { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 12.5px; }
pre { white-space: pre-wrap; word-break: break-word; margin: 0; }
.muted { color: var(--muted); }
.ok { color: var(--ok); font-weight: 600; }
.bad { color: var(--bad); font-weight: 600; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; margin-bottom: 14px; }
header.top { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; margin-bottom: 14px; }
.task { margin: 6px 0 10px; }
.run-links { margin: 2px 0 8px; font-size: 14px; }
.run-links a { color: var(--accent); }
.label { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.task-text { font-family: inherit; font-size: 14px; background: #f2f4f8; border-radius: 6px; padding: 8px 10px; margin-top: 4px; }
.facts { display: flex; flex-wrap: wrap; gap: 6px 22px; margin: 6px 0; }
.facts div { min-width: 90px; }
.facts dt { font-size: 11.5px; color: var(--muted); }
.facts dd { margin: 0; font-weight: 600; font-variant-numeric: tabular-nums; }
.facts.tokens dd { font-weight: 500; }
.run-error { color: var(--bad); margin: 8px 0 0; }
details.more { margin-top: 6px; }
details.more > summary { cursor: pointer; color: var(--accent); }
details.more pre { background: #f2f4f8; border-radius: 6px; padding: 8px 10px; margin-top: 6px; max-height: 360px; overflow: auto; }
.banner { background: #fff4e0; border: 1px solid #f0b44c; border-radius: 6px; padding: 8px 12px; margin: 8px 0; }
.banner p { margin: 2px 0; }
.banner ul { margin: 4px 0 2px; padding-left: 20px; font-size: 13px; }
.overview { display: grid; grid-template-columns: minmax(0, 1fr) 400px; gap: 14px; align-items: start; }
.detail { position: sticky; top: 10px; max-height: calc(100vh - 20px); overflow: auto; }
.lower { display: grid; grid-template-columns: minmax(0, 1fr) 300px; gap: 14px; align-items: start; }
.side { position: sticky; top: 10px; }
@media (max-width: 1000px) { .overview, .lower { grid-template-columns: 1fr; } .detail, .side { position: static; max-height: none; } }
#context-chart { width: 100%; height: auto; display: block; }
#context-chart text { font: 13px system-ui, "DejaVu Sans", sans-serif; fill: var(--muted); }
#context-chart .grid { stroke: #eceff4; }
#context-chart .tick, #context-chart .axis-line { stroke: #aab2bf; }
#context-chart .lane { stroke: #eceff4; stroke-dasharray: 2 3; }
#context-chart .plot-hit { fill: transparent; cursor: crosshair; }
#context-chart .context-area { fill: rgba(47, 95, 208, .10); pointer-events: none; }
#context-chart .context-line { fill: none; stroke: var(--accent); stroke-width: 3; stroke-linejoin: round; stroke-linecap: round; pointer-events: none; }
#context-chart .context-point { fill: var(--accent); stroke: #fff; stroke-width: 1; pointer-events: none; }
#context-chart .window-line { stroke: #9aa3ae; stroke-width: 1.5; stroke-dasharray: 6 4; pointer-events: none; }
#context-chart text.window-label { fill: #4a5563; }
#context-chart .threshold-line { stroke: var(--auto); stroke-width: 1.5; stroke-dasharray: 8 4; pointer-events: none; }
#context-chart text.threshold-label { fill: var(--auto); font-weight: 600; }
#context-chart text.axis-title { font-size: 11.5px; fill: #4a5563; }
#context-chart .compaction-drop { stroke-width: 3; stroke-linecap: round; pointer-events: none; opacity: .9; }
#context-chart .compaction-marker { stroke: #fff; stroke-width: 1.5; cursor: pointer; }
#context-chart .compaction-marker:hover { stroke: var(--ink); }
#context-chart .compaction-marker.selected { stroke: var(--ink); stroke-width: 3; r: 7px; }
#context-chart .compaction-drop.selected { stroke-width: 4; opacity: 1; stroke-dasharray: none; }
#context-chart .hover-line { stroke: #aab2bf; pointer-events: none; }
#context-chart .hover-dot { fill: var(--ink); pointer-events: none; }
#context-chart text.hover-text { fill: var(--ink); font-weight: 600; pointer-events: none; }
.compaction-marker.layer-micro { fill: var(--micro); } .compaction-drop.layer-micro { stroke: var(--micro); }
.compaction-marker.layer-auto { fill: var(--auto); } .compaction-drop.layer-auto { stroke: var(--auto); }
.compaction-marker.layer-manual { fill: var(--manual); } .compaction-drop.layer-manual { stroke: var(--manual); }
.compaction-marker.layer-spill { fill: var(--spill); } .compaction-drop.layer-spill { stroke: var(--spill); }
.compaction-marker.layer-fallback { fill: var(--fallback); } .compaction-drop.layer-fallback { stroke: var(--fallback); }
.layer-text-micro { fill: var(--micro) !important; } .layer-text-auto { fill: var(--auto) !important; }
.layer-text-manual { fill: var(--manual) !important; } .layer-text-spill { fill: var(--spill) !important; }
.layer-text-fallback { fill: var(--fallback) !important; }
.legend { list-style: none; display: flex; flex-wrap: wrap; gap: 4px 16px; padding: 0; margin: 6px 0 0; font-size: 12.5px; color: var(--muted); }
.swatch { display: inline-block; width: 12px; height: 12px; border-radius: 3px; margin-right: 5px; vertical-align: -2px; }
.line-swatch { background: var(--accent); height: 3px; vertical-align: 3px; }
.window-swatch { border-top: 2px dashed #9aa3ae; height: 0; vertical-align: 3px; border-radius: 0; }
.threshold-swatch { border-top: 2px dashed var(--auto); height: 0; vertical-align: 3px; border-radius: 0; }
.layer-bg-micro { background: var(--micro); } .layer-bg-auto { background: var(--auto); }
.layer-bg-manual { background: var(--manual); } .layer-bg-spill { background: var(--spill); }
.layer-bg-fallback { background: var(--fallback); }
.badge { display: inline-block; color: #fff; font-size: 11.5px; font-weight: 600; border-radius: 4px; padding: 0 6px; line-height: 18px; }
.badge.error { background: var(--bad); }
.badge.muted-badge { background: #98a2b3; }
.table-wrap { max-height: 420px; overflow: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 5px 7px; border-bottom: 1px solid #edf0f4; vertical-align: top; font-size: 13px; }
th { font-size: 11.5px; color: var(--muted); font-weight: 600; position: sticky; top: 0; background: var(--panel); }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.reason { min-width: 260px; }
td.reason .focus { color: #4a5563; font-style: italic; margin-top: 2px; }
.compaction-row { cursor: pointer; }
.compaction-row:hover { background: #f4f6fb; }
.compaction-row.selected { background: #e8eefc; box-shadow: inset 3px 0 0 var(--accent); }
.detail h2 { margin-bottom: 6px; }
.detail dl { display: grid; grid-template-columns: 110px 1fr; gap: 3px 8px; margin: 8px 0; font-size: 13px; }
.detail dt { color: var(--muted); }
.detail dd { margin: 0; word-break: break-word; }
.detail .summary-text { background: #f7f5fb; border-left: 3px solid var(--auto); padding: 8px 10px; border-radius: 4px; font-size: 12.5px; max-height: 480px; overflow: auto; }
.detail .ids { list-style: none; padding: 0; margin: 0; font-size: 12.5px; }
.detail .ids li { margin: 2px 0; }
.detail .nav { display: flex; gap: 8px; margin-top: 12px; }
button.link { background: none; border: 0; padding: 0; color: var(--accent); cursor: pointer; font: inherit; text-align: left; }
button.link:hover { text-decoration: underline; }
.nav button { font: inherit; font-size: 12.5px; padding: 3px 10px; border: 1px solid var(--line); border-radius: 5px; background: #fff; cursor: pointer; }
.nav button:disabled { opacity: .4; cursor: default; }
.search-bar { display: flex; gap: 12px; align-items: center; margin-bottom: 10px; position: sticky; top: 0; background: var(--panel); padding: 4px 0; z-index: 2; }
#search { flex: 1; font: inherit; padding: 7px 10px; border: 1px solid #b8c0cc; border-radius: 6px; }
#search:focus { outline: 2px solid var(--accent); outline-offset: -1px; }
.turn { border-top: 1px solid #edf0f4; padding: 8px 0 8px; content-visibility: auto; contain-intrinsic-size: auto 90px; }
.turn.hidden, .compaction-divider.hidden { display: none; }
.turn.has-error { box-shadow: inset 3px 0 0 var(--bad); padding-left: 8px; }
.turn.flash { background: #fff8d6; transition: background .6s; }
.turn header { font-size: 12.5px; color: var(--muted); margin-bottom: 3px; }
.turn-link { font-weight: 700; color: var(--ink); text-decoration: none; margin-right: 6px; }
.turn .text { white-space: pre-wrap; word-break: break-word; margin: 2px 0 6px; }
details.call { margin: 3px 0 3px 10px; border: 1px solid #e3e7ee; border-radius: 6px; background: #fafbfc; }
details.call.error { border-color: #eab0aa; background: #fff7f6; }
details.call.match { border-color: #e7b53c; box-shadow: 0 0 0 1px #e7b53c; }
details.call.flash { outline: 3px solid var(--accent); }
details.call > summary { cursor: pointer; padding: 4px 8px; font-size: 13px; }
.tool { font-weight: 600; color: #31405a; }
.key { color: #374151; background: #eef1f6; padding: 0 4px; border-radius: 3px; }
.call-meta { color: var(--muted); font-size: 11.5px; margin-left: 6px; }
.call-body { padding: 4px 10px 8px; }
.call-body h4 { margin: 6px 0 3px; font-size: 11.5px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.call-body pre { background: #fff; border: 1px solid #e3e7ee; border-radius: 4px; padding: 6px 8px; max-height: 420px; overflow: auto; }
.call-body pre.error-output { border-color: #eab0aa; color: #8a1f14; }
.compaction-divider { display: block; width: 100%; text-align: left; font: inherit; font-size: 12.5px; margin: 6px 0; padding: 4px 10px; cursor: pointer;
  background: #f7f8fb; border: 1px dashed #b8c0cc; border-left-width: 4px; border-radius: 4px; color: #374151; }
.layer-border-micro { border-left-color: var(--micro); } .layer-border-auto { border-left-color: var(--auto); }
.layer-border-manual { border-left-color: var(--manual); } .layer-border-spill { border-left-color: var(--spill); }
.layer-border-fallback { border-left-color: var(--fallback); }
.tools td, .tools th { font-size: 12.5px; padding: 4px 5px; }
.bar-cell { width: 80px; }
.bar { width: 80px; height: 8px; display: block; }
.bar-ok { fill: #9db4e8; } .bar-bad { fill: var(--bad); }
ul.files { list-style: none; padding: 0; margin: 0; font-size: 12.5px; }
ul.files li { padding: 2px 0; word-break: break-all; }
`;
