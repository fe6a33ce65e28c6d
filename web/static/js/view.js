// Render the `estado` payload (companion/engine/view.py) defensively: a missing key shows nothing.
import { el, pick, get, asList } from "./common.js";
import { fieldName, highlights, label, pages, roundText } from "./pages.js";

export const modeOf = (state) => {
  const mode = pick(state, "modo");
  return typeof mode === "string" ? mode : "viagem";
};

/** The mode's name as tables/paginas.yaml says it (else the state's own `modo_nome`). */
export const modeName = (state) => pages().modos[modeOf(state)] || text(pick(state, "modo_nome")) || String(modeOf(state));

const text = (value) => {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "object") return pick(value, "texto", "nome");
  return String(value);
};

function fact(label, value, cls = "") {
  const shown = text(value);
  if (shown === undefined) return null;
  return el("div", { class: `fact ${cls}` }, el("span", { class: "k", text: label }), el("span", { class: "v", text: shown }));
}

/** The hour of the day ("14h20") when the state gives it, in every mode. */
export function hourText(state) {
  const hour = pick(state, "hora");
  return typeof hour === "string" || typeof hour === "number" ? String(hour) : undefined;
}

/** The clock split for the shared screen's hour right after the day: {day, hour, rest} — "Dia 1",
 * "14h20", "rodada 4 de 6 (12h–16h)". The hour is taken out of the clock text when the state
 * already wrote it there as its own part ("Dia 1 · 14h20 · turno 2"); no hour, no `hour`. */
export function clockWithHour(state) {
  const [day, ...parts] = String(clockText(state) || "").split(" · ");
  const hour = hourText(state);
  const rest = hour ? parts.filter((part) => part !== hour) : parts;
  return { day: day || undefined, hour: hour && !(day || "").includes(hour) ? hour : undefined, rest };
}

/** "Dia 1 · rodada 2 de 6 (4h–8h)" or "Dia 1 · turno 3 na masmorra", as the state says it. */
export function clockText(state) {
  const clock = pick(state, "relogio");
  if (typeof clock === "string") return clock;
  const day = pick(state, "dia");
  const round = pick(state, "rodada");
  return [day !== undefined ? label("agora.dia", { n: day }) : null, round !== undefined ? label("agora.rodada", { n: round }) : null]
    .filter(Boolean).join(" · ") || undefined;
}

export const weatherText = (state) => text(pick(state, "clima")) || (pick(state, "estacao") ? label("agora.clima_nao_rolado") : undefined);

export const dungeonOf = (state) => {
  const dungeon = pick(state, "masmorra");
  return dungeon && typeof dungeon === "object" ? dungeon : null;
};

/** Light sources and spells: [{name, left}]. */
export function timers(state, key) {
  return asList(get(dungeonOf(state), key)).map((timer) => ({
    name: capitalize(text(pick(timer, "nome")) || "?"),
    left: pick(timer, "turnos"),
  }));
}

const capitalize = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const turns = (n) => label(Number(n) === 1 ? "agora.turno" : "agora.turnos", { n });

export function lightText(state) {
  const dungeon = dungeonOf(state);
  if (!dungeon) return undefined;
  const lights = timers(state, "luzes");
  if (!lights.length) return label("agora.escuridao_total");
  return lights.map((l) => (l.left !== undefined ? `${l.name}: ${turns(l.left)}` : l.name)).join(" · ");
}

/** "Escudo arcano: 3 turnos · Luz: 1 turno", or nothing when no spell is running. */
export function spellsText(state) {
  return timers(state, "magias").map((s) => `${s.name}: ${turns(s.left ?? "?")}`).join(" · ") || undefined;
}

export function chaseOf(state) {
  const chase = pick(state, "perseguicao");
  return chase && typeof chase === "object" ? chase : null;
}

export function chaseText(chase) {
  if (!chase) return undefined;
  if (pick(chase, "fase") === "declarada") return label("agora.fuga_declarada");
  const parts = [];
  const distance = text(pick(chase, "distancia"));
  const shown = distance ? distance.charAt(0).toUpperCase() + distance.slice(1) : null;
  if (shown) parts.push(label("agora.distancia", { distancia: shown }));
  const score = pick(chase, "placar");
  if (score !== undefined) parts.push(label("agora.placar", { placar: `${Number(score) > 0 ? "+" : ""}${score}` }));
  // the state counts the turns done; the page says the one under way, as `tempo` does
  // ("Perseguição: turno 2 de 3" after the first escape test)
  const done = Number(pick(chase, "turno"));
  if (Number.isFinite(done)) parts.push(label("agora.turno_da_perseguicao", { n: done + 1 }));
  return parts.join(" · ") || label("agora.perseguicao");
}

