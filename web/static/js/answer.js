// The player's own last answer, summed up where its prompt card was: "Você tirou 20 — falhou:
// Impactado. 2 de dano em Sabedoria." Built only from the events the phone receives: the
// `resposta` event and the events of the same command that follow it, in seq order, and the
// prompt it answered (from its `pedido` event) — data, never the wording of the texts.
import { sentence } from "./common.js";
import { optionLabel } from "./commands.js";
import { label } from "./pages.js";

const dataOf = (event) => (event && event.data && typeof event.data === "object" ? event.data : {});
const isNumber = (value) => value !== undefined && value !== null && value !== "" && Number.isFinite(Number(value));

/** Is this `resposta` an answer to one of `characterId`'s prompts? */
export function isOwnAnswer(event, characterId) {
  return Boolean(event) && event.kind === "resposta" && Boolean(characterId)
    && dataOf(event).personagem === characterId;
}

/** Does `event` belong to the answer that started with `answer`? The same command name, and
 * about this character or about nobody in particular (another player's answer never is). */
export function followsAnswer(event, answer) {
  if (!event || !answer || event.kind === "resposta" || event.command !== answer.command) return false;
  const who = dataOf(event).personagem;
  return who === undefined || who === null || who === dataOf(answer).personagem;
}

/** "20", or "15 + 1 = 16" when a modifier was added to the die. */
function valueText(data) {
  const total = Number(data.total);
  if (!isNumber(data.natural) || Number(data.natural) === total) return String(total);
  const mod = total - Number(data.natural);
  return `${data.natural} ${mod > 0 ? "+" : "−"} ${Math.abs(mod)} = ${total}`;
}

/** Passed or failed: from an event's `sucesso`, else — a test the engine judges by the
 * prompt's DC alone (companion.engine.prompting.passed) — the answer's total against that DC. */
function verdictOf(events, answer, prompt) {
  for (const event of events) {
    const data = dataOf(event);
    if (typeof data.sucesso === "boolean") return { event, ok: data.sucesso };
  }
  const total = dataOf(answer).total;
  if (prompt && isNumber(prompt.dc) && isNumber(total)) {
    return { event: null, ok: Number(total) >= Number(prompt.dc) };
  }
  return null;
}

/** The first table row the answer led to (Tabela J's effect…), not the answer's own die. A
 * row the companion acted on says on its card what came of it (`cartao`: "Terror por 3
 * rodadas…", never "Role 1d8 na Tabela K"): then the seed's own row is left out too. */
function tableRowOf(events) {
  const event = events.find((e) => dataOf(e).tabela && typeof dataOf(e).resultado === "string"
    && dataOf(e).resultado.trim() && dataOf(e).pedido === undefined);
  const card = events.find((e) => typeof dataOf(e).cartao === "string" && dataOf(e).cartao.trim());
  if (card) return { event: card, also: event, text: dataOf(card).cartao.trim() };
  return event ? { event, text: String(dataOf(event).relato || dataOf(event).resultado).trim() } : null;
}

/**
 * The card's content: {headline, details, ok}. `prompt` is the answered prompt as the page last
 * saw it (for option names and its DC), or null; `byGm`: the GM answered for the player (the
 * page did not send this answer); `by`: who answered a group prompt for everyone (another
 * player's name, or "O Mestre"). `ok` is true/false when a test passed/failed, else null.
 */
export function answerSummary(answer, followers = [], prompt = null, byGm = false, by = null) {
  const data = dataOf(answer);
  let headline;
  if (data.opcao !== undefined && data.opcao !== null) {
    const index = prompt && Array.isArray(prompt.options) ? prompt.options.indexOf(data.opcao) : -1;
    const opcao = optionLabel(data.opcao, index >= 0 && prompt.labels ? prompt.labels[index] : undefined);
    headline = by ? label("resposta.escolheu_pelo_grupo", { nome: by, opcao })
      : label(byGm ? "resposta.mestre_escolheu" : "resposta.voce_escolheu", { opcao });
  } else if (isNumber(data.total)) {
    const valor = valueText(data);
    headline = by ? label("resposta.tirou_pelo_grupo", { nome: by, valor })
      : label(byGm ? "resposta.mestre_rolou" : "resposta.voce_tirou", { valor });
  } else {
    headline = label("resposta.registrada");
  }
  const shown = followers.filter((e) => e.kind !== "pedido" && e.kind !== "resposta");
  const verdict = verdictOf(shown, answer, prompt);
  const row = tableRowOf(shown);
  if (verdict) headline = label(verdict.ok ? "resposta.passou" : "resposta.falhou", { frase: headline });
  if (row) headline = label(verdict ? "resposta.linha_depois_do_teste" : "resposta.linha", { frase: headline, linha: row.text });
  const used = new Set([verdict && verdict.event, row && row.event, row && row.also].filter(Boolean));
  const details = shown.filter((e) => !used.has(e) && String(e.text || "").trim())
    .map((e) => sentence(e.text)).slice(0, 3);
  return { headline: sentence(headline), details, ok: verdict ? verdict.ok : null };
}
