// The GM's page: command box, quick buttons per mode, live log, state, prompts, GM-only notes.
import { $, el, fill, pick, asList, connect, eventLog, sentence, statusPill, store } from "./common.js";
import { glance, modeOf, modeName, partyList, promptsOf, promptInfo, namesOf, tallyView } from "./view.js";
import { answerText, cancelText, optionLabel } from "./commands.js";

const TOKEN_KEY = "mesa.mestre.token";

/** Quick buttons per mode: [label, command text]. */
const QUICK = {
  viagem: [
    ["Avançar", "avançar"], ["Explorar", "explorar"], ["Forragear", "forragear"], ["Caçar", "caçar"],
    ["Pescar", "pescar"], ["Criar munição", "criar munição"], ["Acampar", "acampar"],
    ["Descansar", "descansar"], ["Encontro", "encontro"], ["Surpresa", "surpresa"],
    ["Fugir", "fugir"], ["Entrar na masmorra", "masmorra"],
  ],
  masmorra: [
    ["Turno", "turno"], ["Descansar", "descansar"], ["Dormir", "dormir"], ["Surpresa", "surpresa"],
    ["Acender tocha", "acender tocha"], ["Acender lanterna", "acender lanterna"],
    ["Rolagem secreta", "segredo"], ["Fugir", "fugir"], ["Sair da masmorra", "viagem"],
  ],
  perseguicao: [
    ["Fuga sucesso", "fuga sucesso"], ["Fuga falha", "fuga falha"],
    ["Ataque à distância", "ataque à distância"], ["Surpresa", "surpresa"],
  ],
};

function gmToken() {
  const fromUrl = new URLSearchParams(window.location.search).get("token");
  if (fromUrl) store.set(TOKEN_KEY, fromUrl);
  return fromUrl || store.get(TOKEN_KEY) || "";
}

let state = {};
let renderedMode = null;
const showStatus = statusPill($("#status"));
const addEvent = eventLog($("#log"), { names: () => namesOf(state) });

const conn = connect({
  auth: () => ({ token: gmToken() }),
  onStatus: showStatus,
  onEvent: addEvent,
  onState: render,
  onRefused: (reason) => {
    const box = $("#refused");
    box.textContent = reason;
    box.hidden = false;
  },
  onWelcome: () => { $("#refused").hidden = true; },
});

/** Run a command text and show the ack's error, if any, under the command box. */
async function run(text) {
  const error = $("#command-error");
  const ack = await conn.send(text);
  if (ack.ok) {
    error.hidden = true;
    error.textContent = "";
  } else {
    error.textContent = sentence(ack.error || "Comando recusado.");
    error.hidden = false;
  }
  return ack;
}

$("#command-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = $("#command");
  const text = input.value.trim();
  if (!text) return;
  const ack = await run(text);
  if (ack.ok) input.value = "";
  input.focus();
});

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-comando]");
  if (button) run(button.dataset.comando);
});
$("#undo").addEventListener("click", () => run("desfazer"));

function render(newState) {
  state = newState;
  const mode = modeOf(state);
  fill($("#glance"), glance(state));
  $("#mode-name").textContent = modeName(state).toLowerCase();
  if (mode !== renderedMode) {
    renderedMode = mode;
    fill($("#quick"), asList(QUICK[mode] || QUICK.viagem).map(([label, text]) =>
      el("button", { type: "button", "data-comando": text, text: label })));
  }
  fill($("#party"), partyList(state));
  fill($("#tally"), tallyView(state));
  renderPrompts();
  renderSecrets();
}

let promptsKey = null;

function renderPrompts() {
  const prompts = promptsOf(state);
  const key = JSON.stringify([prompts, namesOf(state)]);
  if (key === promptsKey) return; // keep a half-typed value while nothing changed
  promptsKey = key;
  $("#prompts-card").hidden = prompts.length === 0;
  const names = namesOf(state);
  fill($("#prompts"), prompts.map((raw, index) => gmPromptCard(promptInfo(raw), names, index === 0)));
}

/** A pending prompt: roll or choose for the player (oldest prompt), type a value, or cancel. */
function gmPromptCard(p, names, oldest) {
  const who = names[p.character] || p.character || "Mestre";
  const valueInput = el("input", { type: "number", inputmode: "numeric", id: `valor-${p.id}`, min: "1" });
  const form = el("form", { class: "manual" },
    el("label", { for: `valor-${p.id}`, text: `Valor do dado (${p.dice})` }),
    valueInput,
    el("button", { type: "submit", text: "Responder" }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (valueInput.value.trim()) run(answerText(p, { value: valueInput.value.trim() }));
  });
  let answers;
  if (!oldest) {
    answers = el("p", { class: "dice", text: "Na fila: responda antes o pedido de cima." });
  } else if (p.options.length) {
    answers = el("div", { class: "options" }, p.options.map((option) =>
      el("button", { type: "button", "data-comando": answerText(p, { option }), text: optionLabel(option) })));
  } else {
    answers = el("button", { type: "button", class: "primary", "data-comando": answerText(p, {}), text: `Rolar por ${who}` });
  }
  return el("div", { class: "prompt for-gm", "data-pedido": p.id ?? "" },
    el("h3", { text: `${who}: ${kindName(p.kind)}` }),
    el("p", { text: p.text }),
    answers,
    p.options.length ? null : form,
    el("button", { type: "button", class: "danger", "data-comando": cancelText(p), text: "Cancelar pedido" }));
}

const KIND_NAMES = {
  panico: "teste de pânico", marcha_forcada: "marcha forçada", interrupcao: "descanso interrompido",
  fuga: "teste de fuga", escolha_marcha: "falhou na marcha forçada", confirmar_perseguicao: "perseguição longa",
};
const kindName = (kind) => KIND_NAMES[kind] || kind || "pedido";

function renderSecrets() {
  const gm = pick(state, "mestre") || {};
  const lost = pick(gm, "perdido");
  const pending = pick(gm, "encontro_pendente");
  const monsters = asList(pick(gm, "monstros"));
  const secrets = asList(pick(gm, "segredos"));
  const blocks = [];
  if (lost !== undefined) {
    blocks.push(el("p", {
      class: lost ? "error" : "",
      text: lost ? "O grupo está PERDIDO — os jogadores não sabem." : "O grupo sabe onde está.",
    }));
  }
  if (pending) blocks.push(el("p", { class: "error", text: "Encontro rolado: os monstros chegam no fim do turno." }));
  if (monsters.length) {
    blocks.push(el("h3", { text: "Monstros da masmorra" }), el("ul", {}, monsters.map((m) => el("li", {
      text: m && typeof m === "object"
        ? [pick(m, "nome"), pick(m, "sala") ? `sala ${pick(m, "sala")}` : null, pick(m, "alertado") ? "alertado" : null]
          .filter(Boolean).join(" · ")
        : String(m),
    }))));
  }
  if (secrets.length) {
    blocks.push(el("h3", { text: "Rolagens secretas" }), el("ul", {}, secrets.slice(-8).reverse().map((s) =>
      el("li", { text: typeof s === "object" ? pick(s, "texto") || JSON.stringify(s) : String(s) }))));
  }
  fill($("#secrets"), blocks.length ? blocks : [el("p", { class: "empty", text: "Nenhum segredo por enquanto." })]);
}

// Exposed for debugging at the table (and tests): the last state received.
window.mesa = { get state() { return state; }, run, conn };
