// Seats: a character's place belongs to the phones holding its token. The GM's list of seats
// (who, on the air or not, since when; "Liberar" frees one), and on a player's phone the link
// of a second device and "Sair" with its confirmation. Words from tables/paginas.yaml `lugares`.
import { el, fill, sentence } from "./common.js";
import { seatText } from "./pages.js";

/** How long ago `iso` was, in words ("há 12 min", "há 1 h 5 min", "agora há pouco"): a wall
 * clock's hour beside the game's hours would read as game time. "" for no time. */
export function sinceText(iso, now = new Date()) {
  const when = iso ? new Date(iso) : null;
  if (!when || Number.isNaN(when.getTime())) return "";
  const minutes = Math.max(0, Math.floor((now.getTime() - when.getTime()) / 60000));
  if (minutes < 1) return seatText("ha_pouco");
  if (minutes < 60) return seatText("ha_minutos", { n: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours >= 24) return seatText(hours < 48 ? "ha_um_dia" : "ha_dias", { n: Math.floor(hours / 24) });
  return minutes % 60 ? seatText("ha_horas_minutos", { h: hours, n: minutes % 60 }) : seatText("ha_horas", { h: hours });
}

/** What a seat's line says of it: free, or on the air (on how many phones) or not, since when. */
export function seatStatus(seat, now = new Date()) {
  if (!seat.ocupado) return seatText("livre");
  const online = Number(seat.online) || 0;
  const air = online > 1 ? seatText("no_ar_varios", { n: online }) : seatText(online ? "no_ar" : "fora_do_ar");
  const since = sinceText(seat.desde, now);
  return since ? `${air} · ${since}` : air;
}

/**
 * The GM's list of seats in `node`. `free(id)` frees one (resolves to the ack); "Liberar" asks
 * once more ("Confirmar: liberar Ana") before it does, and a refusal is said on its line.
 * `invite(id)` asks for a free seat's one-time link (resolves to the ack {ok, url, qr}):
 * "Convite" shows it with its QR code under the seat's line until it is closed or the seat
 * is taken.
 */
export function seatsList(node, free, invite = null) {
  let seats = [];
  const errors = new Map(); // character id → the last refusal of freeing it
  const shownStatus = new Map(); // status line → its seat, to say "há N min" again as time goes
  let invitation = null; // {id, ack}: the free seat whose link is shown

  function show(list) {
    if (Array.isArray(list)) seats = list.filter((s) => s && typeof s === "object" && s.id);
    if (invitation && !seats.some((s) => s.id === invitation.id && !s.ocupado)) invitation = null;
    shownStatus.clear();
    fill(node, seats.length
      ? el("ul", { class: "seats" }, seats.map(line))
      : el("p", { class: "empty", text: seatText("vazio") }));
  }

  function line(seat) {
    const state = !seat.ocupado ? "free" : Number(seat.online) > 0 ? "on" : "off";
    const status = el("span", { class: "seat-status", text: seatStatus(seat) });
    shownStatus.set(status, seat);
    const item = el("li", { class: `seat ${state}`, "data-personagem": seat.id },
      el("span", { class: "seat-name", text: String(seat.nome ?? seat.id) }), status,
      seat.ocupado ? freeButton(seat) : inviteButton(seat),
      errors.has(seat.id) ? el("p", { class: "error", role: "alert", text: errors.get(seat.id) }) : null,
      invitation && invitation.id === seat.id ? invitePanel(seat) : null);
    return item;
  }

  function inviteButton(seat) {
    if (!invite) return null;
    const name = String(seat.nome ?? seat.id);
    const shown = Boolean(invitation && invitation.id === seat.id);
    const button = el("button", { type: "button", class: "quiet small seat-invite-open", text: seatText("convidar"),
      "aria-label": `${seatText("convidar")}: ${name}`, "aria-expanded": String(shown) });
    button.addEventListener("click", async () => {
      if (shown) {
        invitation = null;
        return show();
      }
      button.disabled = true;
      const ack = await invite(seat.id);
      if (ack.ok) {
        errors.delete(seat.id);
        invitation = { id: seat.id, ack };
      } else {
        errors.set(seat.id, sentence(ack.error || ""));
      }
      show();
    });
    return button;
  }

  function invitePanel(seat) {
    const name = String(seat.nome ?? seat.id);
    const { url, qr } = invitation.ack;
    return el("div", { class: "device-link seat-invite" },
      el("p", { class: "hint", text: seatText("convite_ajuda", { nome: name }) }),
      el("img", { class: "device-qr", alt: `${seatText("convidar")}: ${name}`,
        src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(String(qr || ""))}` }),
      el("a", { class: "device-url", href: String(url || ""), text: String(url || "") }),
      el("button", { type: "button", class: "quiet", text: seatText("fechar"),
        onclick: () => { invitation = null; show(); } }));
  }

  function freeButton(seat) {
    const name = String(seat.nome ?? seat.id);
    const button = el("button", { type: "button", class: "danger small", text: seatText("liberar"),
      "aria-label": `${seatText("liberar")}: ${name}` });
    button.addEventListener("click", async () => {
      if (!button.classList.contains("armed")) {
        button.classList.add("armed");
        button.textContent = seatText("confirmar_liberar", { nome: name });
        button.setAttribute("aria-label", button.textContent);
        setTimeout(() => { if (button.isConnected && !button.disabled) show(); }, 4000);
        return;
      }
      button.disabled = true;
      const ack = await free(seat.id);
      if (ack.ok) errors.delete(seat.id);
      else errors.set(seat.id, sentence(ack.error || ""));
      show();
    });
    return button;
  }

  show([]);
  // once a minute the "há N min" of each line moves on, without redrawing its buttons
  setInterval(() => shownStatus.forEach((seat, status) => { status.textContent = seatStatus(seat); }), 30000);
  return { show };
}

/**
 * The GM's requests to join (a phone that came by name waits until the GM answers): one line
 * per request, "Eva quer entrar — aceitar?", with Aceitar and Recusar. `answer(id, yes)`
 * resolves to the ack; a refusal is said on its line.
 */
export function entryRequests(node, answer) {
  let requests = [];
  const errors = new Map(); // request id → the last refusal of answering it

  function show(list) {
    if (Array.isArray(list)) requests = list.filter((r) => r && typeof r === "object" && Number.isInteger(r.id));
    fill(node, requests.length
      ? el("ul", { class: "entries" }, requests.map(line))
      : null);
  }

  function line(request) {
    const name = String(request.nome ?? "");
    const question = seatText(request.novo ? "pedido_novo" : "pedido_livre", { nome: name });
    return el("li", { class: "entry", "data-pedido": String(request.id) },
      el("span", { class: "entry-question", text: question }),
      button(request, true, seatText("aceitar"), "primary small"),
      button(request, false, seatText("recusar"), "quiet small"),
      errors.has(request.id) ? el("p", { class: "error", role: "alert", text: errors.get(request.id) }) : null);
  }

  function button(request, yes, label, style) {
    const name = String(request.nome ?? "");
    const made = el("button", { type: "button", class: style, text: label, "aria-label": `${label}: ${name}` });
    made.addEventListener("click", async () => {
      made.disabled = true;
      const ack = await answer(request.id, yes);
      if (ack.ok) {
        errors.delete(request.id);
        requests = requests.filter((r) => r.id !== request.id);
      } else {
        errors.set(request.id, sentence(ack.error || ""));
      }
      show();
    });
    return made;
  }

  show([]);
  return { show };
}

/**
 * The player's "Entrar em outro aparelho": asks the server for this seat's link (`link()`
 * resolves to the ack {ok, url, qr}) and shows it with its QR code in `node`.
 */
export function deviceLink(node, { link, name }) {
  const open = el("button", { type: "button", class: "quiet device-open", text: seatText("outro_aparelho") });
  const panel = el("div", { class: "device-link", hidden: true });
  open.setAttribute("aria-expanded", "false");
  open.addEventListener("click", async () => {
    if (!panel.hidden) return close();
    open.disabled = true;
    const ack = await link();
    open.disabled = false;
    if (!ack.ok) {
      fill(panel, el("p", { class: "error", role: "alert", text: sentence(ack.error || "") }));
    } else {
      const qr = String(ack.qr || "");
      fill(panel,
        el("p", { class: "hint", text: seatText("outro_aparelho_ajuda", { nome: name() }) }),
        el("img", { class: "device-qr", alt: seatText("outro_aparelho"),
          src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qr)}` }),
        el("a", { class: "device-url", href: ack.url, text: ack.url }),
        el("button", { type: "button", class: "quiet", text: seatText("fechar"), onclick: close }));
    }
    panel.hidden = false;
    open.setAttribute("aria-expanded", "true");
  });

  function close() {
    panel.hidden = true;
    fill(panel);
    open.setAttribute("aria-expanded", "false");
  }

  fill(node, open, panel);
  return { close };
}