/** Both sides' speeds and the difference, as the state says them ("grupo 120 × perseguidores
 * 90 (o grupo é 30 mais rápido)"), from the moment the GM gives them, flight declared or not. */
export const speedsText = (chase) => text(pick(chase, "velocidades"));

/** The facts grid shown on the GM and player pages. */
export function glance(state) {
  const travel = pick(state, "viagem") || {};
  const dungeon = dungeonOf(state);
  const chase = chaseOf(state);
  const items = [
    el("div", { class: "fact wide" },
      el("span", { class: "v" }, el("span", { class: "mode-tag", text: modeName(state) }), " ", ...clockLine(state))),
    fact(label("agora.clima"), weatherText(state)),
    fact(label("agora.estacao"), pick(state, "estacao_nome", "estacao")),
  ];
  if (!dungeon) {
    items.push(
      fact(label("agora.terreno"), placeText(state)),
      fact(label("agora.deslocamento"), pick(travel, "modo_nome", "modo")),
      fact(label("agora.progresso"), pick(travel, "hexes_texto") || hexText(pick(travel, "hexes"))),
      fact(label("agora.acampamento"), boolText(pick(travel, "acampamento_seguro"),
        label("agora.acampamento_seguro"), label("agora.acampamento_inseguro"))),
      fact(label("agora.vigia"), watcherText(state)),
    );
    // what this round still waits for, right under the clock (not below the weather)
    items.splice(1, 0, fact(roundText("rotulo"), roundLine(state), "wide round"));
  } else {
    const effective = pick(dungeon, "perigo_efetivo");
    const dangerName = pick(dungeon, "perigo_efetivo_nome", "perigo_nome", "perigo");
    items.push(
      fact(label("agora.perigo"), dangerName, effective === "mortal" ? "bad" : ""),
      fact(label("agora.luz"), lightText(state), pick(dungeon, "escuro") ? "bad" : ""),
      fact(label("agora.magias"), spellsText(state)),
      fact(label("agora.sem_descanso"), turnsText(pick(dungeon, "turnos_sem_descanso"))),
      fact(label("agora.ordem_de_marcha"), asList(pick(dungeon, "ordem_marcha")).join(", ") || undefined, "wide"),
    );
  }
  if (chase) {
    items.push(fact(label("agora.perseguicao"), chaseText(chase), "wide alert"),
      fact(label("agora.velocidades"), speedsText(chase), "wide"));
  }
  return el("div", { class: "glance" }, items);
}

/** "Nesta rodada": who already did their activity in this travel round and who owes rest
 * after a failed forced march (each viewer sees what its state says: a player only their
 * own rest); nothing when neither. */
export function roundLine(state) {
  const acted = asList(pick(state, ["viagem", "agiram"])).map((a) =>
    roundText("agiu", { nome: text(pick(a, "nome")) || "?", atividade: text(pick(a, "atividade")) || "" }));
  const owed = partyOf(state).filter((c) => Number(pick(c, "descanso_devido")) > 0).map((c) => {
    const n = Number(pick(c, "descanso_devido"));
    return roundText(n === 1 ? "deve_descanso_1" : "deve_descanso", { nome: charName(c), n });
  });
  return [...acted, ...owed].join(" · ") || undefined;
}

/** The clock for the "Agora" line, the hour highlighted where the state's clock says it, or
 * added at its end: "Dia 1 · 14h20 · turno 2 na masmorra", "Dia 1 · rodada 4 de 6 · 14h20". */
export function clockLine(state) {
  const hour = hourText(state);
  const parts = String(clockText(state) || "").split(" · ").filter(Boolean);
  if (hour && !parts.includes(hour)) parts.push(hour);
  return parts.map((part) => (part === hour ? el("span", { class: "hora", text: hour }) : part))
    .flatMap((part, i) => (i ? [" · ", part] : [part]));
}

/** Who keeps watch at night (Tabela H 8: the watcher takes the panic test): the name the
 * state gives under "viagem" (a name, an id or {id, nome}); nothing when it does not say. */
export function watcherText(state) {
  const watcher = pick(state, ["viagem", "vigia"]);
  if (watcher === undefined || watcher === null || watcher === false) return undefined;
  const names = Array.isArray(watcher) ? watcher.map((w) => nameFor(state, w)).filter(Boolean).join(", ")
    : nameFor(state, watcher);
  if (!names) return undefined;
  return pick(state, ["viagem", "vigia_escolhido"]) === false ? label("agora.vigia_padrao", { nomes: names }) : names;
}

function nameFor(state, who) {
  if (who && typeof who === "object") return text(pick(who, "nome")) || nameFor(state, pick(who, "id"));
  if (who === undefined || who === null || who === "") return undefined;
  return namesOf(state)[String(who)] || String(who);
}

