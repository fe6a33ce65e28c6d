// The GM's page: command box, quick buttons per mode, live log, state, prompts, GM-only notes.
import { $, el, fill, pick, asList, connect, eventLog, olderEvents, rollWho, sentence, statusPill, store } from "./common.js";
import { glance, modeOf, modeName, dungeonOf, partyList, promptsOf, promptInfo, namesOf, tallyView, splitPrompts } from "./view.js";
import { cancelText } from "./commands.js";
import { promptCard } from "./prompt-card.js";
import { label, pages } from "./pages.js";
import { undoTracker } from "./undo.js";
import { entryRequests, seatsList } from "./lugares.js";
import { rulesScreen } from "./regras.js";
import { reportLink } from "./relatorio-link.js";

const TOKEN_KEY = "mesa.mestre.token";
// On a phone the bar at the bottom keeps to the command box and ONE line of the last result.
const PHONE = window.matchMedia("(max-width: 699px)");
// The last history notice the GM closed, per campaign (a GM token is its campaign's).
const noticesReadKey = () => "mesa.mestre.avisos_lidos:" + gmToken();
// System commands the session records when a campaign opens (the rules changed since it was
// last played, an update from an older release, damaged states): named in the GM's welcome.
let noticeCommands = new Set();
// How many of the server's ranked last-result lines fit (tables/paginas.yaml ultimo_resultado).
const maxLines = (phone) => {
  const rules = pages().ultimo_resultado || {};
  return Math.max(1, Number(phone ? rules.linhas_no_celular : rules.linhas) || 1);
};

// The token comes in the link (`#token=…` from the terminal, or `?token=…`): this browser keeps
// it and the address bar and its history entry forget it, as a second device's link does.
function gmToken() {
  const fromUrl = new URLSearchParams(window.location.hash.slice(1)).get("token")
    || new URLSearchParams(window.location.search).get("token");
  if (fromUrl) {
    store.set(TOKEN_KEY, fromUrl);
    window.history.replaceState(null, "", window.location.pathname);
  }
  return fromUrl || store.get(TOKEN_KEY) || "";
}
gmToken(); // keep the link's token now, and take it out of the address bar
// A login the 403 page POSTed (mestre-link.js): the entry becomes a plain /mestre, so a reload
// asks again (through that page) instead of sending the form once more.
window.history.replaceState(null, "", window.location.pathname);

// The session report opens with this GM's token, POSTed (the report page has no socket of its own).
reportLink($("#report-link"), gmToken);

let state = {};
let renderedMode = null;
const showStatus = statusPill($("#status"));
const addEvent = eventLog($("#log"), { names: () => namesOf(state) });
const undos = undoTracker();

// After every command's events (or a burst's) the server sends `resultado`, their ranked
// last-result lines (companion/history/outcome.py): whatever happened — the GM's own command,
// a player's answer, a prompt — becomes the last result.
const conn = connect({
  auth: () => ({ token: gmToken() }),
  onStatus: (online) => {
    if (!online) undos.reconnecting(); else clearErrors(); // no stale "Sem conexão…"
    showStatus(online);
  },
  onEvent: (event) => {
    addEvent(event); greyOut(undos.event(event)); showUndoTarget(); noteHistory(event);
  },
  onState: (newState) => { undos.state(); render(newState); showUndoTarget(); older.check(); },
  onRefused: (reason) => {
    const box = $("#refused");
    box.textContent = reason;
    box.hidden = false;
  },
  onWelcome: (data) => {
    $("#refused").hidden = true;
    seats.show(data.lugares);
    entries.show(data.entradas);
    noticeCommands = new Set(asList(data.comandos_de_aviso));
  },
});
// "Ver anteriores": the events older than the ones the page opened with, on request.
const older = olderEvents($("#log"), addEvent, (name, payload) => conn.ask(name, payload));
conn.socket.on("resultado", (data) => {
  const lines = asList(data && data.linhas);
  undos.headlines(lines);
  showUndoTarget();
  if ($("#command-error").hidden) showLastResult(lines, Number(data && data.total) || lines.length);
});
// The seats (who holds each character, on the air or not, since when): in the welcome, then
// whenever they change. "Liberar" frees one: its phones leave, the next join takes it.
const seats = seatsList($("#seats"), (id) => conn.ask("liberar", { personagem: id }),
  (id) => conn.ask("convite", { personagem: id })); // a free seat's one-time link and QR code
