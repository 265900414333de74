"use strict";
// The training app: plain DOM calls, text set with textContent only (names and answers are data).

const WORDS = {
  zh: { title: "裁判培训", name: "姓名", game: "游戏", practice: "练习", exam: "考试", live: "现场执裁", progress: "进度",
        instructor: "教练", next: "下一题", clause: "条款", rectification: "纠正措施", sanctions: "处罚",
        submit: "提交裁决", apply: "执行我的裁决", rulebook: "按规则的裁决", yours: "你的裁决", count: "题数",
        minutes: "分钟", start: "开始考试", finish: "交卷", pace: "速度", instant: "立即", liveStart: "开始一副牌",
        refresh: "刷新", attempts: "次数", accuracy: "正确率", due: "到期", export: "导出 CSV", right: "正确",
        search: "搜索条款：编号或文字", needName: "请先填写姓名", awaiting: "出现违规：请裁决", dealOver: "本副牌结束",
        verdicts: { right: "正确", "partly right": "部分正确", wrong: "错误", unanswered: "未作答" },
        cannot: "无法执行：", seconds: "秒", nowDue: "现在", examOver: "考试结束", score: "得分", lang: "English",
        sanctionNames: { Warning: "警告", RecordedViolation: "记违例", PointPenalty: "罚分", LevelDiffPenalty: "级差分",
                         ForcedLast: "单下", ForcedDoubleLast: "双下", MatchLoss: "判负", Suspension: "停赛",
                         AdjustedScore: "调整分" } },
  en: { title: "Referee training", name: "Name", game: "Game", practice: "Practice", exam: "Exam", live: "Live deal",
        progress: "Progress", instructor: "Instructor", next: "Next scenario", clause: "Clause",
        rectification: "Rectification", sanctions: "Sanctions", submit: "Submit ruling", apply: "Apply my ruling",
        rulebook: "The rulebook's ruling", yours: "Your ruling", count: "Scenarios", minutes: "Minutes",
        start: "Start exam", finish: "Hand in", pace: "Pace", instant: "instant", liveStart: "Deal a live deal",
        refresh: "Refresh", attempts: "Attempts", accuracy: "Accuracy", due: "Due", export: "Export CSV", right: "Right",
        search: "Search clauses: id or words", needName: "Enter your name first", awaiting: "Irregularity: your ruling",
        dealOver: "The deal is over", verdicts: { right: "right", "partly right": "partly right", wrong: "wrong",
        unanswered: "unanswered" }, cannot: "Cannot be carried out: ", seconds: "s", nowDue: "now",
        examOver: "Exam over", score: "Score", lang: "中文",
        sanctionNames: { Warning: "Warning", RecordedViolation: "Recorded violation", PointPenalty: "Point penalty",
                         LevelDiffPenalty: "Level-difference penalty", ForcedLast: "Forced last (单下)",
                         ForcedDoubleLast: "Forced double last (双下)", MatchLoss: "Match loss",
                         Suspension: "Suspension", AdjustedScore: "Adjusted score" } },
};
const COUNTED = new Set(["PointPenalty", "LevelDiffPenalty"]);
const state = { lang: localStorage.getItem("paiju.lang") || "zh", games: [], sanctions: [], scenario: null,
                shownAt: 0, exam: null, examIndex: 0, live: null, liveSeen: 0, timer: null };
const $ = (id) => document.getElementById(id);
const w = (key) => WORDS[state.lang][key] || key;

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function api(path, body) {
  const options = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" },
                                               body: JSON.stringify(body) };
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function trainee() {
  const name = $("trainee").value.trim();
  if (!name) throw new Error(w("needName"));
  localStorage.setItem("paiju.trainee", name);
  return name;
}

function game() { return $("game").value; }
function gameData() { return state.games.find((g) => g.game === game()); }

function translate() {
  document.documentElement.lang = state.lang;
  document.querySelectorAll("[data-t]").forEach((node) => { node.textContent = w(node.dataset.t); });
  document.querySelectorAll("[data-tp]").forEach((node) => { node.placeholder = w(node.dataset.tp); });
  $("lang").textContent = w("lang");
  buildForm();
}