const hexText = (value) => (value === undefined ? undefined : label("agora.hex", { n: String(value).replace(".", ",") }));
const turnsText = (value) => (value === undefined ? undefined : turns(value));
const boolText = (value, yes, no) => (value === undefined ? undefined : value ? yes : no);

export const partyOf = (state) => asList(pick(state, "grupo"));

export const charName = (c) => text(pick(c, "nome")) || text(pick(c, "id")) || "?";

function stat(label, value, max, lowWhen) {
  if (value === undefined || value === null) return null;
  const low = typeof lowWhen === "function" && lowWhen(Number(value));
  return el("span", { class: `stat${low ? " low" : ""}` }, `${label} `, el("b", { text: max !== undefined ? `${value}/${max}` : value }));
}

/** A sheet field's name as the sheet says it (personagem.yaml `rotulos`), capitalised. */
const field = (key) => capitalize(fieldName(key));

/** One character card with HP, sanity, exhaustion, supplies, afflictions; what is low is
 * highlighted as rotulos_paginas.yaml `destaques` says. */
export function characterCard(c, { me = false } = {}) {
  const hp = pick(c, "pv");
  const hpMax = pick(c, "pv_max");
  const level = pick(c, "nivel");
  const low = highlights();
  const notes = [...asList(pick(c, "aflicoes")), ...asList(pick(c, "condicoes")),
    ...asList(pick(c, "exaustao_efeitos")).map((e) => label("ficha.efeito_de_exaustao", { campo: field("exaustao"), efeito: e }))]
    .map(text).filter(Boolean);
  return el("div", { class: `pc${me ? " me" : ""}`, "data-personagem": pick(c, "id") || "" },
    el("h3", {}, charName(c), level !== undefined ? el("small", { text: `${fieldName("nivel")} ${level}` }) : null),
    el("div", { class: "stats" },
      stat(field("pv"), hp, hpMax, (v) => hpMax !== undefined && v <= Math.ceil(Number(hpMax) / Number(low.pv_fracao))),
      stat(field("sanidade"), pick(c, "sanidade"), undefined, (v) => v <= Number(low.sanidade_ate)),
      stat(field("exaustao"), pick(c, "exaustao"), undefined, (v) => v >= 1),
      stat(field("comida"), pick(c, "comida"), undefined, (v) => v <= 0),
      stat(field("agua"), pick(c, "agua"), undefined, (v) => v <= 0),
      stat(field("municao"), pick(c, "municao")),
      modifierStats(c),
      damageStats(c)),
    notes.length ? el("ul", { class: "notes" }, notes.map((n) => el("li", { text: n }))) : null);
}

/** Attribute damage ({"sab": 2}, or a list of {atributo, dano} / texts) as "Dano de SAB 2"
 * chips; nothing when the key is missing or every value is 0. */
export function attributeDamage(c) {
  const raw = pick(c, "dano_atributos");
  const damage = (name) => capitalize(fieldName(`dano_${String(name).toLowerCase()}`,
    label("ficha.dano_de", { atributo: String(name).toUpperCase() })));
  if (raw && typeof raw === "object" && !Array.isArray(raw)) {
    return Object.entries(raw).filter(([, n]) => Number(n) > 0).map(([name, n]) => [damage(name), n]);
  }
  return asList(raw).map((entry) => {
    if (entry && typeof entry === "object") {
      const name = pick(entry, "atributo", "nome");
      const amount = pick(entry, "dano");
      return name !== undefined && Number(amount) > 0 ? [damage(name), amount] : null;
    }
    return entry ? [String(entry), undefined] : null;
  }).filter(Boolean);
}

/** The attribute modifiers the viewer may see ({"con": 1, "des": 2}: the GM's and the
 * character's own player's view) as "CON +1" chips, the way they roll with them. */
function modifierStats(c) {
  const raw = pick(c, "atributos");
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return [];
  const signed = (n) => (Number(n) >= 0 ? `+${Number(n)}` : String(Number(n)));
  return Object.entries(raw).map(([name, n]) => stat(fieldName(String(name).toLowerCase(), String(name).toUpperCase()), signed(n)));
}

function damageStats(c) {
  return attributeDamage(c).map(([label, amount]) => (amount === undefined
    ? el("span", { class: "stat low damage", text: label })
    : el("span", { class: "stat low damage" }, `${label} `, el("b", { text: amount }))));
}

export function partyList(state, { meId = null, empty = label("ficha.nenhum_personagem") } = {}) {
  const party = partyOf(state);
  if (!party.length) return el("p", { class: "empty", text: empty });
  return el("div", { class: "party" }, party.map((c) => characterCard(c, { me: pick(c, "id") === meId })));
}

/** Prompts waiting for an answer (already filtered by the server for players). */
export function promptsOf(state) {
  return asList(pick(state, "pedidos")).filter((p) => p && typeof p === "object");
}

