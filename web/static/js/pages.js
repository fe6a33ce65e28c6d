// What the server says the pages show: each mode's name and quick buttons, the player's dice,
// the prompt cards' titles and the option buttons' labels (tables/paginas.yaml, sent in
// `boas_vindas.paginas`). The pages keep none of these texts themselves.

let current = { modos: {}, botoes: {}, dados_jogador: [], titulos_pedidos: {}, opcoes: {} };

/** Take the `paginas` of a `boas_vindas` (anything else is ignored). */
export function setPages(data) {
  if (data && typeof data === "object" && !Array.isArray(data)) current = { ...current, ...data };
}

export const pages = () => current;
