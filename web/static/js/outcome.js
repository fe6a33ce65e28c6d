// The outcome of one command, for the GM's strip above the command box: a travel round starts
// with the clock, the weather and the encounter check, but what the GM wants at a glance is
// what the activity gave (Tabela E's result, the rest, a mishap), not the preamble.
// The rules are tables/paginas.yaml `ultimo_resultado` (sent in boas_vindas.paginas), which
// the companion's `repetir` reads too (companion/outcome.py): the page and the repeat agree.
import { pages } from "./pages.js";

/** paginas.yaml `ultimo_resultado`: linhas, linhas_no_celular, nao_sao_resultado (event kinds
 * that are never an outcome: a help text, a state dump), checagem_de_encontro (the check whose
 * miss is preamble and whose hit is news), prefixo_do_clima. */
const rules = () => pages().ultimo_resultado || {
  linhas: 1, linhas_no_celular: 1, nao_sao_resultado: [], destaques: [], checagem_de_encontro: null, prefixo_do_clima: null,
};

/** How many lines the strip shows: on a phone, or on a larger screen. */
export const maxLines = (phone) => (phone ? rules().linhas_no_celular : rules().linhas);

const dataOf = (event) => (event && event.data && typeof event.data === "object" ? event.data : {});
const has = (data, key) => data[key] !== undefined && data[key] !== null;

/** "X:6" chance checks: did the roll miss? (unknown shapes count as a hit: better shown). */
function missed(data) {
  const match = /^(\d+):(\d+)$/.exec(String(data.chance || ""));
  return Boolean(match) && Number(data.total) > Number(match[1]);
}

/** The clock's own lines at the start of a travel round: "Dia 1, rodada 2 de 6.", the weather
 * rolls and "Clima: …", and an encounter check that found nothing. */
export function isPreamble(event) {
  const data = dataOf(event);
  if (event.kind === "relato") return (has(data, "dia") && has(data, "rodada")) || has(data, "clima");
  if (event.kind === "rolagem") {
    const table = String(data.tabela || "");
    const { prefixo_do_clima: weather, checagem_de_encontro: check } = rules();
    return (Boolean(weather) && table.startsWith(weather)) || (Boolean(check) && table === check && missed(data));
  }
  return false;
}

/**
 * The events to show, in log order, at most `limit`: every warning, the news (`destaques`: an
 * encounter that appears), the last plain line (relato, pedido, resposta) and the rolls — in
 * that order of need when they must be cut. `more` counts the events left out (the log has
 * them all).
 */
export function outcome(events, limit = maxLines(false)) {
  const never = new Set(rules().nao_sao_resultado || []);
  const shown = events.filter((e) => e && typeof e === "object" && !never.has(e.kind));
  const useful = shown.filter((e) => !isPreamble(e));
  const pool = useful.length ? useful : shown;
  const plain = pool.filter((e) => e.kind !== "aviso" && e.kind !== "rolagem");
  const keys = rules().destaques || [];
  const news = plain.filter((e) => keys.some((key) => has(dataOf(e), key)));
  const ranked = [
    ...pool.filter((e) => e.kind === "aviso"),
    ...news,
    ...plain.slice(-1),
    ...pool.filter((e) => e.kind === "rolagem"),
    ...plain.slice(0, -1).reverse(),
  ];
  const chosen = new Set();
  for (const event of ranked) { // an event ranked twice (news and the last line) counts once
    if (chosen.size === limit) break;
    chosen.add(event);
  }
  return { lines: pool.filter((e) => chosen.has(e)), more: shown.length - chosen.size };
}
