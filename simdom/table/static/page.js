"use strict";
const gid = location.pathname.startsWith("/game/") ? location.pathname.slice(6) : null;
const $ = (id) => document.getElementById(id);
let G = null, selected = null, reviewShown = null, cur = 0, timer = null, viewMove = null;
// the pips of a half, as the board draws them (simdom/board.py PIPS): offsets in thirds of a half
const PIPS = {0: [], 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]], 7: [[-1, -1], [1, -1], [-1, 0], [0, 0], [1, 0], [-1, 1], [1, 1]],
  8: [[-1, -1], [0, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [0, 1], [1, 1]],
  9: [[-1, -1], [0, -1], [1, -1], [-1, 0], [0, 0], [1, 0], [-1, 1], [0, 1], [1, 1]]};
function tileSvg(name, maxPip) {   // a tile of a hand, drawn as the board draws one (its name for readers)
  const U = 20, [a, b] = name.split("-").map(Number);
  let h = `<svg class="hand" width="${2 * U + 2}" height="${U + 2}" viewBox="-1 -1 ${2 * U + 2} ${U + 2}" aria-hidden="true">` +
    `<rect x="0" y="0" width="${2 * U}" height="${U}" rx="3" class="face"/><line x1="${U}" y1="3" x2="${U}" y2="${U - 3}" class="bar"/>`;
  [[U / 2, a], [1.5 * U, b]].forEach(([cx, v]) => {
    if (maxPip <= 9 && PIPS[v]) h += PIPS[v].map(([dx, dy]) => `<circle cx="${cx + dx * U * 0.27}" cy="${U / 2 + dy * U * 0.27}" r="${U * 0.09}" class="pip"/>`).join("");
    else h += `<text x="${cx}" y="${U / 2 + 4}" class="num">${v}</text>`;
  });
  return h + `</svg><span class="sr">${name}</span>`;
}
function tiles(names, maxPip) { return names.map((t) => tileSvg(t, maxPip)).join(" "); }
function msg(text, kind) { const m = $("message"); m.textContent = text || ""; m.className = text ? kind : ""; }
const TOKEN = document.querySelector('meta[name="simdom-token"]').content;
async function api(path, body) {
  const opt = body === undefined ? {headers: {"x-simdom-token": TOKEN}} : {method: "POST",
    headers: {"content-type": "application/json", "x-simdom-token": TOKEN},
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
  if (G && G.version !== g.version && viewMove !== null) { viewMove = null; $("viewing").hidden = true; }
  G = g;
  document.body.dataset.version = g.version;
  document.body.dataset.game = g.id;
  if (viewMove === null) $("board").innerHTML = g.board;
  const turn = g.turn === null || g.turn === undefined ? null : g.turn;
  const me = g.names[g.seat].replace(/ \(you\)$/, "");
  let st = `${g.rules}, ${g.players} players; you are ${me}${me === "seat " + g.seat ? "" : " (seat " + g.seat + ")"}. Move ${g.move}. Boneyard: ${g.boneyard} tiles. `;
  if (g.ended) st += g.ending ? g.ending.sentence : "The deal is over.";
  else st += turn === g.seat ? "Your turn." : `${g.names[turn]} to act.`;
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
  const hm = g.history_moves || [];
  $("history").innerHTML = g.history.map((h, i) => hm[i] ? `<li class="clk${viewMove === hm[i] ? " cur" : ""}" data-move="${hm[i]}" title="show the board before this move">${esc(h)}</li>` : `<li>${esc(h)}</li>`).join("");
  showEnding(g);
  const mine = g.seats[g.seat].hand || [];
  const legalTiles = new Set(g.legal.map((m) => m[0]));
  $("hand-tiles").innerHTML = "Your hand: " + mine.map((t) => `<button class="tile${selected === t ? " sel" : ""}" data-tile="${t}" aria-label="${t}"${legalTiles.has(t) ? "" : " disabled"}>${tileSvg(t, g.max_pip)}</button>`).join("");
  $("ends").innerHTML = selected && g.mode === "play" ? "Place " + selected + " on: " + g.legal.filter((m) => m[0] === selected).map((m) => `<button class="end" data-end="${m[1]}">${m[1]}</button>`).join("") : "";
  $("follow").hidden = g.mode !== "follow";
  $("solve").hidden = g.mode !== "play";
  $("against").parentElement.hidden = g.mode !== "play";
  $("export-script-box").hidden = g.mode !== "play";
  if (g.mode === "follow") {
    const fs = $("f-seat");
    if (fs.options.length !== g.players) fs.innerHTML = g.seats.map((s) => `<option value="${s.seat}">${esc(s.name)}</option>`).join("");
    $("f-tiles").innerHTML = g.ended ? "" : "Unseen: " + g.unseen.map((t) => `<button class="tile pick" data-tile="${t}" aria-label="${t}">${tileSvg(t, g.max_pip)}</button>`).join("");
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
function showEnding(g) {
  const box = $("ending"), e = g.ending;
  box.hidden = !e;
  if (!e) { box.innerHTML = ""; return; }
  box.innerHTML = `<div><b>${esc(e.sentence)}</b></div>` + "<div class='scroll'>" + table([["player"], ["points", 1], ["last hand"]],
    g.seats.map((s, i) => [esc(s.name) + (e.winner.includes(i) ? " ✓" : ""), e.totals[i],
      e.hands && e.hands[i] ? (e.hands[i].length ? tiles(e.hands[i], g.max_pip) : "out") : "not seen"]),
    (i) => `class="end-row" data-seat="${i}" data-points="${e.totals[i]}"`) + "</div>";
}
function view(move, svg) {   // the board before a move of the deal, beside the move list
  viewMove = move;
  $("board").innerHTML = svg;
  $("viewing").hidden = false;
  $("viewing-text").textContent = `The board before move ${move}.`;
  document.querySelectorAll("#history li").forEach((li) => li.classList.toggle("cur", +li.dataset.move === move));
}
function live() { viewMove = null; $("viewing").hidden = true; if (G) show(G); }
function showHint(j) { hintTable($("hint-out"), j); }
function showMoveHint(j) {
  const out = $("rv-hint");
  if (!out) return;
  if (j && j.finished && j.result && j.result.move !== cur) { out.innerHTML = ""; out.dataset.done = ""; return; }
  hintTable(out, j);
}
const CURRENCY = {win: "chance to win the deal", points: "expected points", margin: "expected margin"};
const pct = (x) => (100 * x).toFixed(1);
function hintTable(out, j) {
  if (!j || !j.finished || !j.result) { out.innerHTML = ""; out.dataset.done = ""; return; }
  const h = j.result, byWin = h.by === "win", loss = (x) => byWin ? pct(x) : f2(x);
  const how = h.asked === null ? ` (${h.stopped === "separated" ? "until the best move was separated" : h.stopped === "forced" ? "a forced move" : "the budget"}, as simdom analyze)` : "";
  const unit = byWin ? "percentage points of winning chances" : h.by === "margin" ? "points of margin" : "points";
  const head = byWin ? [["move"], ["win", 1], ["95% interval", 1], ["loss", 1], ["loss 95% interval", 1], ["points", 1], ["margin", 1]]
    : [["move"], ["expected points", 1], ["95% interval", 1], ["loss", 1], ["loss 95% interval", 1], ["margin", 1], ["win", 1]];
  const cells = (r) => byWin ? [r.move, pct(r.win) + "%", `${pct(r.win_lo)} to ${pct(r.win_hi)}`, loss(r.loss), `${loss(r.loss_lo)} to ${loss(r.loss_hi)}`, f2(r.points), f2(r.margin)]
    : [r.move, f2(r.points), `${f2(r.points_lo)} to ${f2(r.points_hi)}`, f2(r.loss), `${f2(r.loss_lo)} to ${f2(r.loss_hi)}`, f2(r.margin), pct(r.win) + "%"];
  out.innerHTML = `<div>Move ${h.move}, ${esc(G.names[h.seat])}: moves ranked by the ${CURRENCY[h.by]}, assuming ${esc(h.assumes)}; ` +
    `${h.rollouts} rollouts${how}, seed ${h.seed}. Loss against the best in ${unit}, with its 95% interval.</div>` +
    table(head, h.rows.map(cells),
      (i) => `class="hint-row" data-move="${h.rows[i].move}" data-points="${h.rows[i].points}" data-win="${h.rows[i].win}" data-loss="${h.rows[i].loss}"`);
  out.dataset.done = "1";
  out.dataset.key = `${h.asked === null ? "auto" : h.rollouts}/${h.seed}/${h.then}/${h.by}`;
}
function showSolve(j) {
  const out = $("solve-out");
  if (!j || !j.finished || !j.result) { out.innerHTML = ""; return; }
  const s = j.result;
  out.innerHTML = `<div>With every hand known, exact values by margin, assuming ${esc(s.assumes)} (${s.nodes.toLocaleString()} positions):</div>` +
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
  return `<svg id="graph" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="expected final margin over the deal">` +
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
  const r = j.result, names = r.names, byWin = r.by === "win";
  const val = (x) => byWin ? pct(x) + "%" : f2(x), err = (x) => byWin ? pct(x) : f2(x);
  const unit = byWin ? "percentage points of winning chances" : r.by === "margin" ? "points of margin" : "points";
  let h = `<p class="explain" id="rv-what">Each decision valued by the ${CURRENCY[r.by]} of the mover, assuming ${esc(r.assumes)}; ` +
    `the error is the best move's value minus the played move's, in ${unit}, with its 95% interval.</p>`;
  h += "<div class='scroll'>" + table([["move", 1], ["player"], ["played"], [byWin ? "win" : "value", 1], ["best"], ["error", 1], ["95% interval", 1], ["mark"]],
    r.decisions.map((d) => [d.move, esc(names[d.seat]), `${d.played.tile} ${d.played.end}`, val(d.played.value),
      d.best.tile + " " + d.best.end === d.played.tile + " " + d.played.end ? "" : `${d.best.tile} ${d.best.end}`,
      d.forced ? "forced" : err(d.error), d.forced ? "" : `${err(d.error_lo)} to ${err(d.error_hi)}`,
      d.mark ? `<span class="mark">${{blunder: "??", mistake: "?", inaccuracy: "?!"}[d.mark]} ${d.mark}</span>` : ""]),
    (i) => `class="rv-row clk" data-move="${r.decisions[i].move}" data-mark="${r.decisions[i].mark || ""}"`) + "</div>";
  h += "<h2>Luck</h2><p class='explain'>Each chance event (the deal, each draw) changed each player's expected final points by the figure shown: the points expected just after it minus just before it, the rest played by " + esc(r.then) + ". Points, not the margin: a deal rich in scoring can favour every seat at once.</p>" +
    "<div class='scroll'>" + table([["chance event"], ["move", 1]].concat(names.map((n) => [n + ": luck in points", 1])),
    r.luck.map((x) => [esc(x.event), x.move].concat(x.luck.map((v) => v === null ? "" : (v >= 0 ? "+" : "") + f2(v))))) + "</div>";
  h += "<h2>Expected final margin</h2>" + graph(r.graph);
  h += "<h2>Position</h2><div id='rv-detail' class='muted'>Click a move: the board shows the position before it.</div><button id='rv-hint-go' hidden>Hint at this move</button>" +
    "<div class='scroll' id='rv-hint'></div>";
  out.innerHTML = h;
  $("next-error").hidden = false;
  out.querySelectorAll(".rv-row").forEach((tr) => tr.addEventListener("click", () => pick(+tr.dataset.move)));
  $("rv-hint-go").addEventListener("click", () => post("hint", {move: cur, rollouts: $("rollouts").value.trim() === "" ? null : Number($("rollouts").value),
    seed: Number($("hint-seed").value), then: $("then").value.trim(), by: $("by").value}));
  cur = 0;
}
function pick(move) {
  const r = reviewShown; if (!r) return;
  cur = move;
  document.querySelectorAll(".rv-row").forEach((tr) => tr.classList.toggle("cur", +tr.dataset.move === move));
  if (r.boards[move - 1]) view(move, r.boards[move - 1]);
  $("rv-hint").innerHTML = ""; $("rv-hint").dataset.done = "";
  $("rv-hint-go").hidden = !r.decisions.some((x) => x.move === move);
  const d = r.decisions.find((x) => x.move === move);
  const v = (x) => r.by === "win" ? pct(x) + "% to win" : f2(x) + (r.by === "margin" ? " margin" : " points");
  const e = (x) => r.by === "win" ? pct(x) : f2(x);
  $("rv-detail").textContent = d ? `Move ${move} (${r.names[d.seat]}): played ${d.played.tile} ${d.played.end}, ${v(d.played.value)}; best ${d.best.tile} ${d.best.end}, ${v(d.best.value)}; error ${e(d.error)} (${e(d.error_lo)} to ${e(d.error_hi)})${d.mark ? ", " + d.mark : ""}.` : `Move ${move}: not a decision of yours.`;
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
      overrides: $("overrides").value, seat: Number($("seat").value), seed: Number($("seed").value), names: $("names").value,
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
  $("history").addEventListener("click", async (e) => {
    const li = e.target.closest("li.clk"); if (!li) return;
    const b = await api(`/api/game/${gid}/board/${li.dataset.move}`);
    if (b) view(b.move, b.board);
  });
  $("live").addEventListener("click", live);
  $("f-tiles").addEventListener("click", (e) => {
    const b = e.target.closest("button.pick"); if (!b) return;
    $("f-tile").value = b.dataset.tile;
    if ($("f-act").value !== "play") $("f-act").value = "play";
  });
  $("ends").addEventListener("click", (e) => { const b = e.target.closest("button.end"); if (b && selected) move(selected, b.dataset.end); });
  $("f-go").addEventListener("click", () => follow(false));
  $("undo").addEventListener("click", () => post("undo"));
  $("next-deal").addEventListener("click", () => { reviewShown = null; post("next"); });
  $("nf-go").addEventListener("click", () => { reviewShown = null;
    post("next", {hand: $("nf-hand").value, first: Number($("nf-first").value), scores: $("nf-scores").value}); });
  const rollouts = () => $("rollouts").value.trim() === "" ? null : Number($("rollouts").value);
  $("hint").addEventListener("click", () => post("hint", {rollouts: rollouts(), seed: Number($("hint-seed").value), then: $("then").value.trim(), by: $("by").value}));
  $("solve").addEventListener("click", () => post("solve", {against: $("against").value}));
  $("review").addEventListener("click", () => post("review", {rollouts: Number($("rv-rollouts").value), luck_rollouts: Number($("rv-luck").value),
    then: $("then").value.trim(), by: $("by").value}));
  $("next-error").addEventListener("click", () => {
    const r = reviewShown; if (!r) return;
    const nxt = r.decisions.find((d) => d.mark && d.move > cur) || r.decisions.find((d) => d.mark);
    if (nxt) pick(nxt.move); else msg("no marked error in this deal", "info");
  });
  const tut = () => post("tutor", {threshold: tutorValue(), by: $("by").value});
  $("by").addEventListener("change", () => { $("tutor-unit").textContent = {win: "percentage points of winning chances", points: "points", margin: "points of margin"}[$("by").value]; if ($("tutor-on").checked) tut(); });
  $("tutor-on").addEventListener("change", tut);
  $("tutor-threshold").addEventListener("change", () => { if ($("tutor-on").checked) tut(); });
  // leaving or reloading the page cancels the game's unfinished work (a hint, the solver, a review)
  window.addEventListener("pagehide", () => fetch(`/api/game/${gid}/cancel`, {method: "POST", keepalive: true,
    headers: {"content-type": "application/json", "x-simdom-token": TOKEN}, body: "{}"}));
  refresh();
}
if (gid) wire(); else setup();
