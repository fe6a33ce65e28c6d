// The shared screen: clock, weather, light, chase, the latest results in big type, the join QR.
import { $, el, fill, pick, connect, statusPill, renderEvent } from "./common.js";
import { clockText, weatherText, lightText, chaseOf, chaseText, modeName, partyOf, charName, namesOf } from "./view.js";

const LATEST = 6;
let state = {};
const latest = [];

function playerUrl(extra) {
  const given = pick(extra, "url_jogador", "jogador_url") || pick(state, "url_jogador");
  return typeof given === "string" ? given : `${window.location.origin}/jogador`;
}

const conn = connect({
  auth: () => ({ papel: "mesa" }),
  onStatus: statusPill($("#status")),
  onWelcome: (data) => showUrl(playerUrl(data)),
  onEvent: (event) => {
    if (event.kind === "ajuda" || event.kind === "estado") return;
    latest.unshift(event);
    latest.length = Math.min(latest.length, LATEST);
    fill($("#latest"), latest.map((e) => renderEvent(e, namesOf(state))));
  },
  onState: render,
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

function chaseBar(chase) {
  const score = Number(pick(chase, "placar", "pontos", "score") ?? 0);
  return el("div", { class: "chase-bar", "aria-hidden": "true" },
    [-2, -1, 0, 1, 2].map((n) => el("i", { class: n === score ? "on" : "" })));
}

function render(newState) {
  state = newState || {};
  const [head, ...rest] = String(clockText(state) || "—").split(" · ");
  fill($("#clock"), head, el("small", { text: rest.join(" · ").includes("masmorra") ? rest.join(" · ") : [modeName(state), ...rest].join(" · ") }));
  const chase = chaseOf(state);
  const dungeon = pick(state, "masmorra");
  const items = [
    fact("Clima", weatherText(state)),
    dungeon ? null : fact("Terreno", pick(state, "terreno_nome", "terreno")),
    dungeon ? fact("Perigo", pick(dungeon, "perigo_efetivo_nome", "perigo_nome")) : null,
    dungeon ? fact("Luz", lightText(state), pick(dungeon, "escuro") ? "bad" : "") : null,
    chase ? el("div", { class: "fact alert" }, el("span", { class: "k", text: "Perseguição" }),
      el("span", { class: "v", text: chaseText(chase) }), chaseBar(chase)) : null,
  ];
  fill($("#glance"), items);
  const party = partyOf(state);
  fill($("#party"), party.length
    ? el("p", { class: "muted", text: `À mesa: ${party.map(charName).join(", ")}` })
    : null);
  showUrl(playerUrl({}));
}

window.mesa = { get state() { return state; }, conn };
