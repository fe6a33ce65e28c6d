// The GM's page: command box, quick buttons per mode, live log, state, prompts, GM-only notes.
import { $, el, fill, pick, asList, connect, eventLog, sentence, statusPill, store } from "./common.js";
import { glance, modeOf, modeName, partyList, promptsOf, promptInfo, promptTitle, promptDetail, namesOf, tallyView } from "./view.js";
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
    showLastResult(asList(ack.events));
  } else {
    error.textContent = sentence(ack.error || "Comando recusado.");
    error.hidden = false;
    $("#last-result").hidden = true;
  }
  return ack;
}

/** The outcome of the GM's last command, one short line per event, just above the command box:
 * on a phone the log is far below the buttons. Tapping it scrolls to the log. */
function showLastResult(events) {
  const box = $("#last-result");
  const lines = events.filter((e) => e.kind !== "ajuda" && e.kind !== "estado").map(resultLine);
  fill(box, lines);
  box.hidden = lines.length === 0;
}

function resultLine(event) {
  const data = event.data && typeof event.data === "object" ? event.data : {};
  const vis = typeof event.visibility === "string" ? event.visibility.split(":")[0] : "public";
  const line = el("div", { class: `line vis-${vis}`, title: event.text || "" });
  if (event.kind === "rolagem" && data.tabela) {
    line.append(`${data.tabela}`, el("span", { class: "total", text: data.total ?? "" }),
      data.resultado ? String(data.resultado) : "");
  } else {
    line.append(String(event.text ?? ""));
  }
  return line;
}

$("#last-result").addEventListener("click", () => $("#log").scrollIntoView({ block: "start", behavior: "smooth" }));

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
  renderAlerts();
  renderSecrets();
}

/** What the GM must not miss, inside "Agora": the party is lost, monsters are on their way. */
function renderAlerts() {
  const gm = pick(state, "mestre") || {};
  const alert = (text, cls = "") => el("div", { class: `gm-alert ${cls}` },
    el("span", { class: "badge gm", text: "Só o Mestre" }), text);
  fill($("#gm-alerts"), [
    pick(gm, "perdido") ? alert("O grupo está PERDIDO — os jogadores não sabem.", "bad") : null,
    pick(gm, "encontro_pendente") ? alert("Encontro rolado: os monstros chegam no fim do turno.", "bad") : null,
  ]);
}

let promptsKey = null;

function renderPrompts() {
  const prompts = promptsOf(state);
  const key = JSON.stringify([prompts, namesOf(state)]);
  if (key === promptsKey) return; // keep a half-typed value while nothing changed
  promptsKey = key;
  $("#prompts-card").hidden = prompts.length === 0;
  $("#prompts-count").textContent = prompts.length > 1 ? `(${prompts.length})` : "";
  const names = namesOf(state);
  fill($("#prompts"), prompts.map((raw) => gmPromptCard(promptInfo(raw), names)));
}

/** A pending prompt, whatever its place in the queue: roll or choose for the player, type the
 * value of a die rolled at the table, or cancel it. */
function gmPromptCard(p, names) {
  const who = p.character ? names[p.character] || p.character : "Mestre";
  const detail = promptDetail(p);
  let answers;
  if (p.options.length) {
    answers = el("div", { class: "options" }, p.options.map((option) =>
      el("button", { type: "button", "data-comando": answerText(p, { option }), text: optionLabel(option) })));
  } else {
    const valueInput = el("input", { type: "number", inputmode: "numeric", id: `valor-${p.id}`, min: "1" });
    const form = el("form", { class: "manual" },
      el("label", { for: `valor-${p.id}`, text: `Rolou na mesa? Valor do ${p.dice}:` }),
      valueInput,
      el("button", { type: "submit", text: "Responder" }));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (valueInput.value.trim()) run(answerText(p, { value: valueInput.value.trim() }));
    });
    answers = [
      el("button", { type: "button", class: "primary", "data-comando": answerText(p, {}),
        text: p.character ? `Rolar por ${who}` : `Rolar ${p.dice}` }),
      form,
    ];
  }
  return el("div", { class: "prompt for-gm", "data-pedido": p.id ?? "" },
    el("h3", {}, el("span", { class: "who", text: who }), ` · ${promptTitle(p.kind)}`),
    el("p", { text: p.text }),
    detail ? el("p", { class: "dice", text: detail }) : null,
    answers,
    el("button", { type: "button", class: "danger", "data-comando": cancelText(p), text: "Cancelar pedido" }));
}

function renderSecrets() {
  const gm = pick(state, "mestre") || {};
  const lost = pick(gm, "perdido");
  const monsters = asList(pick(gm, "monstros"));
  const secrets = asList(pick(gm, "segredos"));
  const blocks = [];
  if (lost === false && modeOf(state) === "viagem") {
    blocks.push(el("p", { text: "O grupo sabe onde está." }));
  }
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