function clauseLabel(c) { return `${c.id} ${state.lang === "zh" ? c.title : c.en}`.slice(0, 140); }

function buildForm() {
  const data = gameData();
  if (!data) return;
  filterClauses();
  const effects = $("effects");
  effects.replaceChildren();
  for (const kind of data.effects) {
    const label = el("label");
    const box = el("input");
    box.type = "checkbox"; box.value = kind; box.name = "effect";
    label.append(box, " " + kind);
    effects.append(label);
  }
  const sanctions = $("sanctions");
  sanctions.replaceChildren();
  for (const kind of state.sanctions) {
    const label = el("label");
    const box = el("input");
    box.type = "checkbox"; box.value = kind; box.name = "sanction";
    label.append(box, " " + (WORDS[state.lang].sanctionNames[kind] || kind));
    if (COUNTED.has(kind)) {
      const n = el("input");
      n.type = "number"; n.min = "1"; n.max = "999"; n.value = kind === "PointPenalty" ? "10" : "1";
      n.dataset.countFor = kind;
      label.append(" ", n);
    }
    sanctions.append(label);
  }
}

function filterClauses() {
  const data = gameData();
  const query = $("clause-search").value.trim().toLowerCase();
  const select = $("clause");
  const keep = select.value;
  select.replaceChildren();
  for (const c of data.clauses) {
    const hay = `${c.id} ${c.title} ${c.zh} ${c.en}`.toLowerCase();
    if (query && !hay.includes(query)) continue;
    const option = el("option", clauseLabel(c));
    option.value = c.id;
    select.append(option);
  }
  if (keep) select.value = keep;
  showClause();
}

function showClause() {
  const c = gameData() && gameData().clauses.find((x) => x.id === $("clause").value);
  $("clause-text").textContent = c ? `${c.zh}\n${c.en}` : "";
}

function readRuling() {
  const clause = $("clause").value;
  const effects = [...document.querySelectorAll("input[name=effect]:checked")].map((b) => b.value);
  const sanctions = [...document.querySelectorAll("input[name=sanction]:checked")].map((b) => {
    const n = document.querySelector(`input[data-count-for="${b.value}"]`);
    return n ? `${b.value}(${parseInt(n.value, 10) || 1})` : b.value;
  });
  return { clause, effects, sanctions };
}

function resetForm() {
  document.querySelectorAll("#ruling input[type=checkbox]").forEach((b) => { b.checked = false; });
  $("clause-search").value = "";
  $("clause").value = "";
  filterClauses();
}

// -- practice ------------------------------------------------------------------------------

async function openScenario(sid) {
  state.scenario = sid;
  state.shownAt = Date.now();
  const info = await api(`/api/scenario/${encodeURIComponent(sid)}`);
  $("where").textContent = `${sid} · ${info.position}`;
  const frame = $("table");
  frame.src = `/scenario/${encodeURIComponent(sid)}/table`;
  frame.hidden = false;
  $("ruling").hidden = false;
  clearAnswer();
  resetForm();
}

// Nothing of a ruling may outlive its question: the verdict, the rulebook's continuation and
// "apply my ruling" (which shows it) go until the next answer is submitted.
function clearAnswer() {
  $("verdict").replaceChildren();
  $("verdict").hidden = true;
  $("compare").hidden = true;
  for (const id of ["own-outcome", "your-outcome", "your-reason"]) $(id).replaceChildren();
  for (const id of ["own-page", "your-page"]) $(id).removeAttribute("src");
  $("apply").hidden = true;
}

async function nextScenario() {
  const data = await api(`/api/next?game=${encodeURIComponent(game())}&trainee=${encodeURIComponent(trainee())}`);
  await openScenario(data.scenario);
}

function showVerdict(data) {
  const box = $("verdict");
  box.replaceChildren();
  box.className = data.verdict === "right" ? "right" : data.verdict === "wrong" ? "wrong" : "partly";
  box.append(el("div", `${WORDS[state.lang].verdicts[data.verdict] || data.verdict}: ${data.remarks.join("; ")}`, "line"));
  for (const line of data.explanation) box.append(el("div", line, "small"));
  box.hidden = false;
  $("apply").hidden = false;
}

