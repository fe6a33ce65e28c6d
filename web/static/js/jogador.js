// The player's phone: join by name, then the public table, their character and their prompts.
import { $, el, fill, pick, connect, eventLog, sentence, statusPill, store } from "./common.js";
import { glance, partyOf, characterCard, promptsOf, promptInfo, promptTitle, promptDetail, namesOf, charName } from "./view.js";
import { answerText, optionLabel } from "./commands.js";

const TOKEN_KEY = "mesa.jogador.token";
const NAME_KEY = "mesa.jogador.nome";
const DICE = ["d4", "d6", "d8", "d10", "d12", "d20"];

let conn = null;
let identity = null; // {token} or {nome}
let me = null; // {id, nome}
let state = {};
const seenPrompts = new Set();
const showStatus = statusPill($("#status"));
const addEvent = eventLog($("#log"), { names: () => namesOf(state), selfId: () => (me ? me.id : null) });

function start() {
  const token = store.get(TOKEN_KEY);
  if (token) {
    identity = { token };
    showTable(store.get(NAME_KEY) || "");
    open();
  } else {
    showJoin();
  }
}

function open() {
  if (conn) conn.socket.disconnect();
  conn = connect({
    auth: () => identity,
    onStatus: showStatus,
    onWelcome: welcome,
    onEvent: addEvent,
    onState: render,
    onRefused: refused,
  });
}

function welcome(data) {
  const player = data.jogador && typeof data.jogador === "object" ? data.jogador : {};
  me = { id: pick(player, "id") || null, nome: pick(player, "nome") || identity.nome || store.get(NAME_KEY) || "" };
  if (data.token) {
    store.set(TOKEN_KEY, data.token);
    identity = { token: data.token }; // later reconnects rejoin as the same player
  }
  store.set(NAME_KEY, me.nome);
  showTable(me.nome);
  render(state);
}

function refused(reason) {
  // A refused token means the table no longer knows it (a new session): ask for the name again.
  if (identity && identity.token) forget();
  showJoin(reason);
}

function showJoin(message = "") {
  $("#table").hidden = true;
  $("#leave").hidden = true;
  $("#status").hidden = true;
  $("#who").textContent = "· Jogador";
  $("#join").hidden = false;
  const error = $("#join-error");
  error.textContent = message;
  error.hidden = !message;
  $("#nome").value = store.get(NAME_KEY) || $("#nome").value;
}

function showTable(name) {
  $("#join").hidden = true;
  $("#table").hidden = false;
  $("#leave").hidden = false;
  $("#status").hidden = false;
  $("#who").textContent = name ? `· ${name}` : "· Jogador";
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
  open();
});

$("#leave").addEventListener("click", () => {
  if (conn) conn.socket.disconnect();
  conn = null;
  forget();
  store.remove(NAME_KEY);
  window.location.reload();
});

fill($("#dice"), DICE.map((die) => el("button", { type: "button", "data-comando": `rolar 1${die}`, text: die })));

async function run(text) {
  const error = $("#command-error");
  if (!conn) return;
  const ack = await conn.send(text);
  error.hidden = !!ack.ok;
  error.textContent = ack.ok ? "" : sentence(ack.error || "Comando recusado.");
  if (!ack.ok) error.scrollIntoView({ block: "nearest" });
  return ack;
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-comando]");
  if (button) run(button.dataset.comando);
});

function myCharacter() {
  return partyOf(state).find((c) => pick(c, "proprio") === true)
    || partyOf(state).find((c) => me && (pick(c, "id") === me.id || charName(c) === me.nome)) || null;
}

function render(newState) {
  state = newState || {};
  fill($("#glance"), glance(state));
  const mine = myCharacter();
  fill($("#me"), mine ? characterCard(mine, { me: true }) : el("p", { class: "empty", text: "Aguardando…" }));
  const others = partyOf(state).filter((c) => c !== mine && !(me && pick(c, "id") === me.id));
  fill($("#party"), others.length
    ? el("div", { class: "party" }, others.map((c) => characterCard(c)))
    : el("p", { class: "empty", text: "Só você por enquanto." }));
  renderPrompts();
}

let promptsKey = null;

function renderPrompts() {
  const key = JSON.stringify([promptsOf(state), me && me.id]);
  if (key === promptsKey) return; // keep a half-typed value while nothing changed
  promptsKey = key;
  const mine = promptsOf(state).map(promptInfo)
    .filter((p) => !me || !me.id || !p.character || p.character === me.id);
  const fresh = mine.filter((p) => !seenPrompts.has(p.id));
  fresh.forEach((p) => seenPrompts.add(p.id));
  if (fresh.length && typeof navigator.vibrate === "function") navigator.vibrate([200, 100, 200]);
  // Every prompt gets its own card and buttons: the answers name the prompt, so any order works.
  fill($("#prompts"), mine.length > 1
    ? el("p", { class: "prompt-count", text: `${mine.length} pedidos para você — responda em qualquer ordem.` })
    : null,
  mine.map(promptCard));
  if (fresh.length) $("#prompts").scrollIntoView({ block: "start", behavior: "smooth" });
}

function promptCard(p) {
  const title = promptTitle(p.kind);
  const frame = (...children) => el("div", {
    class: "prompt", role: "alertdialog", "aria-label": title, "data-pedido": p.id ?? "",
  }, el("h3", { text: title }), el("p", { text: p.text }), ...children);
  if (p.options.length) {
    return frame(el("div", { class: "options" }, p.options.map((option) => el("button", {
      type: "button", class: "big", "data-comando": answerText(p, { option }), text: optionLabel(option),
    }))));
  }
  const detail = promptDetail(p, { always: true });
  const inputId = `valor-${p.id}`;
  const input = el("input", { type: "number", id: inputId, inputmode: "numeric", min: "1" });
  const form = el("form", { class: "manual" },
    el("label", { for: inputId, text: "Rolou o dado na mesa? Digite o valor:" }),
    input, el("button", { type: "submit", text: "Enviar valor" }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (input.value.trim()) run(answerText(p, { value: input.value.trim() }));
  });
  return frame(
    detail ? el("p", { class: "dice", text: detail }) : null,
    el("button", { type: "button", class: "primary big", "data-comando": answerText(p, {}), text: "Rolar" }),
    form);
}


window.mesa = { get state() { return state; }, get me() { return me; }, get conn() { return conn; } };
start();
