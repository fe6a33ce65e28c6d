// The player's phone: join by name, then the public table, their character and their prompts.
// A seat is this phone's while it holds its token: "Entrar em outro aparelho" shows the link (and
// QR code) a second device opens (`/jogador#token=…`: a fragment never reaches the server's
// logs), and "Sair" asks first, then frees the seat for the next phone to join by that name.
import { $, el, fill, pick, connect, eventLog, olderEvents, sentence, statusPill, store, promptTitleText } from "./common.js";
import { glance, partyOf, characterCard, promptsOf, promptInfo, promptTitle, namesOf, charName } from "./view.js";
import { promptCard } from "./prompt-card.js";
import { label, pages, seatText } from "./pages.js";
import { answerSummary, followsAnswer, isOwnAnswer } from "./answer.js";
import { deviceLink, leaveDialog } from "./lugares.js";
import { reportLink } from "./relatorio-link.js";

const TOKEN_KEY = "mesa.jogador.token";
const NAME_KEY = "mesa.jogador.nome";
const NOTICE_KEY = "mesa.jogador.aviso"; // why the join form is back, said once after the reload

let conn = null;
let identity = null; // {token}, {nome} or {convite}
let me = null; // {id, nome}
let state = {};
const seenPrompts = new Set();
const knownPrompts = new Map(); // prompt id → promptInfo, to name an answered option
let loaded = false; // the page's first estado arrived: the history before it is in the log only
let lastAnswer = null; // {event, followers, pending: ids still pending when it was answered, byGm, by}
let collecting = false; // the events arriving now still belong to that answer's command
let sending = 0; // commands this page sent that have no acknowledgement yet
// A result card belongs to its moment: it closes by itself once the game's clock moves on
// (the state after the answer is its moment; a later one is not), after this long, and with
// the next prompt.
const ANSWER_KEEPS_MS = 2 * 60 * 1000;
let answerTimer = null;
const showStatus = statusPill($("#status"));
const addEvent = eventLog($("#log"), { names: () => namesOf(state), selfId: () => (me ? me.id : null) });
// "Ver anteriores": the events older than the ones the page opened with, on request.
const older = olderEvents($("#log"), addEvent,
  (name, payload) => (conn ? conn.ask(name, payload) : Promise.resolve({ ok: false })));

/** A second device's link (`/jogador#token=…`): this phone takes that seat's token; the GM's
 * one-time invitation to a free seat (`/jogador#convite=…`): returned, to join with. The address
 * bar forgets either. */
function tokenFromLink() {
  const given = new URLSearchParams(window.location.hash.slice(1));
  const token = given.get("token");
  const invitation = given.get("convite");
  if (!token && !invitation) return null;
  if (token) store.set(TOKEN_KEY, token);
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  return invitation;
}

function start() {
  const invitation = tokenFromLink();
  if (invitation) {
    identity = { convite: invitation };
    showTable("");
    open();
    return;
  }
  const token = store.get(TOKEN_KEY);
  if (token) {
    identity = { token };
    showTable(store.get(NAME_KEY) || "");
    open();
  } else {
    showJoin(...savedNotice());
  }
}

/** What the page said before it reloaded to the join form: [error, note]. */
function savedNotice() {
  let notice = {};
  try { notice = JSON.parse(store.get(NOTICE_KEY) || "{}") || {}; } catch (_e) { notice = {}; }
  store.remove(NOTICE_KEY);
  return [String(notice.motivo || ""), String(notice.nota || "")];
}

function open() {
  if (conn) conn.socket.disconnect();
  conn = connect({
    auth: () => identity,
    onStatus: (online) => { if (online) clearErrors(); showStatus(online); }, // no stale "Sem conexão…"
    onWelcome: welcome,
    onEvent: (event) => { addEvent(event); trackAnswer(event); },
    onState: (newState) => { loaded = true; collecting = false; render(newState); older.check(); },
    onRefused: refused,
  });
  // the server's headline of each command for this player (the heaviest news they may see)
  conn.socket.on("manchete", (data) => {
    const top = data && data.evento;
    if (!top || typeof top.text !== "string") return;
    const line = $("#headline");
    line.textContent = top.text;
    line.dataset.seq = String(top.seq ?? "");
    line.hidden = false;
    revealHeadline();
  });
  conn.socket.on("lugar_liberado", released);
  conn.socket.on("entrada_pendente", atTheDoor);
  conn.socket.on("entrada_recusada", turnedAway);
}

