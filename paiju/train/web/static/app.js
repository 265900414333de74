"use strict";
// The training app: plain DOM calls, text set with textContent only (names and answers are data).
// Chinese first; the toggle shows English. What the server sends in both languages is picked by
// `pick` (its *_zh fields, or zh/en pairs).

const WORDS = {
  zh: { title: "裁判培训", name: "姓名", game: "项目", home: "首页", practice: "练习", exam: "考试", live: "现场执裁",
        progress: "进度", instructor: "教练", next: "下一题", clause: "条款", rectification: "纠正措施",
        sanctions: "处罚", submit: "提交裁决", apply: "执行我的裁决（与规则的裁决对比）", rulebook: "按规则的裁决",
        yours: "你的裁决", count: "题数", minutes: "分钟", start: "开始考试", finish: "交卷", pace: "速度",
        instant: "立即", liveStart: "开始一副牌", refresh: "刷新", attempts: "次数", accuracy: "正确率", due: "复习",
        export: "导出 CSV", right: "正确", search: "搜索条款：编号或文字", needName: "请先填写姓名",
        awaiting: "出现违规：请裁决", dealOver: "本副牌结束", cannot: "无法执行：", seconds: "秒", nowDue: "现在",
        examOver: "考试结束", score: "得分", lang: "English", continue: "继续学习", chapters: "章节",
        dueTitle: "待复习", dueNone: "暂无待复习的条款。", key: "教练口令", exams: "考试成绩",
        intro1: "这是按两部中国比赛违例判罚细则（掼蛋、双升）培训裁判的练习场：牌桌停在违例发生之后，由你来裁决——引用哪一条、牌桌上怎样纠正、给予什么处罚。提交之后才看到规则的裁决、依据的原文，以及两种裁决下这副牌怎样打下去。",
        intro2: "按章学习：每章由易到难（先是单一违例，后是违例的相互影响）。答错的条款很快会再出现，答对的间隔逐渐拉长。填写姓名后开始；进度保存在服务器上。",
        liveIntro: "一副牌在服务器上实时进行；出现违例时牌局停下，等你裁决，再按你的裁决继续。",
        question: "第 {n} 题", chapterOf: "本章", tried: "已练条款", mastered: "已掌握", scenarios: "题",
        noTries: "尚未练习", replay: "从违例前一步回放这副牌", print: "打印成绩", trainee: "学员",
        lastSeen: "最近练习", total: "合计", chapterStart: "从本章开始", minutesLeft: "分钟后", none: "无",
        examNo: "第 {n} 场", dueIn: "{m} 分钟后", continueAt: "下一步：{c}", yourClause: "你的条款：", clauses: "条" },
  en: { title: "Referee training", name: "Name", game: "Game", home: "Home", practice: "Practice", exam: "Exam",
        live: "Live deal", progress: "Progress", instructor: "Instructor", next: "Next scenario", clause: "Clause",
        rectification: "Rectification", sanctions: "Sanctions", submit: "Submit ruling",
        apply: "Apply my ruling (compare with the rulebook's)", rulebook: "The rulebook's ruling", yours: "Your ruling",
        count: "Scenarios", minutes: "Minutes", start: "Start exam", finish: "Hand in", pace: "Pace", instant: "instant",
        liveStart: "Deal a live deal", refresh: "Refresh", attempts: "Attempts", accuracy: "Accuracy", due: "Review",
        export: "Export CSV", right: "Right", search: "Search clauses: number or words", needName: "Enter your name first",
        awaiting: "Irregularity: your ruling", dealOver: "The deal is over", cannot: "Cannot be carried out: ",
        seconds: "s", nowDue: "now", examOver: "Exam over", score: "Score", lang: "中文", continue: "Continue",
        chapters: "Chapters", dueTitle: "Due for review", dueNone: "Nothing is due for review.",
        key: "Instructor key", exams: "Exam results",
        intro1: "Practise refereeing the two Chinese competition penalty codes (Guandan 掼蛋, Shengji 双升): the table stops just after an irregularity and you rule — which clause, what the table does to put it right, which sanction. Only after you submit do you see the rulebook's ruling, the seed text that decides it, and how the deal goes on under either ruling.",
        intro2: "Learn chapter by chapter, each from easy (one irregularity) to hard (irregularities that interact). A clause you miss comes back soon, one you get right later and later. Enter your name to start; your progress is kept on the server.",
        liveIntro: "A deal is played live on the server; at an irregularity it stops for your ruling and goes on under it.",
        question: "Scenario {n}", chapterOf: "chapter", tried: "clauses tried", mastered: "mastered", scenarios: "scenarios",
        noTries: "not started", replay: "Replay this deal from one step before the ruling", print: "Print the result",
        trainee: "Trainee", lastSeen: "Last seen", total: "Total", chapterStart: "Start this chapter",
        minutesLeft: "min", none: "none", examNo: "exam {n}", dueIn: "in {m} min", continueAt: "Next: {c}",
        yourClause: "your answer: ", clauses: "clauses" },
};
const state = { lang: localStorage.getItem("paiju.lang") || "zh", games: [], sanctions: [], scenario: null,
                chapter: null, count: 0, shownAt: 0, exam: null, examIndex: 0, live: null, liveSeen: 0, timer: null };
