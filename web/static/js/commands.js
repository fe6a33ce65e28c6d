// The command texts the pages send for prompts, in forms companion/commands/parse.py accepts.
import { label, pages } from "./pages.js";
//
// Every answer names its prompt by id ("responder pedido 3 rolar", "responder pedido 3 valor 14",
// "responder pedido 3 opcao exaustao", "cancelar pedido 3"), so any pending prompt can be
// answered in any order, on the GM page and on the player's phone alike. The untargeted forms
// ("responder rolar", "opcao sim") are only a fallback for a prompt without an id.

const hasId = (prompt) => prompt && prompt.id !== undefined && prompt.id !== null && prompt.id !== "";

/** The text that answers `prompt` by rolling, with a physical die value or with an option. */
export function answerText(prompt, { value, value2, option } = {}) {
  const target = hasId(prompt) ? `responder pedido ${prompt.id}` : "responder";
  const said = (v) => v !== undefined && v !== null && String(v).trim() !== "";
  const whole = (v) => Number.parseInt(String(v).trim(), 10);
  if (said(value) && said(value2)) return `${target} ${whole(value)} e ${whole(value2)}`;
  if (said(value)) return `${target} valor ${whole(value)}`;
  if (option !== undefined) return `${target} opcao ${optionValue(option)}`;
  return `${target} rolar`;
}

/** The text that cancels `prompt` (GM only). */
export function cancelText(prompt) {
  return hasId(prompt) ? `cancelar pedido ${prompt.id}` : "cancelar";
}

// A prompt's options are its canonical values (`opcoes`), texts.
const optionValue = (option) => String(option ?? "");

/** How an option of a choice prompt is shown on a button (the value sent stays the option):
 * tables/paginas.yaml `opcoes`, else the prompt's own name for it (`opcoes_nomes`). */
export function optionLabel(option, named) {
  const value = optionValue(option);
  const labels = pages().opcoes || {};
  if (labels[value]) return labels[value];
  const label = typeof named === "string" && named.trim() ? named : value;
  return String(label).replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}

/** What is wrong with a typed die value for `prompt` (a promptInfo), in the card's words;
 * null when it is fine. The server says the die's values and the words (`faixa`). */
export function valueProblem(prompt, raw) {
  const range = prompt && prompt.range;
  const text = String(raw ?? "").trim();
  if (!range) return null; // the server judges it (and says why in the card's words)
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || value < range.low || value > range.high) return range.warning;
  return null;
}

/** A refusal of an answer as the person who tapped the card reads it. `refusal` is the
 * acknowledgement `{error, codigo, cartao}` (or a plain message): the card's own words when
 * the server sent them (`cartao`), else the refusal's. */
export function plainAnswerError(refusal, prompt) {
  const { error, cartao } = refusal && typeof refusal === "object" ? refusal : { error: refusal };
  if (cartao) return String(cartao);
  const text = String(error || "").trim();
  return text ? text.charAt(0).toUpperCase() + text.slice(1).replace(/([^.!?…])$/, "$1.") : label("conexao.nao_deu_certo");
}