/** Joining by name: the GM says yes first. Until then the form stays, saying so. */
function atTheDoor(data) {
  const said = $("#join-note");
  said.textContent = sentence(data && typeof data.mensagem === "string" ? data.mensagem : "");
  said.hidden = !said.textContent;
  $("#join button[type=submit]").disabled = true;
}

/** The GM said no: no connection, the form again with why. */
function turnedAway(data) {
  if (conn) conn.socket.disconnect();
  conn = null;
  identity = null;
  $("#join button[type=submit]").disabled = false;
  showJoin(sentence(data && typeof data.motivo === "string" ? data.motivo : ""));
}

function welcome(data) {
  const player = data.jogador && typeof data.jogador === "object" ? data.jogador : {};
  me = { id: pick(player, "id") || null, nome: pick(player, "nome") || identity.nome || store.get(NAME_KEY) || "" };
  if (data.token) {
    store.set(TOKEN_KEY, data.token);
    identity = { token: data.token }; // later reconnects rejoin as the same player
  }
  store.set(NAME_KEY, me.nome);
  showReportLink(identity && identity.token);
  deviceLink($("#device"), { link: () => (conn ? conn.ask("aparelho") : { ok: false }), name: () => (me ? me.nome : "") });
  showDice();
  showTable(me.nome);
  render(state);
}

// This player's version of the session report: only what they saw (the token POSTed).
reportLink($("#report-link"), () => (identity && identity.token) || "");
function showReportLink(token) {
  $("#report-link").hidden = !token;
}

function refused(reason) {
  // A refused token means the table no longer knows it (a new session, a freed seat): ask for
  // the name again.
  if (identity && identity.token) forget();
  showJoin(reason);
}

/** This phone's seat was freed (by the GM, or "Sair" on another of its devices): its token no
 * longer works; back to the join form, saying why. */
function released(data) {
  const reason = data && typeof data.motivo === "string" ? data.motivo : "";
  leaveTable({ motivo: sentence(reason) });
}

/** Let go of the table — no connection, no token — and start the page again at the join form
 * (nothing of the seat left on it), with `notice` ({motivo} or {nota}) shown there. */
function leaveTable(notice) {
  if (conn) conn.socket.disconnect();
  conn = null;
  forget();
  store.set(NOTICE_KEY, JSON.stringify(notice));
  window.location.reload();
}

function showJoin(message = "", note = "") {
  $("#table").hidden = true;
  showReportLink(null);
  $("#leave").hidden = true;
  $("#status").hidden = true;
  $("#who").textContent = label("jogador.quem_sem_nome");
  $("#join").hidden = false;
  const error = $("#join-error");
  error.textContent = message;
  error.hidden = !message;
  const said = $("#join-note");
  said.textContent = note;
  said.hidden = !note;
  $("#nome").value = store.get(NAME_KEY) || $("#nome").value;
}

function showTable(name) {
  $("#join").hidden = true;
  $("#join button[type=submit]").disabled = false;
  $("#table").hidden = false;
  $("#leave").hidden = false;
  $("#status").hidden = false;
  $("#who").textContent = name ? label("jogador.quem", { nome: name }) : label("jogador.quem_sem_nome");
  showWaiting(waiting);
}

let waiting = 0; // prompts waiting for this player's answer

/** A phone lying on the table: the tab title counts the waiting prompts, "(1) Mesa — Ana". */
function showWaiting(count) {
  waiting = count;
  document.title = promptTitleText(count, (me && me.nome) || store.get(NAME_KEY) || "");
}

/** A new prompt arrived: vibrate where the browser allows it — not before the first tap on
 * this page (a reloaded phone with a prompt pending): Chromium refuses it then and logs an
 * error in the console. */
function notify() {
  if (typeof navigator.vibrate !== "function") return;
  if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
  try { navigator.vibrate([200, 100, 200]); } catch (error) { /* not allowed here: the title still counts */ }
}

function forget() {
  store.remove(TOKEN_KEY);
  identity = null;
  me = null;
}

