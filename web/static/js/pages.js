// What the server says the pages show: each mode's name and quick buttons, the player's dice,
// the prompt cards' titles, the option buttons' labels and the seat controls' words
// (tables/paginas.yaml, sent in `boas_vindas.paginas`). The pages keep none of these texts
// themselves.

let current = { modos: {}, botoes: {}, dados_jogador: [], titulos_pedidos: {}, opcoes: {}, lugares: {}, rodada: {}, ultimo_resultado: null };

/** Take the `paginas` of a `boas_vindas` (anything else is ignored). */
export function setPages(data) {
  if (data && typeof data === "object" && !Array.isArray(data)) current = { ...current, ...data };
}

export const pages = () => current;

/** A seat control's words (paginas.yaml `lugares`), {nome}, {n} and {hora} filled in. */
export function seatText(key, values = {}) {
  return filled((current.lugares || {})[key], values);
}

/** A "Nesta rodada" word (paginas.yaml `rodada`), {nome}, {atividade} and {n} filled in. */
export function roundText(key, values = {}) {
  return filled((current.rodada || {})[key], values);
}

function filled(template, values) {
  return String(template ?? "").replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}