const $ = (id) => document.getElementById(id);
const w = (key, values) => (WORDS[state.lang][key] || key).replace(/\{(\w+)\}/g, (_, k) => (values || {})[k] ?? "");
const zh = () => state.lang === "zh";
const pick = (pair) => (zh() ? pair.zh : pair.en);

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
  if (!response.ok) throw new Error((zh() ? data.error_zh : data.error_en) || data.error || response.statusText);
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
const query = (extra) => new URLSearchParams({ game: game(), trainee: trainee(), ...(extra || {}) }).toString();
const date = (seconds) => (seconds ? new Date(seconds * 1000).toLocaleString(zh() ? "zh-CN" : "en-GB") : "—");
const percent = (x) => (x === null || x === undefined ? "—" : `${Math.round(x * 100)}%`);

function translate() {
  document.documentElement.lang = state.lang;
  document.querySelectorAll("[data-t]").forEach((node) => { node.textContent = w(node.dataset.t); });
  document.querySelectorAll("[data-tp]").forEach((node) => { node.placeholder = w(node.dataset.tp); });
  $("lang").textContent = w("lang");
  for (const option of $("game").options) {
    const g = state.games.find((x) => x.game === option.value);
    option.textContent = g ? pick(g) : option.value;
  }
  buildForm();
}

// -- the answer form -----------------------------------------------------------------------

function clauseLabel(c) { return (zh() ? `${c.number} ${c.zh}` : `${c.id} ${c.en}`).slice(0, 90); }

function buildForm() {
  const data = gameData();
  if (!data) return;
  const ticked = new Set([...document.querySelectorAll("#ruling input[type=checkbox]:checked")].map((b) => b.value));
  filterClauses();
  $("effects").replaceChildren(...data.effects.map((e) => check("effect", e.kind, pick(e), ticked)));
  $("sanctions").replaceChildren(...state.sanctions.map((s) => {
    const label = check("sanction", s.kind, pick(s), ticked);
    if (s.kind === "PointPenalty" || s.kind === "LevelDiffPenalty") {
      const n = el("input");
      n.type = "number"; n.min = "1"; n.max = "999"; n.value = s.kind === "PointPenalty" ? "10" : "1";
      n.dataset.countFor = s.kind;
      n.setAttribute("aria-label", pick(s));
      label.append(" ", n);
    }
    return label;
  }));
}

function check(name, kind, text, ticked) {
  const label = el("label");
  const box = el("input");
  box.type = "checkbox"; box.value = kind; box.name = name; box.checked = ticked.has(kind);
  label.append(box, " " + text);
  return label;
}

function filterClauses() {
  const data = gameData();
  const words = $("clause-search").value.trim().toLowerCase();
  const select = $("clause");
  const keep = select.value;
  select.replaceChildren();
  for (const c of data.clauses) {
    const hay = `${c.search} ${c.number} ${c.text_zh} ${c.en} ${c.summary}`.toLowerCase();
    if (words && !words.split(/\s+/).every((word) => hay.includes(word))) continue;
    const option = el("option", clauseLabel(c));
    option.value = c.id;
    select.append(option);
  }
  if (keep) select.value = keep;
  showClause();
}