conn.socket.on("lugares", (data) => seats.show(data && data.lugares));
// Who asks to join (a name waits at the door until the GM answers): Aceitar or Recusar.
const entries = entryRequests($("#entries"), (id, yes) => conn.ask("entrada", { pedido: id, aceitar: yes }));
conn.socket.on("entradas", (data) => entries.show(data && data.pedidos));
// The "Regras" screen: the campaign's regions, encounter tables and house values (regras.js).
rulesScreen({ ask: (payload) => conn.ask("regras", payload), token: gmToken });

/** Run a command text. A refusal goes to `show` (by default the compact box by the command
 * box); an accepted command clears every refusal on the page and shows its outcome. */
async function run(text, show = showError) {
  const ack = await conn.send(text);
  if (ack.ok) {
    clearErrors();
    showAnswer(asList(ack.consulta));
    // `repetir`: the last game result again, headline first, in its box too
    if (ack.repetido) showLastResult(asList(ack.events), asList(ack.events).length);
  } else {
    show(sentence(ack.error || label("conexao.comando_recusado")), ack);
  }
  return ack;
}

/** What the GM asked to read (the acknowledgement's `consulta`: the whole answer to a
 * question — `tempo`, `estado`, `registro`, `ajuda` — or, for `repetir`, the last game result)
 * opens right above the command box, where the GM is looking; any other accepted command
 * closes it. */
function showAnswer(views) {
  const panel = $("#answer");
  panel.hidden = views.length === 0;
  if (!views.length) return;
  $("#answer-text").textContent = views.map((e) => String(e.text ?? "")).join("\n\n");
  $("#answer-text").scrollTop = 0;
}
$("#answer-close").addEventListener("click", () => { $("#answer").hidden = true; });

/** The refusal under the command box: at most ~3 lines (tap to read it all), a × to close it,
 * gone with the next accepted command. It replaces the last result while it is shown. */
function showError(message) {
  const box = $("#command-error");
  const text = $("#command-error-text");
  text.textContent = message;
  box.classList.remove("open", "long");
  box.hidden = false;
  $("#last-result").hidden = true;
  box.classList.toggle("long", text.scrollHeight > text.clientHeight + 1);
}

function clearErrors() {
  const box = $("#command-error");
  box.hidden = true;
  box.classList.remove("open", "long");
  $("#command-error-text").textContent = "";
  document.querySelectorAll(".prompt .error").forEach((node) => { node.hidden = true; node.textContent = ""; });
}

$("#command-error-text").addEventListener("click", () => {
  const box = $("#command-error");
  if (box.classList.contains("long") || box.classList.contains("open")) box.classList.toggle("open");
});
$("#command-error-close").addEventListener("click", () => {
  $("#command-error").hidden = true;
  $("#last-result").hidden = $("#last-result").childElementCount === 0;
});

/** The outcome of the last command just above the command box (on a phone the log is far
 * below the buttons): the first of the server's ranked lines that fit (the news first: an
 * encounter, the dark, a table's row), in log order, each wrapping to at most 3 lines, and how
 * many more the log has. Tapping it scrolls to the log. */
function showLastResult(ranked, total) {
  const box = $("#last-result");
  // in the server's order: the headline (the heaviest news) first
  const lines = ranked.slice(0, maxLines(PHONE.matches));
  const more = total - lines.length;
  fill(box, lines.map(resultLine), more > 0 && lines.length
    ? el("div", { class: "more", text: label("mestre.mais_no_registro", { n: more }) }) : null);
  box.hidden = lines.length === 0;
}