async function submitRuling(event) {
  event.preventDefault();
  const body = { trainee: trainee(), seconds: (Date.now() - state.shownAt) / 1000, ...readRuling() };
  if (state.exam) body.exam = state.exam.exam;
  const data = await api(`/api/scenario/${encodeURIComponent(state.scenario)}/answer`, body);
  if (state.exam) { await nextExamScenario(); return; }
  showVerdict(data);
}

function fillOutcome(list, lines) {
  list.replaceChildren(...lines.map((line) => el("li", line)));
}

async function applyRuling() {
  const data = await api(`/api/scenario/${encodeURIComponent(state.scenario)}/apply`,
                         { trainee: trainee(), ...readRuling() });
  $("compare").hidden = false;
  fillOutcome($("own-outcome"), data.rulebook.outcome);
  $("own-page").src = data.rulebook.page;
  if (data.applied) {
    $("your-reason").textContent = `${data.seconds} ${w("seconds")}`;
    fillOutcome($("your-outcome"), data.yours.outcome);
    $("your-page").src = data.yours.page;
    $("your-page").hidden = false;
  } else {
    $("your-reason").textContent = w("cannot") + data.reason;
    $("your-outcome").replaceChildren();
    $("your-page").hidden = true;
  }
}

// -- exam ----------------------------------------------------------------------------------

async function startExam() {
  const data = await api("/api/exam", { trainee: trainee(), game: game(), count: parseInt($("exam-count").value, 10),
                                        minutes: parseInt($("exam-minutes").value, 10) });
  state.exam = data;
  state.examIndex = 0;
  state.examEnds = Date.now() + data.seconds * 1000;
  $("exam-finish").hidden = false;
  $("exam-result").replaceChildren();
  clearInterval(state.timer);
  state.timer = setInterval(tick, 1000);
  tick();
  showTab("practice");
  await openScenario(data.scenarios[0]);
}

function tick() {
  const left = Math.max(0, Math.round((state.examEnds - Date.now()) / 1000));
  $("exam-clock").textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  $("where").textContent = `${w("exam")} ${state.examIndex + 1}/${state.exam.scenarios.length} · ${$("exam-clock").textContent}`;
  if (left === 0) finishExam();
}

async function nextExamScenario() {
  state.examIndex += 1;
  if (state.examIndex >= state.exam.scenarios.length) { await finishExam(); return; }
  await openScenario(state.exam.scenarios[state.examIndex]);
}

async function finishExam() {
  if (!state.exam) return;
  const exam = state.exam;
  state.exam = null;
  clearInterval(state.timer);
  $("exam-finish").hidden = true;
  $("ruling").hidden = true;
  $("table").hidden = true;
  $("table").removeAttribute("src");
  clearAnswer();
  const data = await api(`/api/exam/${exam.exam}/finish`, {});
  showTab("exam");
  $("exam-status").textContent = `${w("examOver")} · ${w("score")} ${data.right} / ${data.count}`;
  const list = el("ol");
  for (const r of data.results) {
    const item = el("li", `${WORDS[state.lang].verdicts[r.verdict] || r.verdict} · ${r.answer || ""}`);
    for (const line of r.explanation) item.append(el("div", line, "small"));
    list.append(item);
  }
  const link = el("a", "🖨 " + exam.exam);
  link.href = `/exam/${exam.exam}/result`;
  link.target = "_blank";
  $("exam-result").replaceChildren(link, list);
}

// -- live ----------------------------------------------------------------------------------