/**
 * "Sair": a dialog in the page asks first (what leaving does to the seat); confirming calls
 * `leave()` (resolves to the ack) and, once the seat is free, `left()`.
 */
export function leaveDialog({ leave, left, name }) {
  const question = el("h2", { id: "leave-title" });
  const explain = el("p", { id: "leave-text" });
  const error = el("p", { class: "error", role: "alert", hidden: true });
  const confirm = el("button", { type: "button", class: "danger" });
  const stay = el("button", { type: "button", class: "primary" });
  const dialog = el("dialog", { class: "leave-dialog card", "aria-labelledby": "leave-title", "aria-describedby": "leave-text" },
    question, explain, error, el("div", { class: "dialog-buttons" }, stay, confirm));
  document.body.append(dialog);
  stay.addEventListener("click", () => dialog.close());
  confirm.addEventListener("click", async () => {
    confirm.disabled = true;
    const ack = await leave();
    confirm.disabled = false;
    if (!ack.ok) {
      error.textContent = sentence(ack.error || "");
      error.hidden = false;
      return;
    }
    dialog.close();
    left();
  });

  return {
    open() {
      question.textContent = seatText("sair_pergunta", { nome: name() });
      explain.textContent = seatText("sair_explica", { nome: name() });
      confirm.textContent = seatText("sair_confirmar");
      stay.textContent = seatText("sair_cancelar");
      error.hidden = true;
      dialog.showModal();
      stay.focus();
    },
  };
}