function resultLine(event) {
  const data = event.data && typeof event.data === "object" ? event.data : {};
  const vis = typeof event.visibility === "string" ? event.visibility.split(":")[0] : "public";
  const line = el("div", { class: `line ${event.kind || "relato"} vis-${vis}`, title: event.text || "", "data-seq": event.seq });
  if (event.kind === "rolagem" && data.tabela) {
    const who = rollWho(data);
    const result = data.resultado ? el("span", { class: "result-text", text: String(data.resultado) }) : null;
    const roll = [el("span", { class: "what", text: data.tabela }), " ", el("span", { class: "total", text: data.total ?? "" })];
    // a phone's one line leads with what the row says (the table's name can be cut)
    if (PHONE.matches && result) line.append(...(who ? [who, " "] : []), result, " · ", ...roll);
    else line.append(...(who ? [who, " "] : []), ...roll, " ", result || "");
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
  const button = event.target.closest("button");
  if (button && button.dataset.comando !== undefined) run(button.dataset.comando);
});
$("#undo").addEventListener("click", () => run("desfazer"));

/** The undone command's own log entries: greyed out and struck through. */
function greyOut(events) {
  for (const event of events) {
    const item = $("#log").querySelector(`li[data-seq="${Number(event.seq)}"]`);
    if (item) {
      item.classList.add("undone");
      item.title = label("mestre.desfeito");
    }
  }
}

/** Under "Desfazer", what it would take back (its command and first line), when the page can
 * tell for sure; just "Desfazer" otherwise. */
function showUndoTarget() {
  const button = $("#undo");
  const next = undos.next();
  const said = next ? next.events.filter((e) => String(e.text || "").trim()) : [];
  const first = (next && next.headline) || said[0];
  const what = first ? String(first.text) : "";
  if (button.dataset.what === what) return;
  button.dataset.what = what;
  // The name stays "Desfazer" (the line under it is its description, not part of its name).
  button.setAttribute("aria-label", label("mestre.desfazer"));
  fill(button, label("mestre.desfazer"), what ? el("small", { id: "undo-what", text: what }) : null);
  if (what) button.setAttribute("aria-describedby", "undo-what");
  else button.removeAttribute("aria-describedby");
  button.title = what ? label("mestre.desfazer_o_que", { comando: next.name, o_que: what }) : label("mestre.desfazer_ultimo");
}

function render(newState) {
  state = newState;
  const mode = modeOf(state);
  fill($("#glance"), glance(state));
  $("#mode-name").textContent = modeName(state).toLowerCase();
  if (mode !== renderedMode) {
    renderedMode = mode;
    fill($("#quick"), asList(pages().botoes[mode]).map((button) =>
      el("button", { type: "button", "data-comando": button.comando, text: button.rotulo })));
  }
  fill($("#party"), partyList(state));
  fill($("#tally"), tallyView(state));
  renderPrompts();
  renderAlerts();
  renderSecrets();
}

/** What opening the campaign told the GM (the rules changed, an update, a repaired file):
 * kept until the GM closes it, and not shown again after that (on this device). */
let notices = [];

function noteHistory(event) {
  if (!noticeCommands.has(event.command)) return;
  if (event.seq <= Number(store.get(noticesReadKey()) || 0)) return;
  notices.push(event);
  renderNotices();
}

function closeNotices() {
  const last = notices.length ? notices[notices.length - 1].seq : 0;
  store.set(noticesReadKey(), String(last));
  notices = [];
  renderNotices();
}

/** The notices open the page, above "Agora": read once, at the start of the evening. */
function renderNotices() {
  fill($("#gm-notices"), noticeCard());
}

function noticeCard() {
  if (!notices.length) return null;
  const [first, ...rest] = notices;
  return el("div", { class: "gm-alert notice", role: "status" },
    el("span", { class: "badge gm", text: label("registro.so_mestre") }),
    el("strong", { text: String(first.text ?? "") }),
    rest.length ? el("ul", {}, rest.map((e) => el("li", { text: String(e.text ?? "") }))) : null,
    el("button", { type: "button", class: "close-notice", text: label("mestre.entendi"), onclick: closeNotices }));
}

