// The outcome of one command, for the GM's strip above the command box: a travel round starts
// with the clock, the weather and the encounter check, but what the GM wants at a glance is
// what the activity gave (Tabela E's result, the rest, a mishap), not the preamble.

/** Event kinds that are never an outcome (a help text, a state dump). */
const NOT_OUTCOME = new Set(["ajuda", "estado"]);
/** The check's name of the contract ("Encontro aleatório"): a miss is preamble, a hit is news. */
const ENCOUNTER_CHECK = "Encontro aleatório";
export const MAX_LINES = 3;

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
    return table.startsWith("Clima") || (table === ENCOUNTER_CHECK && missed(data));
  }
  return false;
}

/**
 * The events to show, in log order, at most `limit`: every warning, the rolls, and the last
 * plain line (relato, pedido, resposta) — the warnings and that last line first when they must
 * be cut. `more` counts the events left out (the log has them all).
 */
export function outcome(events, limit = MAX_LINES) {
  const shown = events.filter((e) => e && typeof e === "object" && !NOT_OUTCOME.has(e.kind));
  const useful = shown.filter((e) => !isPreamble(e));
  const pool = useful.length ? useful : shown;
  const plain = pool.filter((e) => e.kind !== "aviso" && e.kind !== "rolagem");
  const ranked = [
    ...pool.filter((e) => e.kind === "aviso"),
    ...plain.slice(-1),
    ...pool.filter((e) => e.kind === "rolagem"),
    ...plain.slice(0, -1).reverse(),
  ];
  const chosen = new Set(ranked.slice(0, limit));
  return { lines: pool.filter((e) => chosen.has(e)), more: shown.length - chosen.size };
}
