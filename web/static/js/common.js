// Shared page plumbing: tiny DOM helper, the Socket.IO connection with seq tracking and the log.
import { label, setPages } from "./pages.js";

/** Build an element: el("li", {class: "x", text: "oi"}, child, …). Null/false children are skipped. */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key === "class") node.className = value;
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key in node && typeof value !== "string") node[key] = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replace the children of a node. */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

export const $ = (selector) => document.querySelector(selector);

/** Read nested keys safely: get(state, "viagem", "clima"). */
export function get(obj, ...path) {
  let cur = obj;
  for (const key of path) {
    if (cur === null || cur === undefined || typeof cur !== "object") return undefined;
    cur = cur[key];
  }
  return cur;
}

/** The first value that is not undefined/null/"" among candidate paths. */
export function pick(obj, ...paths) {
  for (const path of paths) {
    const value = get(obj, ...(Array.isArray(path) ? path : [path]));
    if (value !== undefined && value !== null && value !== "") return value;
  }
  return undefined;
}

export const asList = (value) => (Array.isArray(value) ? value : []);

/**
 * One live connection. `auth()` gives the identity ({token} / {nome} / {papel}); the last seq
 * seen is added as "desde" on every (re)connect so the server only sends what was missed.
 * Events are deduplicated by seq: none is ever handed to onEvent twice.
 */
export function connect({ auth, onWelcome, onEvent, onState, onStatus, onRefused }) {
  const seen = new Set();
  let lastSeq = 0;
  const socket = window.io({
    // lote: a welcome's missed events in one `eventos` list (one message, not hundreds).
    auth: (cb) => cb({ ...auth(), desde: lastSeq, lote: true }),
    reconnectionDelayMax: 4000,
  });
  socket.on("connect", () => onStatus && onStatus(true));
  socket.on("disconnect", (reason) => {
    onStatus && onStatus(false);
    // The server let this connection go (a phone whose seat was freed as it connected): try
    // once more, and a refusal says why.
    if (reason === "io server disconnect") setTimeout(() => socket.connect(), 1000);
  });
  socket.on("connect_error", (err) => {
    onStatus && onStatus(false);
    // A refusal by the server (bad token, missing name) stops the automatic retries.
    if (!socket.active && onRefused) onRefused(sentence(refusalText(err)));
  });
  socket.on("boas_vindas", (data) => {
    setPages(data && data.paginas);
    if (onWelcome) onWelcome(data || {});
  });
  const take = (event) => {
    if (!event || typeof event !== "object") return;
    const seq = Number(event.seq);
    if (Number.isFinite(seq)) {
      if (seen.has(seq)) return;
      seen.add(seq);
      lastSeq = Math.max(lastSeq, seq);
    }
    onEvent && onEvent(event);
  };
  socket.on("evento", take);
  // A welcome's missed events come in one message, a list in seq order (companion/server/welcome.py).
  socket.on("eventos", (events) => asList(events).forEach(take));
  // `estado` is the whole view; `estado_mudou` only its top-level keys that changed.
  let current = {};
  socket.on("estado", (state) => {
    current = state && typeof state === "object" ? state : {};
    onState && onState(current);
  });
  socket.on("estado_mudou", (changed) => {
    if (!changed || typeof changed !== "object") return;
    current = { ...current, ...changed };
    onState && onState(current);
  });

  /** Send an event that the server acknowledges; resolves to the ack {ok, …|error}. */
  async function ask(name, ...args) {
    if (!socket.connected) return { ok: false, error: label("conexao.sem_conexao") };
    try {
      const ack = await socket.timeout(10000).emitWithAck(name, ...args);
      return ack && typeof ack === "object" ? ack : { ok: false, error: label("conexao.resposta_inesperada") };
    } catch (_err) {
      return { ok: false, error: label("conexao.sem_resposta") };
    }
  }

  /** Send a command text; resolves to the ack {ok, events|error}. */
  const send = (text) => ask("comando", { text });
  return { socket, send, ask, lastSeq: () => lastSeq };
}

