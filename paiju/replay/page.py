"""The replay page's inline stylesheet, script and skeleton (no network: nothing is loaded
from anywhere; the data comes in a ``<script type="application/json">``).

The script rebuilds each step's table by merging the step's delta into the previous
state (objects merge key by key, an object merged into an array merges by index, anything
else replaces; null means absent) and draws it with DOM calls only (``textContent``, never
HTML from data)."""

CSS = r"""
/* Local fonts only (the page loads nothing): Latin first, then the CJK families of each
   platform so Chinese never falls back to boxes, then symbol fonts for the suits. */
:root { --felt: #1f5f3f; --felt-dark: #164a30; --ink: #1d1d1f; --red: #c8102e; --gold: #e0a800;
        --trump: #2b6cb0; --panel: #f6f4ee; --line: #d6d2c4; --ruling: #b00020; --irregular: #d9730d;
        --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC",
                "Source Han Sans SC", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei",
                "WenQuanYi Micro Hei", "Segoe UI Symbol", "Noto Sans Symbols2", sans-serif;
        --mono: ui-monospace, "SFMono-Regular", Menlo, Consolas, "Noto Sans Mono CJK SC",
                "PingFang SC", "Microsoft YaHei", monospace;
        --card-w: 30px; --card-h: 42px; --fan: 10px; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; font: 14px/1.35 var(--sans); color: var(--ink); background: #e9e6dc;
       overflow-wrap: anywhere; }
header { padding: 8px 14px; background: #2b2b2b; color: #f0f0f0; display: flex; gap: 4px 16px;
         align-items: baseline; flex-wrap: wrap; }
header h1 { font-size: 16px; margin: 0; }
header .meta { color: #bdbdbd; font-size: 12px; min-width: 0; }
#log-warning { margin: 0; padding: 6px 14px; background: #fde8e8; color: #8a1c1c; border-bottom: 1px solid #e3a5a5;
               font-weight: 600; }
/* The step controls stay at the top of the window however far the page is scrolled. */
#controls { position: sticky; top: 0; z-index: 10; display: flex; flex-wrap: wrap; gap: 4px 10px;
            align-items: center; padding: 6px 14px; background: var(--panel); border-bottom: 1px solid var(--line);
            box-shadow: 0 2px 4px rgba(0,0,0,.12); }
#buttons { display: flex; flex-wrap: wrap; gap: 4px; min-width: 0; }
#where { display: flex; flex: 1 1 320px; gap: 4px 10px; align-items: center; flex-wrap: wrap; min-width: 0; }
#controls button { font: inherit; padding: 3px 9px; border: 1px solid #aaa; border-radius: 4px;
                   background: #fff; cursor: pointer; white-space: nowrap; flex: none; }
#controls button:hover { background: #f0f7ff; }
#controls button.jump-irregular { border-color: var(--irregular); color: var(--irregular); }
#controls button.jump-ruling { border-color: var(--ruling); color: var(--ruling); }
#scrub { flex: 1 1 160px; min-width: 100px; margin: 0; }
#pos { font-variant-numeric: tabular-nums; color: #555; }
#status { color: var(--ruling); }
main { display: grid; grid-template-columns: minmax(0, 1fr); gap: 10px; padding: 10px 14px; align-items: start; }
#table { background: radial-gradient(ellipse at center, var(--felt) 55%, var(--felt-dark) 100%);
         border-radius: 18px; padding: 10px; color: #f5f5f5; display: grid; min-width: 0;
         grid-template-columns: minmax(0, 1fr) minmax(0, 1.25fr) minmax(0, 1fr);
         grid-template-areas: "info info info" "tribute tribute tribute" ". north ." "west center east"
                              ". south ." "event event event" "legend legend legend";
         gap: 8px; }
#table > * { min-width: 0; }
#info { grid-area: info; display: flex; flex-wrap: wrap; gap: 6px 14px; font-size: 13px; }
#info .tag { background: rgba(0,0,0,.28); padding: 2px 8px; border-radius: 10px; }
#info .tag b { color: #ffe9a8; }
.seat { background: rgba(0,0,0,.22); border-radius: 10px; padding: 6px 8px; min-height: 80px; }
.seat.pos-north { grid-area: north; } .seat.pos-south { grid-area: south; }
.seat.pos-west { grid-area: west; align-self: center; } .seat.pos-east { grid-area: east; align-self: center; }
.seat.viewer { outline: 2px solid #ffe9a8; }
.seat-head { display: flex; flex-wrap: wrap; gap: 4px 8px; align-items: baseline; margin-bottom: 4px; }
.seat-name { font-weight: 600; }
.badge { font-size: 11px; padding: 1px 6px; border-radius: 8px; background: rgba(255,255,255,.18); }
.badge.flag { background: #f1c40f; color: #222; }
.badge.role { background: #ffe9a8; color: #222; }
.badge.count { background: rgba(0,0,0,.35); }
.hand { display: flex; flex-wrap: wrap; gap: 4px 8px; }
/* A fanned group: each card covers the one before it but its left strip (--card-w minus
   --fan) with the rank and suit in the corner; the group's padding undoes the first card's
   overlap, so a group that wraps onto a second line overlaps the same way. */
.group, .played { display: inline-flex; flex-wrap: wrap; row-gap: 3px; padding-left: var(--fan); max-width: 100%; }
.group .card, .played .card { margin-left: calc(-1 * var(--fan)); }
.zone { margin-top: 4px; font-size: 12px; display: flex; align-items: center; gap: 4px; flex-wrap: wrap; }
.hidden-hand { font-style: italic; color: #d9e8dd; }
.card { display: inline-flex; flex-direction: column; align-items: flex-start; justify-content: flex-start;
        width: var(--card-w); height: var(--card-h); padding: 2px 0 0 2px; background: #fff; color: #111;
        border-radius: 5px; border: 1px solid #8a8a8a; box-shadow: 1px 1px 2px rgba(0,0,0,.35); font-weight: 700;
        line-height: 1; user-select: none; position: relative; flex: none; vertical-align: middle; }
.card .rank { font-size: 13px; letter-spacing: -1px; white-space: nowrap; }
.card .suit { font-size: 13px; margin-top: 1px; }
.card.red { color: var(--red); }
.card.joker .rank, .card.joker .suit { font-size: 12px; letter-spacing: 0; }
.card.level { background: #fff3c4; border-top: 3px solid var(--gold); padding-top: 0; }
.card.trump { background: #e3eefc; }
.card.trump.level { background: #fff3c4; }
.card.wild { box-shadow: 0 0 0 2px var(--gold), 1px 1px 2px rgba(0,0,0,.35); }
.card.exposed { box-shadow: 0 0 0 2px var(--irregular); }
.card.penalty { box-shadow: 0 0 0 2px var(--ruling); }
.card.pending { opacity: .85; transform: rotate(-4deg); }
#center { grid-area: center; background: rgba(0,0,0,.16); border-radius: 12px; padding: 6px;
          display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
          grid-template-rows: auto auto auto auto auto 1fr;
          grid-template-areas: "title title" "n n" "w e" "mid mid" "s s" "seqlist seqlist";
          gap: 4px; align-items: center; justify-items: center; min-height: 230px; }
#center > * { min-width: 0; max-width: 100%; }
.slot { min-height: 46px; display: flex; gap: 2px; align-items: center; padding: 2px; border-radius: 6px; }
.slot.top { background: rgba(255, 233, 168, .28); outline: 1px solid #ffe9a8; }
.slot .pass { color: #d0e4d6; font-style: italic; }
.slot-n { grid-area: n; } .slot-s { grid-area: s; }
.slot-w { grid-area: w; justify-self: start; } .slot-e { grid-area: e; justify-self: end; }
#pile-title { grid-area: title; font-weight: 600; text-align: center; }
#pile-title .note { font-weight: 400; color: #ffe9a8; margin-left: 6px; }
#pile-mid { grid-area: mid; color: #cfe3d5; font-size: 12px; text-align: center; max-width: 220px; }
#seqlist { grid-area: seqlist; width: 100%; font-size: 12px; max-height: 130px; overflow: auto;
           background: rgba(0,0,0,.15); border-radius: 6px; padding: 3px 6px; }
#seqlist .row.top { color: #ffe9a8; }
#event { grid-area: event; background: rgba(0,0,0,.3); border-radius: 8px; padding: 6px 10px; font-size: 15px; }
#event.ev-ruling { background: rgba(176, 0, 32, .8); } #event.ev-irregular { background: rgba(217, 115, 13, .85); }
#tribute { grid-area: tribute; display: flex; flex-wrap: wrap; gap: 6px 16px; align-items: center;
           background: rgba(0,0,0,.28); border: 1px solid rgba(255, 233, 168, .5); border-radius: 8px;
           padding: 5px 10px; font-size: 13px; }
#tribute[hidden] { display: none; }
#tribute .tribute-head { font-weight: 700; color: #ffe9a8; }
#tribute .payment { display: inline-flex; align-items: center; gap: 5px; flex-wrap: wrap; }
#tribute .waiting { color: #cfe3d5; font-style: italic; }
#legend { grid-area: legend; display: flex; flex-wrap: wrap; gap: 6px 16px; align-items: center; font-size: 12px;
          color: #e4efe7; border-top: 1px solid rgba(255,255,255,.18); padding-top: 6px; }
#legend .item { display: inline-flex; align-items: center; gap: 5px; }
#legend .samples { display: inline-flex; gap: 2px; }
#legend .card { --card-w: 24px; --card-h: 32px; }
aside { display: flex; flex-direction: column; gap: 10px; min-width: 0; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 8px 10px; min-width: 0; }
.panel h2 { font-size: 13px; margin: 0 0 6px; text-transform: uppercase; letter-spacing: .04em; color: #555; }
.ruling { border-left: 4px solid var(--ruling); padding: 4px 8px; margin-bottom: 8px; background: #fff; }
.ruling.current { background: #fff0f0; }
.ruling.unresolved { border-left-color: var(--irregular); }
.clause-id { font: 700 15px var(--mono); color: var(--ruling); }
.clause-title { font-weight: 600; margin-left: 6px; }
.clause-zh { margin: 4px 0; font-size: 14px; }
.clause-en { margin: 4px 0; color: #333; }
.ruling ul { margin: 2px 0 2px 18px; padding: 0; font-size: 12px; }
.ruling .meta { font-size: 12px; color: #555; }
#notes div { font-size: 12px; }
#ruling-list { max-height: 46vh; overflow: auto; }
#timeline { position: relative; height: 420px; max-height: 60vh; overflow: auto; font-size: 12px; background: #fff;
            border: 1px solid var(--line); border-radius: 6px; }
.tl-row { padding: 1px 6px; cursor: pointer; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.tl-row:hover { background: #eef5ff; }
.tl-row.current { background: #2b6cb0; color: #fff; }
.tl-row.tl-ruling { color: var(--ruling); font-weight: 600; } .tl-row.tl-irregular { color: var(--irregular); font-weight: 600; }
.tl-row.current.tl-ruling, .tl-row.current.tl-irregular { color: #fff; }
.tl-label { display: inline-block; min-width: 4.5em; color: #888; font-variant-numeric: tabular-nums; }
.tl-row.current .tl-label { color: #dbe8ff; }
.tl-deal { padding: 3px 6px; background: #ece8dc; font-weight: 600; position: sticky; top: 0; }
.help { font-size: 11px; color: #666; }
.red-text { color: var(--red); }

/* Wide screens: the table and the side panels side by side. */
@media (min-width: 1240px) {
  main { grid-template-columns: minmax(0, 1fr) minmax(340px, 420px); }
  #table { min-height: 600px; grid-template-rows: auto auto auto 1fr auto auto auto; }
}
/* Phones and narrow windows: one column, the seats one under another, the step buttons in
   one row that scrolls sideways (inside the toolbar, never the page). */
@media (max-width: 720px) {
  header, #controls, main { padding-left: 8px; padding-right: 8px; }
  #buttons { flex-wrap: nowrap; overflow-x: auto; width: 100%; padding-bottom: 2px; }
  #controls button { padding: 3px 7px; }
  #table { grid-template-columns: minmax(0, 1fr); border-radius: 12px; padding: 8px;
           grid-template-areas: "info" "event" "tribute" "north" "west" "east" "center" "south" "legend"; }
  .seat.pos-west, .seat.pos-east { align-self: stretch; }
  #center { min-height: 0; }
  #timeline { height: 300px; }
}
"""