$("#join").addEventListener("submit", (event) => {
  event.preventDefault();
  const nome = $("#nome").value.trim();
  if (!nome) return;
  identity = { nome };
  store.set(NAME_KEY, nome);
  $("#join-error").hidden = true;
  $("#join-note").hidden = true;
  open();
});

const leaving = leaveDialog({
  name: () => (me && me.nome) || store.get(NAME_KEY) || "",
  leave: () => (conn ? conn.ask("sair") : Promise.resolve({ ok: false })),
  left: () => {
    const name = (me && me.nome) || store.get(NAME_KEY) || "";
    store.remove(NAME_KEY);
    leaveTable({ nota: seatText("saiu", { nome: name }) });
  },
});
$("#leave").addEventListener("click", () => leaving.open());

/** The dice the player rolls with a tap (tables/paginas.yaml `dados_jogador`). */
function showDice() {
  fill($("#dice"), pages().dados_jogador.map((die) => el("button", { type: "button", "data-comando": `rolar 1${die}`, text: die })));
}

/** Send a command. A refusal is shown by `show` (the dice card's line unless a prompt card
 * passes its own); an accepted command clears every refusal on the page. */
async function run(text, show = showDiceError) {
  if (!conn) return { ok: false };
  sending += 1;
  let ack;
  try {
    ack = await conn.send(text);
  } finally {
    sending -= 1;
  }
  if (ack.ok) clearErrors();
  else show(ack.error || label("conexao.comando_recusado"), ack);
  return ack;
}

function showDiceError(message) {
  const error = $("#command-error");
  error.textContent = sentence(message);
  error.hidden = false;
  error.scrollIntoView({ block: "nearest" });
}

function clearErrors() {
  document.querySelectorAll("#table .error").forEach((node) => { node.hidden = true; node.textContent = ""; });
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  if (button && button.dataset.comando !== undefined) run(button.dataset.comando);
});

function myCharacter() {
  return partyOf(state).find((c) => pick(c, "proprio") === true)
    || partyOf(state).find((c) => me && (pick(c, "id") === me.id || charName(c) === me.nome)) || null;
}

function render(newState) {
  state = newState || {};
  if (lastAnswer) { // the first state after the answer is its moment; the clock moving on ends it
    const minutes = pick(state, "minutos");
    if (lastAnswer.minutes === undefined) lastAnswer.minutes = minutes;
    else if (minutes !== lastAnswer.minutes) hideAnswer();
  }
  fill($("#glance"), glance(state));
  const mine = myCharacter();
  fill($("#me"), mine ? characterCard(mine, { me: true }) : el("p", { class: "empty", text: label("ficha.aguardando") }));
  const others = partyOf(state).filter((c) => c !== mine && !(me && pick(c, "id") === me.id));
  fill($("#party"), others.length
    ? el("div", { class: "party" }, others.map((c) => characterCard(c)))
    : el("p", { class: "empty", text: label("ficha.so_voce") }));
  renderPrompts();
}

let promptsKey = null;

function renderPrompts() {
  const key = JSON.stringify([promptsOf(state), me && me.id]);
  if (key === promptsKey) return; // keep a half-typed value while nothing changed
  promptsKey = key;
  const mine = promptsOf(state).map(promptInfo)
    .filter((p) => !me || !me.id || !p.character || p.character === me.id);
  mine.forEach((p) => knownPrompts.set(p.id, p));
  if (lastAnswer && mine.some((p) => !lastAnswer.pending.has(p.id))) hideAnswer(); // the next prompt
  const fresh = mine.filter((p) => !seenPrompts.has(p.id));
  fresh.forEach((p) => seenPrompts.add(p.id));
  if (fresh.length) notify();
  showWaiting(mine.length);
  // In the order they were asked: the older ones compact (still answerable, any order), the
  // newest in full — the one the table is waiting for.
  const newest = mine[mine.length - 1];
  const older = mine.slice(0, -1);
  fill($("#prompts"),
    older.length ? el("div", { class: "older-prompts" },
      el("p", { class: "prompt-count", text: label("pedidos.quantos", { n: mine.length }) }),
      older.map((p) => promptCard(p, { compact: true, send: run }))) : null,
    newest ? promptCard(newest, { send: run }) : null);
  if (fresh.length) {
    // the new prompt in view, with the headline just above it (what just happened) unhidden
    // when both fit on the screen (the newest card first to the eye when they do not)
    const top = $("#headline");
    const card = $("#prompts").lastElementChild;
    const fits = !top.hidden && card && card.getBoundingClientRect().top
      - top.getBoundingClientRect().top + 200 < window.innerHeight - 80;
    (fits ? top : $("#prompts")).scrollIntoView({ block: "start", behavior: "smooth" });
  }
}

