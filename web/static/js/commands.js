// The command texts the pages send for prompts, in forms companion/commands/parse.py accepts.
//
// Today the parser targets a prompt by id only for a typed value ("responder ao pedido 3 com
// 14"); rolling and choosing ("responder rolar", "opcao descansar") go to the actor's oldest
// prompt (for the GM: the oldest of all). So the pages offer those buttons on the oldest prompt
// only, and `answerText(..., {oldest: false})` uses the targeted forms for the rest.

/** The text that answers `prompt` by rolling, with a physical die value or with an option. */
export function answerText(prompt, { value, option, oldest = true } = {}) {
  const id = prompt.id !== undefined && prompt.id !== null ? String(prompt.id) : null;
  if (value !== undefined && value !== "") {
    const number = Number.parseInt(value, 10);
    return id ? `responder ao pedido ${id} com ${number}` : `responder ${number}`;
  }
  if (option !== undefined) {
    const chosen = optionValue(option);
    return oldest || !id ? `opcao ${chosen}` : `responder pedido ${id} opcao ${chosen}`;
  }
  return oldest || !id ? "responder rolar" : `responder pedido ${id} rolar`;
}

/** The text that cancels `prompt` (GM only). */
export function cancelText(prompt) {
  return prompt.id !== undefined && prompt.id !== null ? `cancelar pedido ${prompt.id}` : "cancelar";
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