/** "token inválido" → "Token inválido." (server reasons are lowercase clauses). */
export function sentence(text) {
  const trimmed = String(text || "").trim();
  if (!trimmed) return "";
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

function refusalText(err) {
  const data = err && err.data;
  if (typeof data === "string") return data;
  if (data && typeof data.message === "string") return data.message;
  if (err && typeof err.message === "string" && err.message) return err.message;
  return label("conexao.recusada");
}

/** Show the connection status in a pill. */
export function statusPill(node) {
  return (online) => {
    node.textContent = label(online ? "conexao.conectado" : "conexao.reconectando");
    node.classList.toggle("on", online);
    node.classList.toggle("off", !online);
  };
}

/** Badge for an event that not everyone sees ("Só o Mestre", "Só Ana", or "Só você"). */
function visibilityBadge(visibility, names, selfId) {
  if (visibility === "gm") return el("span", { class: "badge gm", text: label("registro.so_mestre") });
  if (typeof visibility === "string" && visibility.startsWith("player:")) {
    const id = visibility.slice(7);
    return el("span", { class: "badge player", text: id === selfId ? label("registro.so_voce") : label("registro.so_quem", { nome: names[id] || id }) });
  }
  return null;
}

/** "Desfeito: 'rolar 1d20'" or "O Mestre desfez o último comando.": an undo's own line. */
export const isUndoEvent = (event) => event.command === "desfazer"
  || (event.data && typeof event.data === "object" && event.data.desfeito !== undefined);

/** "Carla:" before a roll made by or for a character (data.quem), else null. */
export function rollWho(data) {
  const who = data && typeof data.quem === "string" ? data.quem.trim() : "";
  return who ? el("span", { class: "roll-who", text: `${who}:` }) : null;
}

/** One log entry. Rolls show who rolled, table, dice, total and row text. */
export function renderEvent(event, names = {}, selfId = null) {
  const kind = typeof event.kind === "string" ? event.kind : "relato";
  const vis = typeof event.visibility === "string" ? event.visibility : "public";
  const item = el("li", {
    class: `${kind} vis-${vis.split(":")[0]} fresh`,
    "data-seq": event.seq,
    "data-kind": kind,
  });
  const data = event.data && typeof event.data === "object" ? event.data : {};
  if (isUndoEvent(event)) item.classList.add("undo-note");
  const badge = visibilityBadge(vis, names, selfId);
  if (kind === "rolagem" && (data.tabela || data.total !== undefined)) {
    const extra = data.vantagem ? ` ${label("registro.vantagem", { vantagem: data.vantagem, descartado: data.descartado })}` : "";
    item.append(...[
      el("div", { class: "roll" },
        badge,
        rollWho(data),
        el("span", { class: "roll-table", text: data.tabela || label("registro.rolagem") }),
        el("span", { class: "dice", text: `${data.dados || ""}${extra}` }),
        el("span", { class: "total", text: data.total ?? "" })),
      // `relato`: what the table reads of a row the seed writes for the GM (the seed's row
      // stays in `resultado`)
      (data.relato || data.resultado) ? el("span", { class: "result", text: data.relato || data.resultado }) : null,
    ].filter(Boolean));
  } else {
    if (badge) item.append(badge);
    item.append(String(event.text ?? ""));
  }
  return item;
}

/** A log list that keeps the newest entry on top and at most `limit` entries — the ones the
 * server sends on connecting (companion/server/welcome.py WELCOME_EVENTS) — plus the older ones
 * asked for (`add.older(events)`, oldest first: they go below, each once). */
export function eventLog(list, { limit = 300, names = () => ({}), selfId = () => null } = {}) {
  let kept = limit;
  const add = (event) => {
    const empty = list.querySelector(".empty");
    if (empty) empty.remove();
    list.prepend(renderEvent(event, names(), selfId()));
    while (list.children.length > kept) list.lastElementChild.remove();
  };
  add.older = (events) => {
    const shown = new Set(logSeqs(list));
    const below = events.filter((event) => event && typeof event === "object"
      && Number.isFinite(Number(event.seq)) && !shown.has(Number(event.seq)))
      .sort((a, b) => Number(b.seq) - Number(a.seq)); // the newest of them right under the list
    kept += below.length;
    const empty = list.querySelector(".empty");
    if (empty && below.length) empty.remove();
    for (const event of below) {
      const item = renderEvent(event, names(), selfId());
      item.classList.remove("fresh");
      list.append(item);
    }
  };
  return add;
}

const logSeqs = (list) => [...list.querySelectorAll("li[data-seq]")].map((item) => Number(item.dataset.seq));

/**
 * "Ver anteriores" under a log (`add` from eventLog): a page opens with the latest events only;
 * while the oldest one shown is not the first this page may see (the server numbers them
 * 1, 2, 3… for each viewer; the GM's, the log's own numbers), the button asks the server for
 * the page before it (`anteriores` {"antes": N}, through `ask(name, payload)`) and puts them
 * below, in order. `check()` shows or hides it (after each `estado`).
 */
export function olderEvents(list, add, ask) {
  const error = el("p", { class: "error compact older-error", role: "alert", hidden: true });
  const button = el("button", { type: "button", class: "small older-events", hidden: true,
    text: label("registro.ver_anteriores") });
  let more = true; // the server's `mais`: false once the first events are shown
  const oldest = () => Math.min(...logSeqs(list));
  const check = () => {
    const first = oldest();
    button.hidden = !(Number.isFinite(first) && first > 1 && more);
  };
  button.addEventListener("click", async () => {
    button.disabled = true;
    button.textContent = label("registro.carregando");
    const ack = await ask("anteriores", { antes: oldest() });
    button.disabled = false;
    button.textContent = label("registro.ver_anteriores");
    error.hidden = Boolean(ack.ok);
    error.textContent = ack.ok ? "" : sentence(ack.error);
    if (ack.ok) {
      add.older(asList(ack.eventos));
      more = ack.mais !== false;
    }
    check();
  });
  list.after(button, error);
  return { check };
}

/** Keep a value in localStorage without crashing in private mode. */
export const store = {
  get(key) { try { return window.localStorage.getItem(key); } catch (_e) { return null; } },
  set(key, value) { try { window.localStorage.setItem(key, value); } catch (_e) { /* ignore */ } },
  remove(key) { try { window.localStorage.removeItem(key); } catch (_e) { /* ignore */ } },
};

/** The page title with the prompts waiting: "(2) Mesa — Ana"; none: "Mesa — Ana". */
export function promptTitleText(count, name) {
  const base = name ? label("titulo.jogador", { nome: name }) : label("titulo.jogador_sem_nome");
  return count > 0 ? label("titulo.com_pedidos", { n: count, titulo: base }) : base;
}