/** A fresh headline scrolled back into view when the page sits just past it (a prompt
 * scrolled it under the sticky top bar); a player reading further down is left there. */
function revealHeadline() {
  const line = $("#headline");
  const bar = document.querySelector("header");
  const under = bar ? bar.getBoundingClientRect().bottom : 0;
  const box = line.getBoundingClientRect();
  if (box.top < under && box.bottom > under - window.innerHeight / 2) {
    line.scrollIntoView({ block: "start" });
  }
}

/** Someone else answered a group prompt this phone was showing (the party's escape test: the
 * first answer counts for all): its card closes here, and the result card says who rolled. */
function groupAnswerBy(event) {
  if (event.kind !== "resposta" || !me || isOwnAnswer(event, me.id)) return null;
  const data = event.data && typeof event.data === "object" ? event.data : {};
  const prompt = knownPrompts.get(data.pedido);
  if (!prompt || !prompt.group || !seenPrompts.has(prompt.id)) return null;
  return data.personagem ? namesOf(state)[data.personagem] || String(data.personagem) : label("resposta.o_mestre");
}

/** Follow the player's own answers (and the answers to a group prompt they were shown): a
 * `resposta` starts a result card (except in the history replayed when the page opens); the
 * events of the same command that come right after it fill it in; any other event or the next
 * estado closes it. */
function trackAnswer(event) {
  const pedido = event.data && typeof event.data === "object" ? event.data.pedido : undefined;
  if (event.kind === "pedido" && pedido && typeof pedido === "object") {
    const p = promptInfo(pedido);
    knownPrompts.set(p.id, p);
  }
  const by = loaded ? groupAnswerBy(event) : null;
  if (loaded && me && (isOwnAnswer(event, me.id) || by)) {
    const pending = new Set(promptsOf(state).map((p) => promptInfo(p).id).filter((id) => id !== pedido));
    // the server sends a command's events before its acknowledgement: an answer that arrives
    // while none of this page's commands is waiting for one was sent by the GM
    lastAnswer = { event, followers: [], pending, byGm: !by && sending === 0, by, minutes: undefined };
    clearTimeout(answerTimer);
    answerTimer = setTimeout(hideAnswer, ANSWER_KEEPS_MS);
    collecting = true;
  } else if (collecting && lastAnswer && followsAnswer(event, lastAnswer.event)) {
    lastAnswer.followers.push(event);
  } else {
    collecting = false;
    return;
  }
  showAnswer();
}

function showAnswer() {
  const { event, followers, byGm, by } = lastAnswer;
  const data = event.data || {};
  const { headline, details, ok } = answerSummary(event, followers, knownPrompts.get(data.pedido) || null, byGm, by);
  const box = $("#answer-result");
  const verdict = ok === true ? " passed" : ok === false ? " failed" : "";
  fill(box, el("div", { class: `answer-card${verdict}`, "data-pedido": data.pedido ?? "", "data-seq": event.seq },
    el("div", { class: "card-head" },
      el("h2", { text: label("resposta.titulo", { titulo: promptTitle(data.tipo) }) }),
      el("button", { type: "button", class: "dismiss", "aria-label": label("resposta.fechar"), title: label("resposta.fechar_curto"),
        text: "×", onclick: hideAnswer })),
    el("p", { class: "headline", text: headline }),
    details.length ? el("ul", { class: "details" }, details.map((line) => el("li", { text: line }))) : null));
  box.hidden = false;
}

function hideAnswer() {
  clearTimeout(answerTimer);
  lastAnswer = null;
  collecting = false;
  const box = $("#answer-result");
  box.hidden = true;
  fill(box);
}

window.mesa = { get state() { return state; }, get me() { return me; }, get conn() { return conn; } };
start();