/** What the GM must not miss, inside "Agora": the party is lost, monsters are on their way. */
function renderAlerts() {
  const gm = pick(state, "mestre") || {};
  const alert = (text, cls = "") => el("div", { class: `gm-alert ${cls}` },
    el("span", { class: "badge gm", text: label("registro.so_mestre") }), text);
  fill($("#gm-alerts"), [
    // the banner belongs to the travel (in a dungeon, "Só o Mestre" keeps it for the way out)
    pick(gm, "perdido") && !dungeonOf(state) ? alert(label("mestre.perdido"), "bad") : null,
    pick(gm, "encontro_pendente") ? alert(label("mestre.encontro_rolado"), "bad") : null,
    // the day's last round without rest: the log's reminder, kept in view until the party rests
    pick(gm, "sem_descanso_hoje") ? alert(String(pick(gm, "sem_descanso_hoje")), "warn") : null,
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
  const { older } = splitPrompts(prompts.map(promptInfo));
  const old = new Set(older.map((p) => p.id));
  fill($("#prompts"), prompts.map((raw) => {
    const p = promptInfo(raw);
    const who = p.group ? label("mestre.pedido_do_grupo")
      : p.character ? names[p.character] || p.character : label("mestre.pedido_do_mestre");
    return promptCard(p, { gm: true, who, compact: old.has(p.id), send: run });
  }));
  renderCancelOld(older);
}

/** "Cancelar antigos": every prompt that is not its owner's newest, after a second tap. */
function renderCancelOld(older) {
  const button = $("#cancel-old");
  button.hidden = older.length === 0;
  button.classList.remove("armed");
  button.textContent = older.length === 1 ? label("mestre.cancelar_antigo") : label("mestre.cancelar_antigos", { n: older.length });
  button.onclick = async () => {
    if (!button.classList.contains("armed")) {
      button.classList.add("armed");
      button.textContent = label("mestre.confirmar_cancelar", { n: older.length });
      setTimeout(() => { if (button.isConnected) renderCancelOld(older); }, 4000);
      return;
    }
    button.disabled = true;
    for (const p of older) {
      const ack = await run(cancelText(p));
      if (!ack.ok) break;
    }
    button.disabled = false;
  };
}

function renderSecrets() {
  const gm = pick(state, "mestre") || {};
  const lost = pick(gm, "perdido");
  const monsters = asList(pick(gm, "monstros"));
  const secrets = asList(pick(gm, "segredos"));
  const blocks = [];
  if (lost === true && dungeonOf(state)) {
    blocks.push(el("p", { class: "bad", text: label("mestre.perdido_fora_da_masmorra") }));
  } else if (lost === true) {
    blocks.push(el("p", { class: "bad", text: label("mestre.perdido_segredo") }));
  } else if (lost === false && modeOf(state) === "viagem") {
    blocks.push(el("p", { text: label("mestre.sabe_onde_esta") }));
  }
  if (monsters.length) {
    blocks.push(el("h3", { text: label("mestre.monstros") }), el("ul", {}, monsters.map((m) => el("li", {
      text: m && typeof m === "object"
        ? [pick(m, "nome"), pick(m, "sala") ? label("mestre.sala", { n: pick(m, "sala") }) : null,
          pick(m, "alertado") ? label("mestre.alertado") : null]
          .filter(Boolean).join(" · ")
        : String(m),
    }))));
  }
  if (secrets.length) {
    blocks.push(el("h3", { text: label("mestre.rolagens_secretas") }), el("ul", {}, secrets.slice(-8).reverse().map((s) =>
      el("li", { text: typeof s === "object" ? pick(s, "texto") || JSON.stringify(s) : String(s) }))));
  }
  fill($("#secrets"), blocks.length ? blocks : [el("p", { class: "empty", text: label("mestre.sem_segredos") })]);
}

// Exposed for debugging at the table (and tests): the last state received.
window.mesa = { get state() { return state; }, run, conn };

// Keep what scrolls into view (focus, the log link, a prompt) above the sticky command bar —
// but not while the GM types in the bar itself: Chromium scrolls the caret out of that padding
// on every key, and the page would run to its end as a command is typed.
const bar = document.querySelector(".commandbar");
if (bar && typeof ResizeObserver === "function") {
  const pad = () => {
    const typing = bar.contains(document.activeElement);
    document.documentElement.style.scrollPaddingBottom = typing ? "0px" : `${bar.offsetHeight + 8}px`;
  };
  new ResizeObserver(pad).observe(bar);
  bar.addEventListener("focusin", pad);
  bar.addEventListener("focusout", () => setTimeout(pad, 0));
}
