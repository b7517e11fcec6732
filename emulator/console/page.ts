/**
 * The console page: one HTML document with its style and script inline, shipped as a string in the compiled
 * package (no asset files, no build step of its own). The script polls `/ui/state` every second and rebuilds the
 * lists with `textContent` only (row values never become markup); it arms and clears faults and chaos rules through the admin API.
 * Every list carries `data-list`, every VM row `data-vm="<name>"`: the browser test reads the page by them.
 */
const STYLE = `
:root { --bg: #f5f6f8; --card: #fff; --ink: #1d2330; --muted: #5f6b7a; --line: #dde1e7; --on: #1f8a4c; --off: #9aa3ad; --bad: #c0392b; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--ink); }
header { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: baseline;
  padding: .75rem 1rem; background: #243447; color: #fff; }
header h1 { margin: 0; font-size: 1.1rem; font-weight: 600; }
header .live { font-size: .85rem; opacity: .85; }
header .live.stale { color: #ffb4a8; opacity: 1; }
main { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 460px), 1fr)); gap: 1rem; padding: 1rem; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: .75rem 1rem; min-width: 0; }
section.wide { grid-column: 1 / -1; }
h2 { margin: 0 0 .5rem; font-size: 1rem; }
h3 { margin: .75rem 0 .25rem; font-size: .9rem; color: var(--muted); }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); white-space: nowrap; vertical-align: top; }
th { font-size: .8rem; color: var(--muted); font-weight: 600; }
td.hw { white-space: normal; min-width: 14rem; font-size: .85rem; color: var(--muted); }
.power { font-weight: 600; }
.power.on { color: var(--on); }
.power.off { color: var(--off); }
.error { color: var(--bad); }
.empty { color: var(--muted); font-style: italic; }
form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin: .5rem 0; }
label { display: flex; flex-direction: column; font-size: .8rem; color: var(--muted); }
input, select, button { font: inherit; padding: .3rem .4rem; }
input { width: 7rem; }
button { cursor: pointer; border: 1px solid #243447; background: #243447; color: #fff; border-radius: 4px; }
button.secondary { background: #fff; color: #243447; }
#fault-message, #chaos-message { font-size: .85rem; }
@media (max-width: 600px) {
  main { padding: .5rem; gap: .5rem; } section { padding: .5rem; } th, td { padding: .25rem .35rem; }
  /* A VM is a card on a phone: name, power, status, node and size on two lines, its hardware below. */
  [data-list="vms"] tr:first-child { display: none; }
  [data-list="vms"] tr { display: grid; grid-template-columns: repeat(3, auto); border-bottom: 1px solid var(--line); padding: .25rem 0; }
  [data-list="vms"] td { border: 0; }
  [data-list="vms"] td.hw { grid-column: 1 / -1; min-width: 0; }
}
`;