function showClause() {
  const c = gameData() && gameData().clauses.find((x) => x.id === $("clause").value);
  $("clause-text").textContent = c ? (zh() ? `${c.number} ${c.text_zh}` : `${c.id} ${c.en}: ${c.summary}`) : "";
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

// -- the table frame: as tall as the page it shows, so no hand is cut off -------------------

function fitFrame(frame) {
  try {
    const doc = frame.contentDocument;
    if (!doc || !doc.documentElement) return;
    frame.style.height = `${Math.max(360, doc.documentElement.scrollHeight + 4)}px`;
  } catch (error) { /* another origin: keep the CSS height */ }
}

function showFrame(frame, src) {
  frame.src = `${src}${src.includes("?") ? "&" : "?"}lang=${state.lang}`;   // the table's steps in the page's language
  frame.hidden = false;
}

// -- practice ------------------------------------------------------------------------------

async function openScenario(sid, label) {
  state.scenario = sid;
  state.shownAt = Date.now();
  $("where").dataset.sid = sid;
  $("where").textContent = label;
  showFrame($("table"), `/scenario/${encodeURIComponent(sid)}/table`);
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

function chapterName(id) {
  const c = gameData() && gameData().chapters.find((x) => x.id === id);
  return c ? `${c.number} ${pick(c)}` : "";
}

async function nextScenario() {
  const data = await api(`/api/next?${query(state.chapter ? { chapter: state.chapter } : {})}`);
  state.count += 1;
  const where = [w("question", { n: state.count }), state.chapter ? chapterName(state.chapter) : ""].filter(Boolean);
  await openScenario(data.scenario, where.join(" · "));
}

async function startChapter(chapter) {
  state.chapter = chapter;
  state.count = 0;
  showTab("practice");
  await nextScenario();
}

function showVerdict(data) {
  const box = $("verdict");
  box.replaceChildren();
  box.className = data.verdict === "right" ? "right" : data.verdict === "wrong" ? "wrong" : "partly";
  const remarks = zh() ? data.remarks_zh : data.remarks;
  box.append(el("div", zh() ? `${data.verdict_zh}：${remarks.join("；")}` : `${data.verdict}: ${remarks.join("; ")}`, "line"));
  const lines = zh() ? data.explanation_zh : data.explanation;
  for (const line of lines) box.append(el("div", line, line.startsWith("【") ? "small pd" : "small"));
  const link = el("a", w("replay"));
  link.href = `${data.replay}?lang=${state.lang}`;
  link.target = "_blank";
  link.rel = "noopener";
  box.append(link);
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
  showFrame($("own-page"), data.rulebook.page);
  if (data.applied) {
    $("your-reason").textContent = `${data.seconds} ${w("seconds")}`;
    fillOutcome($("your-outcome"), data.yours.outcome);
    showFrame($("your-page"), data.yours.page);
  } else {
    $("your-reason").textContent = w("cannot") + (zh() ? data.reason_zh : data.reason);
    $("your-outcome").replaceChildren();
    $("your-page").hidden = true;
  }
}

// -- home ----------------------------------------------------------------------------------

async function loadHome() {
  const name = $("trainee").value.trim();
  const data = gameData();
  const list = $("chapters");
  if (!name) {   // no one yet: the chapters without progress
    list.replaceChildren(...data.chapters.map((c) => chapterItem(c, null)));
    $("due-list").replaceChildren();
    $("due-none").hidden = false;
    $("continue-where").textContent = "";
    return;
  }
  const view = await api(`/api/overview?${query()}`);
  list.replaceChildren(...view.chapters.map((c) => chapterItem(c, c)));
  $("due-list").replaceChildren(...view.due.map((d) => el("li", zh() ? d.label : d.clause)));
  $("due-none").hidden = view.due.length > 0;
  state.continueAt = view.continue;
  $("continue-where").textContent = view.continue ? w("continueAt", { c: chapterName(view.continue) }) : "";
}

function chapterItem(c, progress) {
  const item = el("li", null, "chapter");
  const head = el("div", `${c.number} ${pick(c)}`, "chapter-name");
  item.append(head);
  if (progress && progress.clauses) {
    const bar = el("div", null, "meter");
    const fill = el("span");
    fill.style.width = `${Math.round((100 * progress.mastered) / progress.clauses)}%`;
    bar.append(fill);
    const facts = progress.attempts
      ? `${w("tried")} ${progress.tried}/${progress.clauses} · ${w("mastered")} ${progress.mastered} · ` +
        `${w("accuracy")} ${percent(progress.accuracy)} · ${w("due")} ${progress.due}`
      : `${progress.clauses} ${w("clauses")} · ${progress.scenarios} ${w("scenarios")} · ${w("noTries")}`;
    item.append(bar, el("div", facts, "small"));
    const go = el("button", w("chapterStart"));
    go.type = "button";
    go.addEventListener("click", guarded(() => startChapter(c.id)));
    item.append(go);
  } else if (progress) {
    item.classList.add("empty");
  }
  return item;
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
  $("exam-status").textContent = "";
  clearInterval(state.timer);
  state.timer = setInterval(tick, 1000);
  showTab("practice");
  await openScenario(data.scenarios[0], "");
  tick();
}

function tick() {
  if (!state.exam) return;
  const left = Math.max(0, Math.round((state.examEnds - Date.now()) / 1000));
  $("exam-clock").textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  $("where").textContent = `${w("exam")} ${state.examIndex + 1}/${state.exam.scenarios.length} · ${$("exam-clock").textContent}`;
  if (left === 0) guarded(finishExam)();
}

async function nextExamScenario() {
  state.examIndex += 1;
  if (state.examIndex >= state.exam.scenarios.length) { await finishExam(); return; }
  await openScenario(state.exam.scenarios[state.examIndex], "");
  tick();
}

async function finishExam() {
  if (!state.exam) return;
  const exam = state.exam;
  state.exam = null;
  clearInterval(state.timer);
  $("exam-clock").textContent = "";
  $("exam-finish").hidden = true;
  $("ruling").hidden = true;
  $("table").hidden = true;
  $("table").removeAttribute("src");
  $("where").textContent = "";
  clearAnswer();
  const data = await api(`/api/exam/${exam.exam}/finish`, {});
  showTab("exam");
  $("exam-status").textContent = `${w("examOver")} · ${w("score")} ${data.right} / ${data.count}`;
  const list = el("ol");
  for (const r of data.results) {
    const item = el("li", zh() ? `${r.verdict_zh} · ${w("yourClause")}${r.given_zh || "—"}`
                               : `${r.verdict} · ${w("yourClause")}${r.answer || "—"}`);
    for (const line of (zh() ? r.explanation_zh : r.explanation)) item.append(el("div", line, "small"));
    list.append(item);
  }
  const link = el("a", w("print"));
  link.href = `/exam/${exam.exam}/result?trainee=${encodeURIComponent(trainee())}`;
  link.target = "_blank";
  link.rel = "noopener";
  $("exam-result").replaceChildren(link, list);
}

// -- live ----------------------------------------------------------------------------------

async function startLive() {
  const data = await api("/api/live", { trainee: trainee(), game: game() });
  state.live = data.live;
  state.liveSeen = 0;
  $("live-steps").replaceChildren();
  $("live-summary").replaceChildren();
  $("live-status").textContent = "";
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
      const item = el("li", zh() ? step.zh : step.text, step.tags);
      item.dataset.zh = step.zh;
      item.dataset.en = step.text;
      $("live-steps").append(item);
      item.scrollIntoView({ block: "nearest" });
      state.liveSeen = step.last + 1;
      if (pace) await sleep(pace);
    }
    if (data.awaiting && state.liveSeen >= data.events) {
      $("live-status").textContent = w("awaiting");
      showTab("practice");
      state.scenario = null;
      $("where").dataset.sid = "";
      $("where").textContent = `${w("live")} · ${w("awaiting")}`;
      showFrame($("table"), `/live/${lid}/table`);
      $("ruling").hidden = false;
      clearAnswer();
      resetForm();
      state.liveWaiting = lid;
      return;
    }
    if (data.done && state.liveSeen >= data.events) {
      $("live-status").textContent = data.failed ? (zh() ? data.failed_zh : data.failed) : w("dealOver");
      const list = el("ol");
      for (const a of data.answered) {
        list.append(el("li", zh()
          ? `${a.verdict_zh} · 你的条款：${a.given_zh} · 规则的条款：${a.expected_zh} · ${a.carried_zh}`
          : `${a.verdict} · ${a.answer || "—"} · ${a.expected_clause} · ${a.remarks.join("; ")} · ${a.carried_out}`));
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
  $("where").textContent = "";
  $("live-status").textContent = "";
  showTab("live");
  pollLive();
}

// -- progress and instructors --------------------------------------------------------------

async function loadProgress() {
  const data = await api(`/api/progress?${query()}`);
  $("progress-summary").textContent = `${data.trainee} · ${pick(gameData())} · ${data.attempts} ${w("attempts")}`;
  const body = $("progress-table").tBodies[0];
  body.replaceChildren(...data.clauses.map((r) => {
    const row = el("tr");
    row.append(el("td", zh() ? r.label : r.clause), el("td", r.attempts), el("td", percent(r.accuracy)),
               el("td", r.due_in ? w("dueIn", { m: Math.ceil(r.due_in / 60) }) : w("nowDue")));
    return row;
  }));
}

async function loadCohort() {
  const key = $("instructor-key").value.trim();
  const params = new URLSearchParams({ game: game(), key }).toString();
  const data = await api(`/api/cohort?${params}`);
  $("export").href = `/api/export.csv?${new URLSearchParams({ key })}`;
  const table = $("cohort-table");
  const head = el("tr");
  head.append(el("th", w("trainee")), ...data.chapters.map((c) => el("th", `${c.number} ${pick(c)}`)),
              el("th", w("total")), el("th", w("lastSeen")));
  table.tHead.replaceChildren(head);
  table.tBodies[0].replaceChildren(...data.trainees.map((t) => {
    const row = el("tr");
    row.append(el("td", t.trainee), ...t.chapters.map((c) => el("td", c.attempts ? `${percent(c.accuracy)} (${c.attempts})` : "—")),
               el("td", `${percent(t.accuracy)} (${t.attempts})`), el("td", date(t.last_seen)));
    return row;
  }));
  $("exam-list").replaceChildren(...data.exams.map((e) => {
    const item = el("li");
    const link = el("a", `${e.trainee} · ${w("examNo", { n: e.exam })} · ${date(e.started)} · ${w("score")} ${e.right} / ${e.count}`);
    link.href = `/exam/${e.exam}/result?${new URLSearchParams({ key })}`;
    link.target = "_blank";
    link.rel = "noopener";
    item.append(link);
    return item;
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
    const option = el("option", pick(g));
    option.value = g.game;
    $("game").append(option);
  }
  $("game").value = localStorage.getItem("paiju.game") || data.games[0].game;
  $("trainee").value = localStorage.getItem("paiju.trainee") || "";
  translate();
  showTab("home");
  for (const frame of ["table", "own-page", "your-page"]) $(frame).addEventListener("load", () => fitFrame($(frame)));
  $("lang").addEventListener("click", guarded(async () => {
    state.lang = zh() ? "en" : "zh";
    localStorage.setItem("paiju.lang", state.lang);
    translate();
    for (const id of ["table", "own-page", "your-page"]) {     // the frames shown, again in the new language
      const frame = $(id), src = frame.getAttribute("src");
      if (src && !frame.hidden) showFrame(frame, src.replace(/[?&]lang=\w+$/, ""));
    }
    for (const item of $("live-steps").children) item.textContent = zh() ? item.dataset.zh : item.dataset.en;
    await loadHome();
  }));
  $("game").addEventListener("change", guarded(async () => {
    localStorage.setItem("paiju.game", game());
    state.chapter = null;
    buildForm();
    await loadHome();
  }));
  $("trainee").addEventListener("change", guarded(loadHome));
  $("clause-search").addEventListener("input", filterClauses);
  $("clause").addEventListener("change", showClause);
  document.querySelectorAll("#tabs button").forEach((b) => b.addEventListener("click", guarded(async () => {
    showTab(b.dataset.tab);
    if (b.dataset.tab === "home") await loadHome();
  })));
  $("continue").addEventListener("click", guarded(async () => {
    trainee();
    await loadHome();
    await startChapter(state.continueAt || null);
  }));
  $("next").addEventListener("click", guarded(nextScenario));
  $("ruling").addEventListener("submit", guarded((e) => (state.liveWaiting ? ruleLive(e) : submitRuling(e))));
  $("apply").addEventListener("click", guarded(applyRuling));
  $("exam-start").addEventListener("click", guarded(startExam));
  $("exam-finish").addEventListener("click", guarded(finishExam));
  $("live-start").addEventListener("click", guarded(startLive));
  $("progress-load").addEventListener("click", guarded(loadProgress));
  $("trainees-load").addEventListener("click", guarded(loadCohort));
  await loadHome();
}

document.addEventListener("DOMContentLoaded", guarded(start));
