// The command texts the pages send for prompts, in forms companion/commands/parse.py accepts.
//
// Every answer names its prompt by id ("responder pedido 3 rolar", "responder pedido 3 valor 14",
// "responder pedido 3 opcao exaustao", "cancelar pedido 3"), so any pending prompt can be
// answered in any order, on the GM page and on the player's phone alike. The untargeted forms
// ("responder rolar", "opcao sim") are only a fallback for a prompt without an id.

const hasId = (prompt) => prompt && prompt.id !== undefined && prompt.id !== null && prompt.id !== "";

/** The text that answers `prompt` by rolling, with a physical die value or with an option. */
export function answerText(prompt, { value, option } = {}) {
  const target = hasId(prompt) ? `responder pedido ${prompt.id}` : "responder";
  if (value !== undefined && value !== null && String(value).trim() !== "") {
    return `${target} valor ${Number.parseInt(String(value).trim(), 10)}`;
  }
  if (option !== undefined) return `${target} opcao ${optionValue(option)}`;
  return `${target} rolar`;
}

/** The text that cancels `prompt` (GM only). */
export function cancelText(prompt) {
  return hasId(prompt) ? `cancelar pedido ${prompt.id}` : "cancelar";
}

function optionValue(option) {
  if (option && typeof option === "object") return String(option.id ?? option.valor ?? option.nome ?? "");
  return String(option);
}

/** How an option of a choice prompt is shown on a button (the value sent stays the option). */
const OPTION_LABELS = { sim: "Sim", nao: "Não", descansar: "Descansar 2 rodadas", exaustao: "Receber 1 de exaustão" };

export function optionLabel(option) {
  const value = optionValue(option);
  if (OPTION_LABELS[value]) return OPTION_LABELS[value];
  const label = option && typeof option === "object" ? option.texto ?? option.nome ?? value : value;
  return String(label).replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}