async function startLive() {
  const data = await api("/api/live", { trainee: trainee(), game: game() });
  state.live = data.live;
  state.liveSeen = 0;
  $("live-steps").replaceChildren();
  $("live-summary").replaceChildren();
  pollLive();
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function pollLive() {
  const lid = state.live;
  while (lid === state.live) {
    const data = await api(`/api/live/${lid}?since=${state.liveSeen}`);
    const pace = parseInt($("pace").value, 10);
    for (const step of data.steps) {
      if (step.last < state.liveSeen) continue;
      const item = el("li", step.text, step.tags);
      $("live-steps").append(item);
      item.scrollIntoView({ block: "nearest" });
      state.liveSeen = step.last + 1;
      if (pace) await sleep(pace);
    }
    if (data.awaiting && state.liveSeen >= data.events) {
      $("live-status").textContent = w("awaiting");
      showTab("practice");
      state.scenario = null;
      $("where").textContent = `${w("live")} · ${w("awaiting")}`;
      $("table").src = `/live/${lid}/table`;
      $("table").hidden = false;
      $("ruling").hidden = false;
      clearAnswer();
      resetForm();
      state.liveWaiting = lid;
      return;
    }
    if (data.done && state.liveSeen >= data.events) {
      $("live-status").textContent = data.failed ? data.failed : w("dealOver");
      const list = el("ol");
      for (const a of data.answered) {
        list.append(el("li", `${WORDS[state.lang].verdicts[a.verdict] || a.verdict} · ${a.answer || "—"} · ` +
                             `${a.expected_clause} · ${a.remarks.join("; ")} · ${a.carried_out}`));
      }
      $("live-summary").replaceChildren(list);
      return;
    }
    await sleep(300);
  }
}

async function ruleLive(event) {
  event.preventDefault();
  const lid = state.liveWaiting;
  await api(`/api/live/${lid}/rule`, readRuling());
  state.liveWaiting = null;
  $("ruling").hidden = true;
  $("table").hidden = true;
  $("table").removeAttribute("src");
  $("live-status").textContent = "";
  showTab("live");
  pollLive();
}

// -- progress and instructors --------------------------------------------------------------

async function loadProgress() {
  const data = await api(`/api/progress?game=${encodeURIComponent(game())}&trainee=${encodeURIComponent(trainee())}`);
  $("progress-summary").textContent = `${data.trainee} · ${data.attempts} ${w("attempts")}`;
  const body = $("progress-table").tBodies[0];
  body.replaceChildren(...data.clauses.map((r) => {
    const row = el("tr");
    row.append(el("td", r.clause), el("td", r.attempts), el("td", `${Math.round(r.accuracy * 100)} %`),
               el("td", r.due_in ? `${Math.ceil(r.due_in / 60)} min` : w("nowDue")));
    return row;
  }));
}

async function loadTrainees() {
  const data = await api("/api/trainees");
  const body = $("trainees-table").tBodies[0];
  body.replaceChildren(...data.trainees.map((t) => {
    const row = el("tr");
    row.append(el("td", t.trainee), el("td", t.attempts), el("td", t.right), el("td", t.games));
    return row;
  }));
}

function showTab(name) {
  document.querySelectorAll(".tab").forEach((s) => { s.hidden = s.id !== name; });
  document.querySelectorAll("#tabs button").forEach((b) => b.classList.toggle("on", b.dataset.tab === name));
}

function guarded(fn) {
  return async (...args) => {
    showError("");
    try { await fn(...args); } catch (error) { showError(error.message); }
  };
}

async function start() {
  const data = await api("/api/games");
  state.games = data.games;
  state.sanctions = data.sanctions;
  for (const g of data.games) {
    const option = el("option", g.game);
    option.value = g.game;
    $("game").append(option);
  }
  $("trainee").value = localStorage.getItem("paiju.trainee") || "";
  translate();
  showTab("practice");
  $("lang").addEventListener("click", () => {
    state.lang = state.lang === "zh" ? "en" : "zh";
    localStorage.setItem("paiju.lang", state.lang);
    translate();
  });
  $("game").addEventListener("change", buildForm);
  $("clause-search").addEventListener("input", filterClauses);
  $("clause").addEventListener("change", showClause);
  document.querySelectorAll("#tabs button").forEach((b) => b.addEventListener("click", () => showTab(b.dataset.tab)));
  $("next").addEventListener("click", guarded(nextScenario));
  $("ruling").addEventListener("submit", guarded((e) => (state.liveWaiting ? ruleLive(e) : submitRuling(e))));
  $("apply").addEventListener("click", guarded(applyRuling));
  $("exam-start").addEventListener("click", guarded(startExam));
  $("exam-finish").addEventListener("click", guarded(finishExam));
  $("live-start").addEventListener("click", guarded(startLive));
  $("progress-load").addEventListener("click", guarded(loadProgress));
  $("trainees-load").addEventListener("click", guarded(loadTrainees));
}

document.addEventListener("DOMContentLoaded", guarded(start));
