// The command texts the pages send for prompts, in forms companion/commands/parse.py accepts.
import { pages } from "./pages.js";
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

/** Lowest and highest value of "NdS" or "NdS+M" (the engine's party.die_range), else null. */
export function dieBounds(dice) {
  const match = /^(\d*)d(\d+)([+-]\d+)?$/.exec(String(dice || "").toLowerCase().replace(/\s+/g, ""));
  if (!match) return null;
  const count = Number(match[1] || 1);
  const bonus = Number(match[3] || 0);
  return [count + bonus, count * Number(match[2]) + bonus];
}

const rangeText = ([low, high]) => `Digite um número de ${low} a ${high}.`;

/** What is wrong with a typed die value for `prompt`, in plain words; null when it is fine. */
export function valueProblem(prompt, raw) {
  const bounds = dieBounds(prompt && prompt.dice);
  const text = String(raw ?? "").trim();
  if (!bounds) return /^\d+$/.test(text) ? null : "Digite um número inteiro.";
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || value < bounds[0] || value > bounds[1]) return rangeText(bounds);
  return null;
}

const GONE = "Este pedido já foi respondido ou cancelado.";

/** What the card says for a refusal the server marked with a `codigo`
 * (companion.tables.protocol.REFUSAL_CODES); null: show the server's own words. */
const BY_CODE = {
  valor_fora_do_dado: (prompt) => { const bounds = dieBounds(prompt && prompt.dice); return bounds ? rangeText(bounds) : null; },
  pedido_encerrado: () => GONE,
  pedido_desconhecido: () => GONE,
  sem_pedido: () => GONE,
  pedido_alheio: () => "Este pedido não é seu; responda só aos seus pedidos.",
};

/** A refusal of an answer as the person who tapped the card reads it. `refusal` is the
 * acknowledgement `{error, codigo}` (or a plain message): the page decides on the code, never
 * on the wording. */
export function plainAnswerError(refusal, prompt) {
  const { error, codigo } = refusal && typeof refusal === "object" ? refusal : { error: refusal };
  const byCode = Object.hasOwn(BY_CODE, String(codigo)) ? BY_CODE[codigo](prompt) : null;
  if (byCode) return byCode;
  const text = String(error || "").trim();
  return text ? text.charAt(0).toUpperCase() + text.slice(1).replace(/([^.!?…])$/, "$1.") : "Não deu certo. Tente de novo.";
}