/** The server's `faixa` of a prompt: {low, high, warning}, or null. */
function rangeOf(range) {
  const low = Number(pick(range, "minimo"));
  const high = Number(pick(range, "maximo"));
  if (!Number.isFinite(low) || !Number.isFinite(high)) return null;
  return { low, high, warning: text(pick(range, "aviso")) || "" };
}

export function promptInfo(prompt) {
  return {
    id: pick(prompt, "id"),
    kind: text(pick(prompt, "tipo")) || "",
    character: pick(prompt, "personagem"),
    group: pick(prompt, "grupo") === true, // the whole party's test: any player answers, the first counts
    text: text(pick(prompt, "texto")) || label("pedidos.pedido"),
    dice: text(pick(prompt, "dados")) || "1d20",
    dc: pick(prompt, "dc"),
    modifier: pick(prompt, "modificador"),
    options: asList(pick(prompt, "opcoes")),
    labels: asList(pick(prompt, "opcoes_nomes")),
    edge: text(pick(prompt, "vantagem")) || null, // DESV/vantagem: two physical dice, one kept
    range: rangeOf(pick(prompt, "faixa")), // the die's values, as the server says them
  };
}

/** Split prompts (in the state's order) into the newest of each owner — the one to answer
 * now, shown in full — and the older ones, shown compact. Order is kept within each list. */
export function splitPrompts(prompts) {
  const newest = new Map();
  prompts.forEach((p, index) => newest.set(p.group ? "*grupo" : p.character ?? "", index));
  const current = new Set(newest.values());
  return {
    current: prompts.filter((_p, index) => current.has(index)),
    older: prompts.filter((_p, index) => !current.has(index)),
  };
}

/** A prompt's kind as a heading a player understands without the rules at hand
 * (tables/paginas.yaml `titulos_pedidos`, its `padrao` for a kind it does not name). */
export const promptTitle = (kind) => {
  const titles = pages().titulos_pedidos || {};
  return titles[kind] || titles.padrao || String(kind || "");
};

/** "1d20+2 · dificuldade 12" for a roll prompt; nothing for a choice. Unless `always`, a plain
 * die with no modifier and no DC gives nothing either (the page names the die elsewhere). */
export function promptDetail(p, { always = false } = {}) {
  const modifier = Number(p.modifier) || 0;
  const hasDc = p.dc !== undefined && p.dc !== null;
  if (p.options.length || (!always && !modifier && !hasDc)) return "";
  const dice = modifier ? `${p.dice}${modifier > 0 ? "+" : ""}${modifier}` : p.dice;
  return [dice, hasDc ? label("pedidos.dificuldade", { dc: p.dc }) : null].filter(Boolean).join(" · ");
}

/** Map character id → name, for log badges. */
export function namesOf(state) {
  const names = {};
  for (const c of partyOf(state)) {
    const id = pick(c, "id");
    if (id) names[id] = charName(c);
  }
  return names;
}

/** The session form: defeated per region, treasure, items, dice rolled per type. */
export function tallyView(state) {
  const tally = pick(state, "registro") || {};
  const lines = (obj) => Object.entries(obj && typeof obj === "object" ? obj : {})
    .filter(([, n]) => typeof n === "number")
    .map(([what, n]) => `${n} ${what}`);
  const defeated = Object.entries(pick(tally, "derrotados") || {})
    .map(([region, counts]) => `${region}: ${lines(counts).join(", ")}`);
  const dice = Object.entries(pick(tally, "dados") || {})
    .sort(([a], [b]) => Number(a.slice(1)) - Number(b.slice(1)))
    .map(([die, n]) => `${n}× ${die}`);
  const rows = [
    [label("registro_da_sessao.derrotados"), defeated.join(" · ")],
    [label("registro_da_sessao.tesouro"), lines(pick(tally, "tesouro")).join(", ")],
    [label("registro_da_sessao.itens"), lines(pick(tally, "itens")).join(", ")],
    [label("registro_da_sessao.dados_rolados"), dice.join(", ")],
  ].filter(([, value]) => value);
  if (!rows.length) return el("p", { class: "empty", text: label("registro_da_sessao.vazio") });
  return el("div", { class: "glance" }, rows.map(([k, v]) =>
    el("div", { class: "fact wide" }, el("span", { class: "k", text: k }), el("span", { class: "v", text: v }))));
}

/** Where the party is: the terrain, or the GM's region with its terrain ("Floresta Sombria
 * (Floresta)"). */
export function placeText(state) {
  const terrain = pick(state, "terreno_nome", "terreno");
  const region = pick(state, "regiao_nome");
  return region && region !== terrain ? `${region} (${terrain})` : terrain;
}