JS = r"""
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("replay-data").textContent);
  // A page made with the steps in Chinese shows them first; its address's ?lang=en the English.
  var ZH = DATA.chinese && !/[?&]lang=en(&|$)/.test(location.search);
  function said(f) { return ZH && f.z ? f.z : f.t; }
  function L(en, zh) { return ZH ? zh : en; }      // the page's own words, Chinese first when ZH
  function seatName(seat) { return ZH ? seat + "\u53f7\u4f4d" : "seat " + seat; }   // 号位
  function zhHead(text) {                           // '三带二 full house T' → '三带二 T' (ZH only)
    if (!ZH || !text) return text;
    var m = /^([\u3400-\u9fff（）]+)\s+[a-z][a-z ]*?\s*([0-9TJQKA×x\u2660\u2665\u2663\u2666\u5927\u5c0f\u738b]*)$/.exec(text);
    return m ? (m[1] + (m[2] ? " " + m[2] : "")) : text;
  }
  function zhOnly(text) {                           // a bilingual view text's Chinese alone ('' if it has none), when ZH
    if (!ZH || !text) return text;
    var runs = String(text).match(/[^\sA-Za-z'():;,.]*[\u3400-\u9fff][^\sA-Za-z'():;,.]*/g);
    return runs ? runs.join(" ") : "";
  }
  var ZW = {};                                      // this frame's texts in Chinese, by their English (the view's zh)
  function Z(text) { return ZH && text ? (ZW[text] || text) : text; }   // a view text, Chinese first when ZH: never dropped
  function playZh(x) {                              // a play's words in the pile ('三带二 full house T', 'leads')
    if (!ZH || !x) return x;
    if (ZW[x]) return ZW[x];
    if (x === "leads") return "\u9996\u51fa";
    var head = zhHead(x);
    return head !== x ? head : zhOnly(x);
  }
  function pileTitleZh(text) {                      // 'round 16, led by seat 0' → '第 16 圈，0号位领出'
    var m = /^(round|trick) (\d+)(?:, led by seat (\d))?/.exec(text || "");
    if (!m) return zhOnly(text);
    return "\u7b2c " + m[2] + (m[1] === "round" ? " \u5708" : " \u58a9") + (m[3] ? "\uff0c" + seatName(m[3]) + "\u9886\u51fa" : "");
  }
  var PHASE_ZH = { "set-up": "\u51c6\u5907", draw: "\u6293\u724c", declare: "\u4eae\u4e3b", kitty: "\u6263\u5e95",
                   tribute: "\u8fdb\u8d21", "return": "\u8fd8\u8d21", play: "\u51fa\u724c", scored: "\u7ed3\u675f",
                   over: "\u7ed3\u675f" };
  var BUTTONS_ZH = { "prev-deal": "\u25c0\u25c0 \u4e0a\u4e00\u526f", "prev-round": "\u25c0 \u4e0a\u4e00\u5708",
                     prev: "\u25c0 \u4e0a\u4e00\u6b65", next: "\u4e0b\u4e00\u6b65 \u25b6",
                     "next-round": "\u4e0b\u4e00\u5708 \u25b6", "next-deal": "\u4e0b\u4e00\u526f \u25b6\u25b6",
                     "next-irregular": "\u4e0b\u4e00\u4e2a\u8fdd\u4f8b \u2691", "next-ruling": "\u4e0b\u4e00\u4e2a\u88c1\u51b3 \u00a7" };
  function relabel() {                              // the skeleton's words, when ZH
    if (!ZH) return;
    document.documentElement.lang = "zh-Hans";
    Object.keys(BUTTONS_ZH).forEach(function (id) { var b = $(id); if (b) { b.textContent = BUTTONS_ZH[id]; b.title = BUTTONS_ZH[id]; } });
    ["first", "last", "prev-irregular", "prev-ruling"].forEach(function (id) { var b = $(id); if (b) b.title = ""; });
    var heads = document.querySelectorAll("aside h2");
    ["\u88c1\u51b3", "\u672c\u526f\u724c", "\u6b65\u9aa4"].forEach(function (t, k) { if (heads[k]) heads[k].textContent = t; });
    var h1 = document.querySelector("header h1");
    if (h1) h1.textContent = DATA.gameName + " \u724c\u5c40\u56de\u653e";
    var meta = document.querySelector("header .meta");
    if (meta) meta.textContent = "\u5171 " + N + " \u6b65";
    var help = document.querySelector("aside .help");
    if (help) help.textContent = "\u6309\u952e\uff1a\u2190 \u2192 \u4e00\u6b65 \u00b7 PgUp PgDn \u4e00\u526f \u00b7 i / I \u8fdd\u4f8b \u00b7 r / R \u88c1\u51b3";
  }
  var frames = DATA.frames, N = frames.length;
  var SUIT = { S: "\u2660", H: "\u2665", C: "\u2663", D: "\u2666" };
  var POS = ["south", "east", "north", "west"];
  var REL = ["", "\u4e0b\u5bb6", "\u5bf9\u5bb6", "\u4e0a\u5bb6"];   // 下家 对家 上家
  var ROUND_END = { "gd.round_over": 1, "sj.trick_won": 1 };

  function merge(t, d) {
    if (d === null || typeof d !== "object" || Array.isArray(d) || t === null || typeof t !== "object") return d;
    var out = Array.isArray(t) ? t.slice() : Object.assign({}, t);
    Object.keys(d).forEach(function (k) { out[k] = merge(out[k], d[k]); });
    return out;
  }
  var states = new Array(N), s = {};
  for (var i = 0; i < N; i++) { s = merge(s, frames[i].x); states[i] = s; }

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); return e; }
  function codes(text) { return text ? text.split(" ") : []; }

  function cardEl(code, st, extra) {
    // The rank and the suit sit in the top-left corner, the strip a fanned card leaves showing.
    var e = el("span", "card");
    e.setAttribute("data-card", code);
    if (code === "BJ" || code === "RJ") {
      e.classList.add("joker", code === "RJ" ? "red" : "black");
      e.appendChild(el("span", "rank", code === "RJ" ? "\u5927" : "\u5c0f"));
      e.appendChild(el("span", "suit", "\u738b"));
      e.title = code === "RJ" ? "big joker \u5927\u738b" : "small joker \u5c0f\u738b";
    } else {
      var suit = code.charAt(0), rank = code.charAt(1);
      if (suit === "H" || suit === "D") e.classList.add("red");
      e.appendChild(el("span", "rank", rank === "T" ? "10" : rank));
      e.appendChild(el("span", "suit", SUIT[suit]));
      e.title = code;
      if (st && st.trump && st.trump === suit) e.classList.add("trump");
      if (st && st.level === rank) {
        e.classList.add("level");
        if (DATA.wildSuit && suit === DATA.wildSuit) { e.classList.add("wild"); e.title = code + " wild \u9022\u4eba\u914d"; }
      }
    }
    if (extra) e.classList.add(extra);
    return e;
  }
  function cardsEl(text, st, extra, cls) {
    var box = el("span", cls || "group");
    codes(text).forEach(function (c) { box.appendChild(cardEl(c, st, extra)); });
    return box;
  }
  function colourText(e, text) {          // suit symbols of hearts and diamonds in red
    clear(e);
    String(text).split(/([\u2665\u2666][0-9TJQKA]+|\u5927\u738b)/).forEach(function (part, k) {
      if (!part) return;
      if (k % 2) e.appendChild(el("span", "red-text", part)); else e.appendChild(document.createTextNode(part));
    });
    return e;
  }

  var cur = 0, bottom = DATA.viewer === null ? 0 : DATA.viewer;
  function posOf(seat) { return POS[(seat - bottom + 4) % 4]; }

  function drawInfo(st) {
    var info = clear($("info"));
    function tag(label, value) {
      var t = el("span", "tag"); t.appendChild(document.createTextNode(label + " "));
      t.appendChild(el("b", null, value)); info.appendChild(t); return t;
    }
    tag(DATA.gameName, DATA.unitName === "match" && st.unit !== null && st.unit !== undefined ? L("match ", "\u7b2c ") + st.unit + L("", " \u573a") : "");
    if (st.deal) tag(L("deal", "\u526f"), st.deal);
    if (st.level) tag(L("level \u7ea7", "\u7ea7"), st.level === "T" ? "10" : st.level);
    if (st.levels) tag(L("teams", "\u5404\u65b9"), "0: " + st.levels[0] + "  1: " + st.levels[1]);
    if (st.trump) tag(L("trump \u4e3b", "\u4e3b"), st.trump === "NT" ? L("no trump \u65e0\u4e3b", "\u65e0\u4e3b") : SUIT[st.trump]).classList.add("trump");
    if (st.banker !== null && st.banker !== undefined) tag(L("banker \u5e84", "\u5e84"), seatName(st.banker));
    if (st.points !== null && st.points !== undefined) tag(L("attackers", "\u95f2\u5bb6\u5f97\u5206"), st.points + L(" pts", ""));
    tag(L("phase", "\u9636\u6bb5"), ZH ? (PHASE_ZH[st.phase] || st.phase) : st.phase);
    if (DATA.viewer !== null) tag(L("view of", "\u89c6\u89d2"), seatName(DATA.viewer));
  }

  function drawSeat(st, seat) {
    var info = st.seats[seat], box = $("seat-" + seat);
    box.className = "seat pos-" + posOf(seat) + (DATA.viewer === seat ? " viewer" : "");
    clear(box);
    var head = el("div", "seat-head");
    var name = ZH ? seatName(seat) + (DATA.viewer === null ? "" : " \u00b7 " + (seat === DATA.viewer ? "\u4f60" : REL[(seat - DATA.viewer + 4) % 4]))
                    + " \u00b7 " + (seat % 2) + "\u65b9"
      : "seat " + seat + " \u00b7 " + (DATA.viewer === null ? POS[seat].charAt(0).toUpperCase() + POS[seat].slice(1)
              : (seat === DATA.viewer ? "you" : REL[(seat - DATA.viewer + 4) % 4])) + " \u00b7 team " + (seat % 2);
    head.appendChild(el("span", "seat-name", name));
    if (info.role) head.appendChild(el("span", "badge role", Z(info.role)));
    if (info.count !== null && info.count !== undefined) head.appendChild(el("span", "badge count", info.count + L(" cards", " \u5f20")));
    if (info.announced !== null && info.announced !== undefined && info.announced > 0)
      head.appendChild(el("span", "badge count", "\u62a5 " + info.announced));
    (info.flags || []).forEach(function (f) { head.appendChild(el("span", "badge flag", Z(f))); });
    box.appendChild(head);
    var hand = el("div", "hand");
    if (info.hand === null || info.hand === undefined) {
      hand.appendChild(el("span", "hidden-hand", ZH ? "\u4e0d\u53ef\u89c1" + (info.announced ? "\uff08\u62a5 " + info.announced + "\uff09" : "")
                                                    : info.announced ? "hidden (" + info.announced + " announced)" : "hidden"));
    } else {
      info.hand.forEach(function (g) { var grp = cardsEl(g[1], st); grp.title = g[0]; hand.appendChild(grp); });
    }
    box.appendChild(hand);
    [["exposed", L("exposed \u66b4\u9732\u5f20", "\u66b4\u9732\u5f20"), "exposed"], ["penalty", L("penalty \u7f5a\u5f20", "\u7f5a\u5f20"), "penalty"],
     ["on_table", L("on the table", "\u684c\u9762\u5f85\u5904\u7406"), "pending"]].forEach(function (z) {
      if (!info[z[0]]) return;
      var zone = el("div", "zone zone-" + z[0]);
      zone.appendChild(el("span", null, z[1] + ":"));
      zone.appendChild(cardsEl(info[z[0]], st, z[2]));
      box.appendChild(zone);
    });
  }

  function drawPile(st) {
    var pile = st.pile || { plays: [] }, title = clear($("pile-title"));
    title.appendChild(document.createTextNode(ZH ? (ZW[pile.title] || pileTitleZh(pile.title)) : (pile.title || "")));
    if (pile.note) title.appendChild(el("span", "note", Z(pile.note)));
    var latest = {}, topIndex = -1;
    pile.plays.forEach(function (p, k) { latest[p[0]] = k; if (p[1] !== null && p[0] === pile.winner) topIndex = k; });
    ["north", "south", "west", "east"].forEach(function (pos) { clear($("slot-" + pos)).className = "slot slot-" + pos.charAt(0); });
    Object.keys(latest).forEach(function (seat) {
      var k = latest[seat], p = pile.plays[k], slot = $("slot-" + posOf(Number(seat)));
      if (p[1] === null) slot.appendChild(el("span", "pass", seatName(seat) + ": " + (ZH ? Z(p[2] || "\u4e0d\u51fa") : (p[2] || "pass"))));
      else { slot.appendChild(cardsEl(p[1], st, null, "played")); slot.title = seatName(seat) + " " + playZh(p[2]); }
      if (k === topIndex && p[1] !== null) slot.classList.add("top");
    });
    var mid = clear($("pile-mid"));
    if (topIndex >= 0) {
      var top = pile.plays[topIndex];
      mid.textContent = ZH ? (pile.done ? "\u672c\u5708\u5927\u724c\uff1a" : "\u5f53\u524d\u5927\u724c\uff1a") + seatName(top[0]) + (top[2] && top[2] !== "leads" ? " \u00b7 " + playZh(top[2]) : "")
        : (pile.done ? "won by seat " : "winning: seat ") + top[0] + (top[2] && top[2] !== "leads" ? " \u00b7 " + top[2] : "");
    }
    var list = clear($("seqlist"));
    pile.plays.forEach(function (p, k) {
      var row = el("div", "row" + (k === topIndex ? " top" : ""));
      colourText(row, seatName(p[0]) + ": " + (p[1] === null ? (ZH ? Z(p[2] || "\u4e0d\u51fa") : (p[2] || "pass")) : p[1].split(" ").map(txt).join(" ") + (p[2] && playZh(p[2]) ? "  (" + playZh(p[2]) + ")" : "")));
      list.appendChild(row);
    });
    if (st.last && st.last.plays && st.last.plays.length) {
      var last = el("div", "row");
      colourText(last, L("previous: " + st.last.title, "\u4e0a\u4e00\u5708") + " \u2014 " + st.last.plays.filter(function (p) { return p[1] !== null; })
        .map(function (p) { return seatName(p[0]) + " " + p[1].split(" ").map(txt).join(" "); }).join(" | ") + (st.last.note ? L(" (" + st.last.note + ")", "\uff08" + Z(st.last.note) + "\uff09") : ""));
      last.style.opacity = ".75";
      list.appendChild(last);
    }
  }
  function txt(code) {
    if (code === "BJ") return "\u5c0f\u738b"; if (code === "RJ") return "\u5927\u738b";
    return SUIT[code.charAt(0)] + code.charAt(1);
  }

  function drawRulings(st, frame) {
    var box = clear($("ruling-list"));
    var rulings = (st.rulings || []).slice().reverse();
    if (!rulings.length) { box.appendChild(el("div", "help", L("no ruling in this deal so far", "\u672c\u526f\u724c\u5c1a\u65e0\u88c1\u51b3"))); return; }
    rulings.forEach(function (r) {
      var text = DATA.clauses[r.clause] || { title: "", text_zh: "", summary: "" };
      var rz = ZH && DATA.rulingsZh ? DATA.rulingsZh[r.seq + " " + r.clause] : null;
      if (rz) { box.appendChild(rulingZh(r, rz, text, frame)); return; }
      var card = rulingCard(r, frame, r.clause, text.title);
      var who = r.offender !== null && r.offender !== undefined ? "seat " + r.offender : "the table";
      card.appendChild(el("div", "meta", (r.kind === "unresolved" ? "unresolved " + r.irregularity + " \u2014 fallback; " : "ruling on ") + who +
        (r.answers !== null && r.answers !== undefined && r.answers >= 0 ? " (answers seq " + r.answers + ")" : "") + " \u00b7 seq " + r.seq));
      var zh = el("div", "clause-zh", text.text_zh); zh.setAttribute("lang", "zh-Hans"); card.appendChild(zh);
      card.appendChild(el("div", "clause-en", text.summary));
      if (r.said && r.said !== text.summary) card.appendChild(el("div", "meta", r.said));
      if (r.facts) card.appendChild(el("div", "meta", "facts \u4e8b\u5b9e: " + r.facts));
      [["rectification \u7ea0\u6b63", r.rectification], ["sanctions \u5904\u7f5a", r.sanctions]].forEach(function (part) {
        if (!part[1] || !part[1].length) return;
        card.appendChild(el("div", "meta", part[0] + ":"));
        var ul = el("ul"); part[1].forEach(function (x) { ul.appendChild(el("li", null, x)); }); card.appendChild(ul);
      });
      box.appendChild(card);
    });
  }

  function rulingCard(r, frame, id, title) {  // a ruling's card with its head: the clause's id and title
    var card = el("div", "ruling" + (r.kind === "unresolved" ? " unresolved" : "") + (frame.g === "ruling" && r.seq === frame.q ? " current" : ""));
    card.setAttribute("data-clause", r.clause);
    var head = el("div");
    head.appendChild(el("span", "clause-id", id));
    head.appendChild(el("span", "clause-title", title));
    card.appendChild(head);
    return card;
  }

  function rulingZh(r, rz, text, frame) {  // a ruling's card in Chinese alone: the seed's words and the referee's terms
    var card = rulingCard(r, frame, rz.number, r.clause);
    card.appendChild(el("div", "meta", (r.kind === "unresolved" ? "\u65e0\u6761\u6b3e\u53ef\u4f9d\uff1a" : "\u8fdd\u89c4\u65b9 ") + rz.who
      + (rz.irregularity ? "\u300c" + rz.irregularity + "\u300d" : "") + " \u00b7 #" + r.seq));
    var zh = el("div", "clause-zh", text.text_zh); zh.setAttribute("lang", "zh-Hans"); card.appendChild(zh);
    if (rz.facts) card.appendChild(el("div", "meta facts", "\u4e8b\u5b9e\uff1a" + rz.facts));   // 事实：the same items as 'facts'
    [["\u7ea0\u6b63\u63aa\u65bd", rz.rectification], ["\u5904\u7f5a", rz.sanctions]].forEach(function (part) {
      card.appendChild(el("div", "meta", part[0] + "\uff1a" + (part[1].length ? "" : "\u65e0")));
      if (!part[1].length) return;
      var ul = el("ul"); part[1].forEach(function (x) { ul.appendChild(el("li", null, x)); }); card.appendChild(ul);
    });
    return card;
  }

  function drawNotes(st) {
    var box = clear($("notes-list"));
    (st.notes || []).forEach(function (n) { box.appendChild(colourText(el("div"), Z(n))); });
    if (st.kitty) {
      var k = el("div", "zone");
      k.appendChild(el("span", null, ZH ? "\u5e95\u724c\uff08" + st.kitty.count + " \u5f20" + (st.kitty.note ? "\uff0c" + Z(st.kitty.note) : "") + "\uff09\uff1a"
                                          : "kitty \u5e95\u724c (" + st.kitty.count + (st.kitty.note ? ", " + st.kitty.note : "") + "):"));
      if (st.kitty.cards) k.appendChild(cardsEl(st.kitty.cards, st)); else k.appendChild(el("span", "help", "face down"));
      box.appendChild(k);
    }
    if (st.finish && st.finish.length) box.appendChild(el("div", null, L("finishing order: ", "\u540d\u6b21\uff1a") + st.finish.join(" ")));
    if (st.result) box.appendChild(el("div", null, L("result: ", "\u7ed3\u679c\uff1a") + Z(st.result))).style.fontWeight = "600";
    (st.match || []).forEach(function (n) { box.appendChild(el("div", "help", Z(n))); });
  }

  function rankText(rank) { return rank === "T" ? "10" : rank; }

  var LEGEND_ZH = {                       // the card marks' words in Chinese (the game's legend says them in English too)
    "guandan level": "\u7ea7\u724c {level}\uff1a\u5927\u4e8e A\uff0c\u5c0f\u4e8e\u5927\u5c0f\u738b",
    "guandan wild": "\u9022\u4eba\u914d {card}\uff1a\u53ef\u4ee3\u66ff\u9664\u5927\u5c0f\u738b\u4ee5\u5916\u7684\u4efb\u4f55\u724c",
    "guandan joker": "\u5927\u738b \u5c0f\u738b\uff1a\u6700\u5927\u7684\u5355\u5f20",
    "shengji level": "\u7ea7\u724c {level}\uff1a\u4e3b\u724c\uff0c\u5927\u4e8e\u4e3b\u82b1\u8272\u7684 A",
    "shengji trump": "\u4e3b {suit}\uff1a\u4e0e\u7ea7\u724c\u3001\u5927\u5c0f\u738b\u540c\u4e3a\u4e3b\u724c",
    "shengji joker": "\u5927\u738b \u5c0f\u738b\uff1a\u6700\u5927\u7684\u4e3b\u724c" };
  function drawLegend(st) {              // the game's card marks (its paiju part), filled in for this deal
    var box = clear($("legend"));
    var level = st.level || null, trump = st.trump && SUIT[st.trump] ? st.trump : null;
    var plain = ["S", "C", "D", "H"].filter(function (x) { return x !== DATA.wildSuit && x !== trump; })[0];
    function item(samples, text, mark) {
      var it = el("span", "item");
      it.setAttribute("data-mark", mark);
      var row = el("span", "samples");
      samples.forEach(function (c) { row.appendChild(cardEl(c[0], st, c[1])); });
      if (samples.length) it.appendChild(row);
      it.appendChild(colourText(el("span"), text));
      box.appendChild(it);
    }
    DATA.legend.forEach(function (m) {
      var mark = m[0], text = ZH && LEGEND_ZH[DATA.game + " " + m[0]] || m[1];
      if (mark === "level") {
        if (!level) return;
        item([[plain + level]], text.replace("{level}", rankText(level)), mark);
      } else if (mark === "wild") {
        if (!level || !DATA.wildSuit) return;
        item([[DATA.wildSuit + level]], text.replace("{card}", SUIT[DATA.wildSuit] + rankText(level)), mark);
      } else if (mark === "trump") {
        if (st.trump === "NT") item([], L("\u65e0\u4e3b no trump suit this deal: only the level cards and jokers are trumps",
                                          "\u65e0\u4e3b\uff1a\u672c\u526f\u53ea\u6709\u7ea7\u724c\u548c\u5927\u5c0f\u738b\u662f\u4e3b\u724c"), mark);
        else if (trump) item([[trump + (level === "A" ? "K" : "A")]], text.replace("{suit}", SUIT[trump]), mark);
      } else if (mark === "joker") {
        item([["RJ"], ["BJ"]], text, mark);
      }
    });
    if (DATA.refereed) {
      item([["S9", "exposed"]], L("\u66b4\u9732\u5f20 exposed card", "\u66b4\u9732\u5f20"), "exposed");
      item([["S9", "penalty"]], L("\u7f5a\u5f20 penalty card", "\u7f5a\u5f20"), "penalty");
      item([["S9", "pending"]], L("laid on the table, awaiting the ruling", "\u6446\u5728\u684c\u4e0a\uff0c\u7b49\u5f85\u88c1\u51b3"), "pending");
    }
  }

  function drawTribute(st) {             // 进贡 / 还贡 / 抗贡 of this deal, at the table
    var box = clear($("tribute")), t = st.tribute;
    box.hidden = !t;
    if (!t) return;
    box.setAttribute("data-how", t.how);
    function seats(list) { return list.map(seatName).join(L(" and ", "\u3001")); }
    if (t.how === "resisted") {
      box.appendChild(el("span", "tribute-head", L("\u6297\u8d21 tribute resisted", "\u6297\u8d21")));
      box.appendChild(el("span", null, seats(t.seats) + L(" hold both big jokers: no tribute, no return", "\u624b\u63e1\u4e24\u5f20\u5927\u738b\uff1a\u4e0d\u8fdb\u8d21\uff0c\u4e0d\u8fd8\u8d21")));
      return;
    }
    if (t.how === "waived") {
      box.appendChild(el("span", "tribute-head", Z(t.head) || L((t.double ? "double " : "") + "tribute waived by a ruling", "\u4f9d\u88c1\u51b3\u514d\u9664\u8fdb\u8d21")));
    } else {
      box.appendChild(el("span", "tribute-head", t.double ? L("\u53cc\u8d21 double tribute", "\u53cc\u8d21") : L("\u8fdb\u8d21 tribute", "\u8fdb\u8d21")));
    }
    t.payments.forEach(function (p) {
      var pay = el("span", "payment");
      pay.setAttribute("data-payer", p[0]);
      pay.appendChild(el("span", null, seatName(p[0]) + " \u2192 " + seatName(p[1]) + ":"));
      pay.appendChild(p[2] ? cardEl(p[2], st) : el("span", "waiting", L("to pay", "\u5f85\u8fdb\u8d21")));
      pay.appendChild(el("span", null, L("\u8fd8\u8d21 returned:", "\u8fd8\u8d21\uff1a")));
      pay.appendChild(p[3] ? cardEl(p[3], st) : el("span", "waiting", p[2] ? L("to return", "\u5f85\u8fd8\u8d21") : L("after the tribute", "\u8fdb\u8d21\u540e")));
      box.appendChild(pay);
    });
    if (t.seats.length) box.appendChild(el("span", "help", seats(t.seats) + L(" excused (\u5355\u4e0b last deal)", "\u4e0a\u4e00\u526f\u5224\u5355\u4e0b\uff0c\u514d\u4e8e\u8fdb\u8d21")));
  }

  var rows = [];
  function buildTimeline() {
    var tl = $("timeline"), frag = document.createDocumentFragment(), prev = null;
    frames.forEach(function (f, k) {
      var key = f.u + "/" + f.d;
      if (key !== prev) {
        frag.appendChild(el("div", "tl-deal", ZH ? (DATA.unitName === "match" && f.u !== null && f.u !== undefined ? "\u7b2c " + f.u + " \u573a \u00b7 " : "") + "\u7b2c " + f.d + " \u526f"
          : (DATA.unitName === "match" && f.u !== null && f.u !== undefined ? "match " + f.u + " \u00b7 " : "") + "deal " + f.d));
        prev = key;
      }
      var row = el("div", "tl-row" + (f.g ? " tl-" + f.g : ""));
      row.setAttribute("data-step", k);
      row.appendChild(el("span", "tl-label", f.l));
      row.appendChild(document.createTextNode(said(f)));
      row.title = said(f);
      frag.appendChild(row);
      rows.push(row);
    });
    tl.appendChild(frag);
    tl.addEventListener("click", function (ev) {
      var row = ev.target.closest ? ev.target.closest(".tl-row") : null;
      if (row) go(Number(row.getAttribute("data-step")));
    });
  }

  function showRow(row) {                // scrolls the timeline only, never the window
    var tl = $("timeline"), head = 22, top = row.offsetTop, bottom = top + row.offsetHeight;
    if (top - head < tl.scrollTop) tl.scrollTop = Math.max(0, top - head);
    else if (bottom > tl.scrollTop + tl.clientHeight) tl.scrollTop = bottom - tl.clientHeight;
  }

  function status(text) { $("status").textContent = text || ""; }

  function go(k) {
    k = Math.max(0, Math.min(N - 1, k));
    if (rows[cur]) rows[cur].classList.remove("current");
    cur = k;
    var st = states[k], frame = frames[k];
    ZW = st.zh || {};
    drawInfo(st);
    for (var seat = 0; seat < 4; seat++) drawSeat(st, seat);
    drawPile(st);
    drawRulings(st, frame);
    drawNotes(st);
    drawTribute(st);
    drawLegend(st);
    var ev = $("event");
    ev.className = frame.g ? "ev-" + frame.g : "";
    colourText(ev, said(frame));
    $("pos").textContent = ZH ? "\u7b2c " + (k + 1) + " / " + N + " \u6b65 \u00b7 #" + frame.l
                              : "step " + (k + 1) + " / " + N + " \u00b7 seq " + frame.l + " \u00b7 line " + frame.n;
    $("scrub").value = k;
    if (rows[k]) { rows[k].classList.add("current"); showRow(rows[k]); }
    $("table").setAttribute("data-step", k);
    $("table").setAttribute("data-seq", frame.l);
    if (history.replaceState) history.replaceState(null, "", "#" + frame.l);
  }

  function find(from, dir, test) {
    for (var k = from + dir; k >= 0 && k < N; k += dir) if (test(frames[k], k)) return k;
    return -1;
  }
  function jump(dir, test, what) {
    var k = find(cur, dir, test);
    if (k < 0) { status("no " + (dir > 0 ? "further " : "earlier ") + what); return; }
    status(""); go(k);
  }
  function isDeal(f, k) { return k > 0 && (frames[k - 1].d !== f.d || frames[k - 1].u !== f.u); }
  var actions = {
    first: function () { status(""); go(0); },
    last: function () { status(""); go(N - 1); },
    prev: function () { status(""); go(cur - 1); },
    next: function () { status(""); go(cur + 1); },
    "prev-round": function () { jump(-1, function (f) { return ROUND_END[f.k]; }, "round end"); },
    "next-round": function () { jump(1, function (f) { return ROUND_END[f.k]; }, "round end"); },
    "prev-deal": function () { jump(-1, isDeal, "deal"); },
    "next-deal": function () { jump(1, isDeal, "deal"); },
    "next-irregular": function () { jump(1, function (f) { return f.g === "irregular" || f.g === "ruling"; }, "irregularity or ruling"); },
    "prev-irregular": function () { jump(-1, function (f) { return f.g === "irregular" || f.g === "ruling"; }, "irregularity or ruling"); },
    "next-ruling": function () { jump(1, function (f) { return f.g === "ruling"; }, "ruling"); },
    "prev-ruling": function () { jump(-1, function (f) { return f.g === "ruling"; }, "ruling"); }
  };
  Object.keys(actions).forEach(function (id) { var b = $(id); if (b) b.addEventListener("click", actions[id]); });
  $("scrub").max = N - 1;
  $("scrub").addEventListener("input", function () { go(Number(this.value)); });
  document.addEventListener("keydown", function (ev) {
    if (ev.target && (ev.target.tagName === "INPUT" && ev.target.type !== "range")) return;
    var key = ev.key, name = null;
    if (key === "ArrowRight") name = ev.shiftKey ? "next-round" : "next";
    else if (key === "ArrowLeft") name = ev.shiftKey ? "prev-round" : "prev";
    else if (key === "PageDown") name = "next-deal";
    else if (key === "PageUp") name = "prev-deal";
    else if (key === "Home") name = "first";
    else if (key === "End") name = "last";
    else if (key === "i") name = "next-irregular";
    else if (key === "I") name = "prev-irregular";
    else if (key === "r") name = "next-ruling";
    else if (key === "R") name = "prev-ruling";
    if (name) { ev.preventDefault(); actions[name](); }
  });

  relabel();
  buildTimeline();
  var start = DATA.start;
  if (location.hash.length > 1) {
    var want = decodeURIComponent(location.hash.slice(1));
    for (var k = 0; k < N; k++) if (frames[k].l === want) { start = k; break; }
  }
  go(start);
  document.body.setAttribute("data-ready", "1");
})();
"""

