"""The one page of ``simdom table``: HTML, CSS and a small script over the JSON API (simdom/table/app.py).
No framework and nothing from the network: the page works offline."""

PAGE = r"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>simdom table</title>
<style>
body{font:15px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:0 16px;color:#111}
h1{font-size:22px;margin:12px 0}h2{font-size:17px;margin:16px 0 6px}
#message{min-height:1.4em;padding:6px 10px;border-radius:4px;margin:6px 0}
#message.error{background:#fee2e2;color:#991b1b}#message.warning{background:#fef3c7;color:#92400e}
#message.info{background:#e0f2fe;color:#075985}
fieldset{border:1px solid #ccc;border-radius:6px;margin:8px 0}label{margin-right:12px;display:inline-block}
table{border-collapse:collapse;margin:4px 0}td,th{border-bottom:1px solid #ddd;padding:2px 8px;text-align:left}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
button{font:inherit;padding:3px 10px;margin:2px;cursor:pointer}
button.tile{font-weight:bold;min-width:48px}button.sel{background:#fde68a}
#board{border:1px solid #ccc;border-radius:6px;background:#0f5132;padding:6px;overflow:auto}
#board svg{background:#e7f2ea;border-radius:4px}
.row{display:flex;gap:24px;flex-wrap:wrap}.col{flex:1;min-width:300px}
.mark{color:#b91c1c;font-weight:bold}tr.cur{background:#fef9c3}tr.clk{cursor:pointer}
#progress{color:#555}.muted{color:#666}
</style></head><body>
<h1>simdom table</h1>
<div id="message" role="alert"></div>
<div id="setup" hidden>
 <fieldset><legend>New game</legend>
  <label>Mode <select id="mode"><option value="play">play against bots</option>
   <option value="follow">follow a real game</option></select></label>
  <label>Rules <select id="rules"></select></label>
  <label>Players <select id="players"><option>2</option><option>3</option><option selected>4</option></select></label>
  <label>Overrides <input id="overrides" size="28" placeholder="min_ends=2, divisors=[3,5]"></label><br>
  <label>Your seat <input id="seat" type="number" min="0" max="3" value="0" size="3"></label>
  <span id="play-opts"><label>Bots <input id="bots" size="34" value="greedy"
    title="one policy for every seat, or one per seat separated by commas"></label>
   <label>Seed <input id="seed" type="number" min="0" value="1"></label>
   <label>Deal <input id="dealno" type="number" min="0" value="0"></label></span>
  <span id="follow-opts" hidden><label>Leader <input id="first" type="number" min="0" max="3" value="0"></label>
   <label>Your hand <input id="hand" size="34" placeholder="1-1 1-5 5-5 3-5 2-2"></label>
   <label>Match scores <input id="scores" size="10" placeholder="0, 0" title="a match (target set): the sides' scores before this deal"></label></span>
  <div class="muted" id="policies"></div>
  <button id="start">Start</button>
 </fieldset>
</div>
<div id="game" hidden>
 <div id="status"></div>
 <div id="board"></div>
 <div class="row"><div class="col">
  <h2>Your move</h2>
  <div id="hand-tiles"></div><div id="ends"></div>
  <div id="follow" hidden><fieldset><legend>Enter what happens at the table</legend>
   <label>Seat <select id="f-seat"></select></label>
   <label>Action <select id="f-act"><option>play</option><option>draw</option><option>pass</option></select></label>
   <label>Tile <input id="f-tile" size="5" placeholder="3-6"></label>
   <label>End <select id="f-end"><option>lead</option><option>L</option><option>R</option><option>U</option>
    <option>D</option></select></label>
   <button id="f-go">Enter</button></fieldset></div>
  <div id="next-follow" hidden><fieldset><legend>Next deal of the match</legend>
   <label>Your hand <input id="nf-hand" size="30"></label>
   <label>Leader <input id="nf-first" type="number" min="0" max="3" value="0" size="3"></label>
   <label>Scores now <input id="nf-scores" size="12" title="one per side: the scores with this deal's end bonus, as counted at the table"></label>
   <button id="nf-go">Start the next deal</button></fieldset></div>
  <div><button id="undo">Undo</button> <button id="next-deal" hidden>Next deal of the match</button>
   <label><input type="checkbox" id="tutor-on"> Tutor: warn above
    <input id="tutor-threshold" type="number" step="0.1" min="0" value="0.5" size="4"> points</label></div>
  <h2>Hint</h2>
  <label>Rollouts <input id="rollouts" type="number" min="2" value="" size="7" placeholder="auto"
    title="empty: as simdom analyze, until the best move is separated (at most 100,000)"></label>
  <label>Seed <input id="hint-seed" type="number" min="0" value="1" size="5"></label>
  <label>Then <input id="then" value="greedy" size="10"></label>
  <button id="hint">Hint</button> <button id="solve">Every hand known</button>
  <div id="progress"></div><div id="hint-out"></div><div id="solve-out"></div>
 </div><div class="col">
  <h2>Table</h2><div id="seats"></div>
  <h2>Unseen tiles</h2><div id="unseen"></div>
  <h2>Actions</h2><ol id="history"></ol>
  <div><span id="export-script-box"><a id="export-script" href="#">export as a scripted deal</a> · </span>
   <a id="export-position" href="#">export your position file</a> · <a href="/">new game</a></div>
 </div></div>
 <h2>Review</h2>
 <label>Rollouts <input id="rv-rollouts" type="number" min="2" value="400" size="6"></label>
 <label>Luck rollouts <input id="rv-luck" type="number" min="2" value="100" size="6"></label>
 <button id="review">Review the deal</button> <button id="next-error" hidden>Next error</button>
 <div id="review-out"></div>
</div>
<script>
"use strict";
const gid = location.pathname.startsWith("/game/") ? location.pathname.slice(6) : null;
const $ = (id) => document.getElementById(id);
let G = null, selected = null, reviewShown = null, cur = 0, timer = null;
function msg(text, kind) { const m = $("message"); m.textContent = text || ""; m.className = text ? kind : ""; }
async function api(path, body) {
  const opt = body === undefined ? {} : {method: "POST", headers: {"content-type": "application/json"},
    body: typeof body === "string" ? body : JSON.stringify(body)};
  let r;
  try { r = await fetch(path, opt); } catch (e) { msg("the server does not answer: " + e, "error"); return null; }
  let j = null;
  try { j = await r.json(); } catch (e) { msg("the server's answer is not JSON", "error"); return null; }
  if (!r.ok) { msg(j.error, "error"); return null; }
  return j;
}
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
const f2 = (x) => (x === null || x === undefined || Number.isNaN(x)) ? "" : Number(x).toFixed(2);
function table(head, rows, attrs) {
  return "<table><tr>" + head.map((h) => `<th${h[1] ? ' class="n"' : ""}>${esc(h[0])}</th>`).join("") + "</tr>" +
    rows.map((r, i) => `<tr ${attrs ? attrs(i) : ""}>` + r.map((c, k) => `<td${head[k][1] ? ' class="n"' : ""}>${c}</td>`).join("") + "</tr>").join("") + "</table>";
}
function show(g) {
  G = g;
  document.body.dataset.version = g.version;
  document.body.dataset.game = g.id;
  $("board").innerHTML = g.board;
  const turn = g.turn === null || g.turn === undefined ? null : g.turn;
  let st = `${g.rules}, ${g.players} players; you are seat ${g.seat}. Move ${g.move}. Boneyard: ${g.boneyard} tiles. `;
  if (g.ended) st += `The deal is over (${g.ended})` + (g.totals ? `: totals ${g.totals.join(" - ")}.` : ".");
  else st += turn === g.seat ? "Your turn." : `Seat ${turn} to act.`;
  if (g.match) {
    const m = g.match, side = (j) => m.sides[j].join("+");
    st += ` Match${m.id === null ? "" : " " + m.id} to ${m.target}, deal ${m.hand + 1}: scores ` + m.scores.map((x, j) => `${side(j)}: ${x}`).join(", ") +
      (m.follow ? " (before this deal " + m.before.join(" - ") + ", then its placements; the end bonus is counted at the table)" : "") +
      (m.winner !== null ? `; seats ${side(m.winner)} won the match.` : m.over ? "; the match is over." : ".");
  }
  $("status").textContent = st;
  $("status").dataset.scores = g.match ? g.match.scores.join(",") : "";
  $("status").dataset.before = g.match ? g.match.before.join(",") : "";
  $("next-deal").hidden = !(g.match && g.ended && !g.match.over && g.mode === "play");
  const nf = $("next-follow"), showNf = !!(g.match && g.ended && !g.match.over && g.mode === "follow");
  if (showNf && nf.hidden) $("nf-scores").value = g.match.suggested.join(", ");
  nf.hidden = !showNf;
  $("status").dataset.ended = g.ended || "";
  $("status").dataset.totals = g.totals ? g.totals.join(",") : "";
  $("seats").innerHTML = table([["seat"], ["player"], ["tiles", 1], ["points", 1], ["known to lack"]],
    g.seats.map((s) => [s.seat, esc(s.name + (s.policy ? " · " + s.policy : "")), s.tiles, s.total !== null && g.ended ? s.total : s.points,
      s.void.length ? s.void.join(", ") : "–"]), (i) => `data-seat="${i}"`);
  $("unseen").innerHTML = `<span id="unseen-count">${g.unseen.length}</span>: ` + g.unseen.map((t) => `<span class="u">${t}</span>`).join(" ");
  $("history").innerHTML = g.history.map((h) => `<li>${esc(h)}</li>`).join("");
  const mine = g.seats[g.seat].hand || [];
  const legalTiles = new Set(g.legal.map((m) => m[0]));
  $("hand-tiles").innerHTML = "Your hand: " + mine.map((t) => `<button class="tile${selected === t ? " sel" : ""}" data-tile="${t}"${legalTiles.has(t) ? "" : " disabled"}>${t}</button>`).join("");
  $("ends").innerHTML = selected && g.mode === "play" ? "Place " + selected + " on: " + g.legal.filter((m) => m[0] === selected).map((m) => `<button class="end" data-end="${m[1]}">${m[1]}</button>`).join("") : "";
  $("follow").hidden = g.mode !== "follow";
  $("solve").hidden = g.mode !== "play";
  $("export-script-box").hidden = g.mode !== "play";
  if (g.mode === "follow") {
    const fs = $("f-seat");
    if (fs.options.length !== g.players) fs.innerHTML = g.seats.map((s) => `<option value="${s.seat}">${s.seat}${s.seat === g.seat ? " (you)" : ""}</option>`).join("");
    if (g.turn !== null && document.activeElement !== fs) fs.value = String(g.turn);
  }
  $("undo").disabled = !g.can_undo;
  $("export-script").href = `/api/game/${g.id}/export/script`;
  $("export-position").href = `/api/game/${g.id}/export/position`;
  $("tutor-on").checked = g.tutor !== null;
  if (g.tutor !== null && document.activeElement !== $("tutor-threshold")) $("tutor-threshold").value = g.tutor;
  const jobs = g.jobs || {};
  let busy = false, prog = [];
  for (const k of ["hint", "solve", "review", "move-hint"]) {
    const j = jobs[k];
    if (!j) continue;
    if (!j.finished) { busy = true; prog.push(k === "hint" && j.planned ? `hint: ${j.done} of ${j.planned} rollouts (${j.seconds} s)` : `${k}: working (${j.seconds} s)`); }
    if (j.error) prog.push(`${k}: ${j.error}`);
  }
  $("progress").textContent = prog.join("; ");
  $("progress").dataset.busy = busy ? "1" : "";
  showHint(jobs.hint); showSolve(jobs.solve); showReview(jobs.review); showMoveHint(jobs["move-hint"]);
  if (g.warning) msg(g.warning, "warning");
  clearTimeout(timer);
  if (busy) timer = setTimeout(refresh, 250);
}
function showHint(j) { hintTable($("hint-out"), j); }
function showMoveHint(j) {
  const out = $("rv-hint");
  if (!out) return;
  if (j && j.finished && j.result && j.result.move !== cur) { out.innerHTML = ""; out.dataset.done = ""; return; }
  hintTable(out, j);
}
function hintTable(out, j) {
  if (!j || !j.finished || !j.result) { out.innerHTML = ""; out.dataset.done = ""; return; }
  const h = j.result;
  const how = h.asked === null ? ` (${h.stopped === "separated" ? "until the best move was separated" : h.stopped === "forced" ? "a forced move" : "the budget"}, as simdom analyze)` : "";
  out.innerHTML = `<div>Move ${h.move}, seat ${h.seat}: ${h.rollouts} rollouts${how}, seed ${h.seed}, then ${esc(h.then)}. Loss against the best with its 95% interval.</div>` +
    table([["move"], ["expected points", 1], ["95% interval", 1], ["loss", 1], ["loss 95% interval", 1], ["margin", 1], ["win", 1]],
      h.rows.map((r) => [r.move, f2(r.points), `${f2(r.points_lo)} to ${f2(r.points_hi)}`, f2(r.loss),
        `${f2(r.loss_lo)} to ${f2(r.loss_hi)}`, f2(r.margin), (100 * r.win).toFixed(1) + "%"]),
      (i) => `class="hint-row" data-move="${h.rows[i].move}" data-points="${h.rows[i].points}" data-loss="${h.rows[i].loss}"`);
  out.dataset.done = "1";
  out.dataset.key = `${h.asked === null ? "auto" : h.rollouts}/${h.seed}/${h.then}`;
}
function showSolve(j) {
  const out = $("solve-out");
  if (!j || !j.finished || !j.result) { out.innerHTML = ""; return; }
  const s = j.result;
  out.innerHTML = `<div>With every hand known (exact minimax by margin, ${s.nodes.toLocaleString()} positions):</div>` +
    table([["move"], ["margin", 1], ["loss", 1]], s.rows.map((r) => [r.move + (r.loss === 0 ? " ✓" : ""), r.value, r.loss]),
      (i) => `class="solve-row" data-move="${s.rows[i].move}" data-value="${s.rows[i].value}"`);
}
function graph(points) {
  if (!points.length) return "<div class='muted'>No decision of yours to draw.</div>";
  const W = 520, H = 160, P = 30;
  const xs = points.map((p) => p.move), ys = points.map((p) => p.margin);
  const x0 = Math.min(...xs), x1 = Math.max(...xs, x0 + 1), y0 = Math.min(0, ...ys), y1 = Math.max(0, ...ys, y0 + 1);
  const X = (x) => P + (x - x0) / (x1 - x0) * (W - 2 * P), Y = (y) => H - P - (y - y0) / (y1 - y0) * (H - 2 * P);
  const line = points.map((p, i) => `${i ? "L" : "M"}${X(p.move).toFixed(1)},${Y(p.margin).toFixed(1)}`).join("");
  return `<svg id="graph" width="${W}" height="${H}" role="img" aria-label="expected final margin over the deal">` +
    `<line x1="${P}" x2="${W - P}" y1="${Y(0)}" y2="${Y(0)}" stroke="#999"/><path d="${line}" fill="none" stroke="#1d4ed8" stroke-width="2"/>` +
    points.map((p) => `<circle cx="${X(p.move)}" cy="${Y(p.margin)}" r="3" fill="#1d4ed8"><title>move ${p.move}: ${p.margin.toFixed(2)}</title></circle>`).join("") +
    `<text x="${P}" y="14" font-size="12">your expected final margin after each move (0 = level)</text>` +
    `<text x="2" y="${Y(y1) + 4}" font-size="10">${y1.toFixed(0)}</text><text x="2" y="${Y(y0) + 4}" font-size="10">${y0.toFixed(0)}</text>` +
    `<text x="${P}" y="${H - 8}" font-size="11">move ${x0}</text><text x="${W - P - 40}" y="${H - 8}" font-size="11">move ${x1}</text></svg>`;
}
function showReview(j) {
  const out = $("review-out");
  if (!j || !j.finished || !j.result) { if (!j) { out.innerHTML = ""; reviewShown = null; $("next-error").hidden = true; } return; }
  if (reviewShown && reviewShown.stamp === j.stamp) return;   // drawn already (each poll parses a new copy)
  reviewShown = j.result;
  reviewShown.stamp = j.stamp;
  const r = j.result, names = r.names;
  let h = table([["move", 1], ["player"], ["played"], ["value", 1], ["best"], ["error", 1], ["95% interval", 1], ["mark"]],
    r.decisions.map((d) => [d.move, esc(names[d.seat]), `${d.played.tile} ${d.played.end}`, f2(d.played.value),
      d.best.tile + " " + d.best.end === d.played.tile + " " + d.played.end ? "" : `${d.best.tile} ${d.best.end}`,
      d.forced ? "forced" : f2(d.error), d.forced ? "" : `${f2(d.error_lo)} to ${f2(d.error_hi)}`,
      d.mark ? `<span class="mark">${{blunder: "??", mistake: "?", inaccuracy: "?!"}[d.mark]} ${d.mark}</span>` : ""]),
    (i) => `class="rv-row clk" data-move="${r.decisions[i].move}" data-mark="${r.decisions[i].mark || ""}"`);
  h += "<h2>Luck</h2>" + table([["event"], ["move", 1]].concat(names.map((n) => [n, 1])),
    r.luck.map((x) => [esc(x.event), x.move].concat(x.luck.map((v) => v === null ? "" : (v >= 0 ? "+" : "") + f2(v)))));
  h += "<h2>Expected final margin</h2>" + graph(r.graph);
  h += "<h2>Position</h2><div id='rv-detail'></div><button id='rv-hint-go' hidden>Hint at this move</button>" +
    "<div id='rv-hint'></div><div id='rv-board'></div>";
  out.innerHTML = h;
  $("next-error").hidden = false;
  out.querySelectorAll(".rv-row").forEach((tr) => tr.addEventListener("click", () => pick(+tr.dataset.move)));
  $("rv-hint-go").addEventListener("click", () => post("hint", {move: cur, rollouts: $("rollouts").value.trim() === "" ? null : Number($("rollouts").value),
    seed: Number($("hint-seed").value), then: $("then").value}));
  cur = 0;
}
function pick(move) {
  const r = reviewShown; if (!r) return;
  cur = move;
  document.querySelectorAll(".rv-row").forEach((tr) => tr.classList.toggle("cur", +tr.dataset.move === move));
  $("rv-board").innerHTML = r.boards[move - 1] || "";
  $("rv-hint").innerHTML = ""; $("rv-hint").dataset.done = "";
  $("rv-hint-go").hidden = !r.decisions.some((x) => x.move === move);
  const d = r.decisions.find((x) => x.move === move);
  $("rv-detail").textContent = d ? `Move ${move} (${r.names[d.seat]}): played ${d.played.tile} ${d.played.end}, expected ${f2(d.played.value)} points; best ${d.best.tile} ${d.best.end}, ${f2(d.best.value)}; error ${f2(d.error)} (${f2(d.error_lo)} to ${f2(d.error_hi)})${d.mark ? ", " + d.mark : ""}.` : `Move ${move}: not a decision of yours.`;
}
async function refresh() { const g = await api(`/api/game/${gid}`); if (g) show(g); }
async function post(path, body) { const g = await api(`/api/game/${gid}/${path}`, body || {}); if (g) { if (!g.warning) msg(""); show(g); } return g; }
async function move(tile, end, confirm) {
  const g = await post("play", {tile, end, confirm: !!confirm, tutor: tutorValue()});
  if (g && g.warning) { if (window.confirm(g.warning)) { await move(tile, end, true); } }
  else if (g) selected = null, show(G);
}
function tutorValue() { return $("tutor-on").checked ? Number($("tutor-threshold").value) : null; }
async function follow(confirm) {
  const body = {seat: Number($("f-seat").value), act: $("f-act").value, tile: $("f-tile").value.trim() || null,
    end: $("f-end").value, confirm: !!confirm};
  const g = await post("act", body);
  if (g && g.warning) { if (window.confirm(g.warning)) await follow(true); }
  else if (g) $("f-tile").value = "";
}
function setup() {
  $("setup").hidden = false;
  api("/api/options").then((o) => {
    if (!o) return;
    $("rules").innerHTML = o.presets.map((p) => `<option>${p}</option>`).join("");
    $("policies").textContent = "Bot policies: " + o.policies.join(", ") + " (with parameters, e.g. hold:until=9).";
  });
  $("mode").addEventListener("change", () => { const f = $("mode").value === "follow"; $("follow-opts").hidden = !f; $("play-opts").hidden = f; });
  $("start").addEventListener("click", async () => {
    const body = {mode: $("mode").value, rules: $("rules").value, players: Number($("players").value),
      overrides: $("overrides").value, seat: Number($("seat").value), seed: Number($("seed").value),
      deal: Number($("dealno").value), bots: $("bots").value.split(",").map((s) => s.trim()).filter((s) => s),
      first: Number($("first").value), hand: $("hand").value, scores: $("scores").value};
    const g = await api("/api/new", body);
    if (g) { sessionStorage.setItem("simdom-table-last", g.id); location.href = `/game/${g.id}`; }
  });
}
function wire() {
  $("game").hidden = false;
  $("hand-tiles").addEventListener("click", (e) => {
    const b = e.target.closest("button.tile"); if (!b) return;
    if (G.mode === "follow") {  // your own placement: the form filled, the end still to choose
      $("f-seat").value = String(G.seat); $("f-act").value = "play"; $("f-tile").value = b.dataset.tile;
      const ends = G.legal.filter((m) => m[0] === b.dataset.tile).map((m) => m[1]);
      if (ends.length) $("f-end").value = ends[0];
      return;
    }
    selected = b.dataset.tile; show(G);
  });
  $("ends").addEventListener("click", (e) => { const b = e.target.closest("button.end"); if (b && selected) move(selected, b.dataset.end); });
  $("f-go").addEventListener("click", () => follow(false));
  $("undo").addEventListener("click", () => post("undo"));
  $("next-deal").addEventListener("click", () => { reviewShown = null; post("next"); });
  $("nf-go").addEventListener("click", () => { reviewShown = null;
    post("next", {hand: $("nf-hand").value, first: Number($("nf-first").value), scores: $("nf-scores").value}); });
  const rollouts = () => $("rollouts").value.trim() === "" ? null : Number($("rollouts").value);
  $("hint").addEventListener("click", () => post("hint", {rollouts: rollouts(), seed: Number($("hint-seed").value), then: $("then").value}));
  $("solve").addEventListener("click", () => post("solve"));
  $("review").addEventListener("click", () => post("review", {rollouts: Number($("rv-rollouts").value), luck_rollouts: Number($("rv-luck").value)}));
  $("next-error").addEventListener("click", () => {
    const r = reviewShown; if (!r) return;
    const nxt = r.decisions.find((d) => d.mark && d.move > cur) || r.decisions.find((d) => d.mark);
    if (nxt) pick(nxt.move); else msg("no marked error in this deal", "info");
  });
  const tut = () => post("tutor", {threshold: tutorValue()});
  $("tutor-on").addEventListener("change", tut);
  $("tutor-threshold").addEventListener("change", () => { if ($("tutor-on").checked) tut(); });
  refresh();
}
if (gid) wire(); else setup();
</script></body></html>
"""
