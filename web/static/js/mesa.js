// The shared screen: clock, weather, light, chase, the latest results in big type, the join QR.
import { $, el, fill, pick, connect, statusPill, renderEvent } from "./common.js";
import { label } from "./pages.js";
import { clockWithHour, placeText, weatherText, watcherText, lightText, spellsText, chaseOf, chaseText, speedsText, modeName, partyOf, charName, namesOf } from "./view.js";

const LATEST = 6;
let state = {};
const latest = [];
// The address phones open, as the server says it in boas_vindas (the LAN address, like the QR
// code, even when this screen itself was opened at 127.0.0.1); this page's origin until then.
let playerUrl = window.location.origin + "/jogador";

const conn = connect({
  auth: () => ({ papel: "mesa" }),
  onStatus: statusPill($("#status")),
  onWelcome: (data) => {
    if (typeof data.url_jogador === "string" && data.url_jogador) playerUrl = data.url_jogador;
    showUrl(playerUrl);
  },
  onEvent: (event) => {
    if (event.kind === "ajuda" || event.kind === "estado") return;
    latest.unshift(event);
    latest.length = Math.min(latest.length, LATEST);
    fill($("#latest"), latest.map((e) => renderEvent(e, namesOf(state))));
  },
  onState: render,
});
// The server's headline of each command for this screen (the heaviest news the table may see:
// companion/history/outcome.py) leads the latest results, in its own style.
conn.socket.on("manchete", (data) => {
  const top = data && data.evento;
  if (!top) return;
  const at = latest.findIndex((e) => e.seq === top.seq);
  if (at >= 0) latest.splice(at, 1);
  latest.unshift(top);
  latest.length = Math.min(latest.length, LATEST);
  fill($("#latest"), latest.map((e) => renderEvent(e, namesOf(state))));
  const first = $("#latest").firstElementChild;
  if (first) first.classList.add("headline-news");
});

/** The player URL, allowed to break only before its path ("http://host:port" / "/jogador"). */
function showUrl(url) {
  const cut = url.indexOf("/", url.indexOf("//") + 2);
  fill($("#url"), cut > 0 ? [url.slice(0, cut), el("wbr"), url.slice(cut)] : url);
}

function fact(label, value, cls = "") {
  if (value === undefined || value === null || value === "") return null;
  return el("div", { class: `fact ${cls}` }, el("span", { class: "k", text: label }), el("span", { class: "v", text: value }));
}

/** The tug of war of the chase: −2 caught … +2 escaped, with its two ends named. */
function chaseBar(chase) {
  const score = Number(pick(chase, "placar") ?? 0);
  return el("div", { class: "chase-track", "aria-hidden": "true" },
    el("div", { class: "chase-bar" }, [-2, -1, 0, 1, 2].map((n) => el("i", { class: n === score ? "on" : "" }))),
    el("div", { class: "chase-ends" }, el("span", { text: label("agora.alcancados") }), el("span", { text: label("agora.escapam") })));
}

function render(newState) {
  state = newState || {};
  const { day, hour, rest } = clockWithHour(state);
  const under = rest.join(" · ");
  fill($("#clock"), day || "—", hour ? [" ", el("span", { class: "hora", text: hour })] : null,
    el("small", { text: under.includes("masmorra") ? under : [modeName(state), ...rest].join(" · ") }));
  const chase = chaseOf(state);
  const dungeon = pick(state, "masmorra");
  const items = [
    fact(label("agora.clima"), weatherText(state)),
    dungeon ? null : fact(label("agora.terreno"), placeText(state)),
    dungeon ? null : fact(label("agora.vigia"), watcherText(state)),
    dungeon ? fact(label("agora.perigo"), pick(dungeon, "perigo_efetivo_nome", "perigo_nome")) : null,
    dungeon ? fact(label("agora.luz"), lightText(state), pick(dungeon, "escuro") ? "bad" : "") : null,
    dungeon ? fact(label("agora.magias"), spellsText(state)) : null,
    chase ? el("div", { class: "fact alert" }, el("span", { class: "k", text: label("agora.perseguicao") }),
      el("span", { class: "v", text: chaseText(chase) }), chaseBar(chase)) : null,
    chase ? fact(label("agora.velocidades"), speedsText(chase)) : null,
  ];
  fill($("#glance"), items);
  const party = partyOf(state);
  fill($("#party"), party.length
    ? el("p", { class: "muted", text: label("agora.a_mesa", { nomes: party.map(charName).join(", ") }) })
    : null);
}

window.mesa = { get state() { return state; }, conn };