const SCRIPT = `
"use strict";
function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}
// Absolute and same-origin: a page opened at https://user:pass@host/ui has a base URL with credentials, and
// fetch() refuses any URL that resolves to one; location.origin never holds them.
const here = (path) => location.origin + path;
const when = (s) => (s ? new Date(Number(s) * 1000).toISOString().replace("T", " ").slice(0, 19) : "never");
const size = (bytes) => (bytes ? (Number(bytes) / 1024 ** 3).toFixed(1) + " GiB" : "");

/** Fills table[data-list=name] with one row per item; columns are [header, value(item) or node]. */
function fill(name, items, columns, rowAttrs) {
  const table = document.querySelector('[data-list="' + name + '"]');
  const head = el("tr"); for (const [h] of columns) head.append(el("th", h));
  const rows = items.map((item) => {
    const tr = el("tr");
    if (rowAttrs) for (const [k, v] of Object.entries(rowAttrs(item))) tr.setAttribute(k, v);
    for (const [, value] of columns) { const v = value(item); tr.append(v instanceof Node ? v : el("td", v)); }
    return tr;
  });
  if (!rows.length) {
    const td = el("td", "none", "empty");
    td.colSpan = columns.length;
    rows.push(el("tr"));
    rows[0].append(td);
  }
  table.replaceChildren(head, ...rows);
}

function cell(text, cls) { return el("td", text, cls); }

function hardware(vm, lists) {
  const td = el("td", undefined, "hw");
  const of = (list) => list.filter((x) => x.machine === vm.machine);
  const lines = [
    ...of(lists.drives).map((d) =>
      "drive " + d.name + " (" + d.media + ", " + d.interface + (d.disksize ? ", " + size(d.disksize) : "") + "): " + d.status),
    ...of(lists.nics).map((n) => "NIC " + n.name + " on " + (n.vnet || "no vnet") + " " + n.macaddress + ": " + n.status),
    ...of(lists.devices).map((d) => "device " + (d.name || d.type) + (d.group ? " (" + d.group + ")" : "") + ": " + d.status),
  ];
  if (!lines.length) td.append(el("span", "no hardware", "empty"));
  for (const line of lines) td.append(el("div", line));
  return td;
}

function render(state) {
  const l = state.lists;
  document.getElementById("summary").textContent =
    l.vms.length + " VMs, " + l.vms.filter((v) => v.running).length + " running · " + l.vnets.length + " vnets · " +
    state.requests.total + " requests";
  fill("vms", l.vms, [
    ["Name", (v) => v.name],
    ["Power", (v) => cell(v.running ? "on" : "off", "power " + (v.running ? "on" : "off"))],
    ["Status", (v) => cell(v.status, "status")],
    ["Node", (v) => cell(v.node || "—", "node")],
    ["CPU / RAM", (v) => v.cpu_cores + " × " + v.ram + " MB"],
    ["Drives, NICs, devices", (v) => hardware(v, l)],
  ], (v) => ({ "data-vm": v.name }));
  fill("vnets", l.vnets, [["Name", (n) => n.name], ["Type", (n) => n.type], ["Network", (n) => n.network],
    ["State", (n) => cell(n.running ? "running" : n.status, "power " + (n.running ? "on" : "off"))]]);
  fill("users", l.users, [["Name", (u) => u.name], ["Role", (u) => u.role], ["Type", (u) => u.type],
    ["Enabled", (u) => (u.enabled ? "yes" : "no")]]);
  fill("apiKeys", l.apiKeys, [["Key name", (k) => k.name], ["User", (k) => k.user],
    ["Expires", (k) => (Number(k.expires) ? when(k.expires) : "never")], ["Last used", (k) => when(k.lastlogin_stamp)]]);
  fill("groups", l.groups, [["Name", (g) => g.name], ["Identity", (g) => g.identity], ["Enabled", (g) => (g.enabled ? "yes" : "no")]]);
  fill("grants", l.grants, [["To", (g) => g.identity_table + "/" + g.identity_key], ["Table", (g) => g.table],
    ["Row", (g) => (String(g.row) === "0" ? "all" : g.row)],
    ["Rights", (g) => ["list", "read", "create", "modify", "delete"].filter((r) => g[r]).join(", ") || "none"]]);
  fill("webhooks", l.webhooks, [["Name", (w) => w.name], ["URL", (w) => w.url], ["Authorization", (w) => w.authorization_type]]);
  fill("deliveries", l.deliveries, [["#", (d) => d.$key], ["Webhook", (d) => d.webhook], ["Task", (d) => d.task || "test send"],
    ["Status", (d) => cell(d.status, d.status === "error" ? "error" : "")],
    ["Outcome", (d) => cell(d.outcome, d.status === "error" ? "error outcome" : "outcome")], ["Tries", (d) => d.attempts]]);
  fill("tasks", l.tasks, [["Name", (t) => t.name], ["Enabled", (t) => (t.enabled ? "yes" : "no")], ["Status", (t) => t.status],
    ["Last run", (t) => when(t.last_run)], ["Events", (t) => t.events_count], ["Schedules", (t) => t.triggers_count]]);
  fill("triggers", [...l.taskEvents.map((e) => ({ task: e.task, on: "event " + e.table + "." + e.event })),
    ...l.taskSchedules.map((s) => ({ task: s.task, on: "schedule " + s.schedule + " (every " + s.every + ")" }))],
    [["Task", (t) => t.task], ["Runs on", (t) => t.on]]);
  const r = state.requests;
  const budget = Object.fromEntries(r.budgets.map((b) => [b.caller, b]));
  fill("callers", Object.entries(r.byCaller).sort((a, b) => b[1] - a[1]), [["Caller", ([c]) => c], ["Requests", ([, n]) => n],
    ["Budget left this hour", ([c]) =>
      (budget[c] ? budget[c].left + " of " + r.perHour + " (resets in " + budget[c].resetsInS + " s)" : "—")]]);
  fill("requests", r.recent, [["Time", (q) => new Date(q.at).toISOString().slice(11, 23)], ["Caller", (q) => q.caller],
    ["Request", (q) => q.method + " " + q.path], ["Answer", (q) => cell(q.status, q.status >= 400 ? "error" : "")], ["ms", (q) => q.ms]]);
  fill("faults", state.faults, [["#", (f) => f.id], ["Method", (f) => f.method], ["Table", (f) => f.table],
    ["Does", (f) => [f.status && "answers " + f.status, f.stallMs && "stalls " + f.stallMs + " ms", f.drop && "drops",
      f.lateMs && "late " + f.lateMs + " ms"]
      .filter(Boolean).join(", ")],
    ["Probability", (f) => (f.probability === undefined ? 1 : f.probability)],
    ["Hits", (f) => f.hits + (f.count ? " of " + f.count : "")]]);
  fill("chaos", state.chaos, [["#", (c) => c.id], ["Method", (c) => c.method], ["Table", (c) => c.table],
    ["Does", (c) => [c.status && "answers " + c.status, c.latencyMs && "adds " + c.latencyMs + " ms"].filter(Boolean).join(", ")],
    ["Probability", (c) => c.probability], ["Hits", (c) => c.hits + " (spared " + c.spared + ")"]]);
}

// A poll sent before a change may answer after one sent later: only the newest answer is shown.
let asked = 0;
let shown = 0;
async function refresh() {
  const live = document.getElementById("live");
  const mine = ++asked;
  try {
    const answer = await fetch(here("/ui/state"), { cache: "no-store", credentials: "same-origin" });
    if (!answer.ok) throw new Error("HTTP " + answer.status);
    const state = await answer.json();
    if (mine < shown) return;
    shown = mine;
    render(state);
    live.textContent = "live · updated " + new Date().toLocaleTimeString();
    live.classList.remove("stale");
  } catch (error) {
    live.textContent = "not updating: " + error.message;
    live.classList.add("stale");
  }
}

// Arms (POST) or clears (DELETE) faults or chaos rules through the admin API; says what happened under its form.
async function admin(what, method, body) {
  const message = document.getElementById(what + "-message");
  const answer = await fetch(here("/_emulator/" + (what === "fault" ? "faults" : "chaos")), {
    method, credentials: "same-origin",
    headers: body ? { "content-type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined,
  });
  const text = await answer.text();
  message.textContent = answer.ok ? (method === "POST" ? "armed " + what + " #" + JSON.parse(text).id : "cleared") : "refused: " + text;
  message.className = answer.ok ? "" : "error";
  await refresh();
}

document.getElementById("arm").addEventListener("submit", (event) => {
  event.preventDefault();
  const f = new FormData(event.target);
  const body = { method: f.get("method"), table: f.get("table") || "*" };
  for (const name of ["status", "stallMs", "count"]) if (f.get(name)) body[name] = Number(f.get(name));
  if (f.get("probability")) body.probability = Number(f.get("probability"));
  void admin("fault", "POST", body);
});
document.getElementById("clear").addEventListener("click", () => void admin("fault", "DELETE"));
document.getElementById("arm-chaos").addEventListener("submit", (event) => {
  event.preventDefault();
  const f = new FormData(event.target);
  const body = { method: f.get("method"), table: f.get("table") || "*" };
  for (const name of ["status", "latencyMs", "probability"]) if (f.get(name)) body[name] = Number(f.get(name));
  void admin("chaos", "POST", body);
});
document.getElementById("clear-chaos").addEventListener("click", () => void admin("chaos", "DELETE"));
void refresh();
setInterval(refresh, 1000);
`;