BODY = """
<header><h1>paiju replay · {game_title}</h1><span class="meta">{meta}</span></header>{warning}
<div id="controls" role="toolbar" aria-label="step through the log">
 <div id="buttons">
  <button id="first" title="first step (Home)">|◀</button>
  <button id="prev-deal" title="previous deal (PageUp)">◀◀ deal</button>
  <button id="prev-round" title="previous {round} end (Shift+←)">◀ {round}</button>
  <button id="prev" title="previous step (←)">◀ prev</button>
  <button id="next" title="next step (→)">next ▶</button>
  <button id="next-round" title="next {round} end (Shift+→)">{round} ▶</button>
  <button id="next-deal" title="next deal (PageDown)">deal ▶▶</button>
  <button id="last" title="last step (End)">▶|</button>
  <button id="prev-irregular" class="jump-irregular" title="previous irregularity or ruling (Shift+I)">⚑ ◀</button>
  <button id="next-irregular" class="jump-irregular" title="next irregularity or ruling (i)">next irregularity ⚑</button>
  <button id="prev-ruling" class="jump-ruling" title="previous ruling (Shift+R)">§ ◀</button>
  <button id="next-ruling" class="jump-ruling" title="next ruling (r)">next ruling §</button>
 </div>
 <div id="where">
  <input id="scrub" type="range" min="0" value="0" aria-label="step">
  <span id="pos"></span><span id="status" role="status"></span>
 </div>
</div>
<main>
  <section id="table" aria-label="the table">
    <div id="info"></div>
    <div id="tribute" aria-label="tribute" hidden></div>
    <div class="seat" id="seat-0"></div><div class="seat" id="seat-1"></div>
    <div class="seat" id="seat-2"></div><div class="seat" id="seat-3"></div>
    <div id="center">
      <div id="pile-title"></div>
      <div class="slot slot-n" id="slot-north"></div><div class="slot slot-w" id="slot-west"></div>
      <div id="pile-mid"></div>
      <div class="slot slot-e" id="slot-east"></div><div class="slot slot-s" id="slot-south"></div>
      <div id="seqlist"></div>
    </div>
    <div id="event"></div>
    <div id="legend" aria-label="legend"></div>
  </section>
  <aside>
    <div class="panel" id="ruling-panel"><h2>Rulings 裁决</h2><div id="ruling-list"></div></div>
    <div class="panel" id="notes"><h2>This deal</h2><div id="notes-list"></div></div>
    <div class="panel"><h2>Timeline</h2><div id="timeline"></div>
      <div class="help">keys: ← → step · Shift+← → {round} · PgUp PgDn deal · Home End · i / I irregularity · r / R ruling</div></div>
  </aside>
</main>
"""