const section = (title: string, lists: [string, string?][], wide = false) =>
  `<section${wide ? ' class="wide"' : ""}><h2>${title}</h2>${lists
    .map(([list, heading]) => `${heading ? `<h3>${heading}</h3>` : ""}<div class="scroll"><table data-list="${list}"></table></div>`)
    .join("")}</section>`;

/** What a fault and a chaos rule both match: a request's method and table. */
const METHOD_AND_TABLE = `<label>Method<select name="method">
<option>*</option><option>GET</option><option>POST</option><option>PUT</option><option>DELETE</option>
</select></label>
<label>Table<input name="table" placeholder="* or vms"></label>`;

export const CONSOLE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>vplatform emulator console</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>vplatform emulator</h1><span id="summary"></span><span id="live" class="live">connecting…</span></header>
<main>
${section("Virtual machines", [["vms"]], true)}
${section("Virtual networks", [["vnets"]])}
${section("Users and API keys", [
  ["users", "Users"],
  ["apiKeys", "API keys (names only: a secret is shown once, at creation)"],
  ["groups", "Groups"],
  ["grants", "Permissions (grants)"],
])}
${section("Webhooks", [["webhooks"], ["deliveries", "Latest deliveries"]])}
${section("Tasks", [["tasks"], ["triggers", "Triggers"]])}
${section(
  "Requests",
  [
    ["callers", "By caller"],
    ["requests", "Latest"],
  ],
  true,
)}
<section class="wide"><h2>Faults</h2>
<form id="arm">
${METHOD_AND_TABLE}
<label>Answer status<input name="status" type="number" min="100" max="599" placeholder="503"></label>
<label>Probability<input name="probability" type="number" min="0" max="1" step="0.05" placeholder="1"></label>
<label>Stall ms<input name="stallMs" type="number" min="0" placeholder="0"></label>
<label>Count<input name="count" type="number" min="1" placeholder="∞"></label>
<button type="submit">Arm</button><button type="button" id="clear" class="secondary">Clear all</button>
</form>
<div id="fault-message"></div>
<div class="scroll"><table data-list="faults"></table></div>
</section>
<section class="wide"><h2>Chaos rules</h2>
<form id="arm-chaos">
${METHOD_AND_TABLE}
<label>Answer status<input name="status" type="number" min="400" max="599" placeholder="none"></label>
<label>Added latency ms<input name="latencyMs" type="number" min="0" placeholder="0"></label>
<label>Probability<input name="probability" type="number" min="0" max="1" step="0.05" placeholder="1"></label>
<button type="submit">Arm</button><button type="button" id="clear-chaos" class="secondary">Clear all</button>
</form>
<div id="chaos-message"></div>
<div class="scroll"><table data-list="chaos"></table></div>
</section>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
