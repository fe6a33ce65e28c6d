// What the server says the pages show. Two sources, both from tables/:
// - `label(key, values)`: the page's own words (tables/rotulos_paginas.yaml), which the server
//   puts inside the page it serves (`<script type="application/json" id="textos">`), so they are
//   there from the first paint, before any connection; with them the sheet's field names
//   (`fieldName`, personagem.yaml `rotulos`) and what the sheets highlight (`highlights`);
// - `pages()`: each mode's name and quick buttons, the player's dice, the prompt cards' titles,
//   the option buttons' labels and the seat controls' words (tables/paginas.yaml, sent in
//   `boas_vindas.paginas`).
// The pages keep none of these texts themselves.

let current = { modos: {}, botoes: {}, dados_jogador: [], titulos_pedidos: {}, opcoes: {}, lugares: {}, rodada: {}, ultimo_resultado: null };
let served = null;

/** Take the `paginas` of a `boas_vindas` (anything else is ignored). */
export function setPages(data) {
  if (data && typeof data === "object" && !Array.isArray(data)) current = { ...current, ...data };
}

export const pages = () => current;

/** The page's own words as the server put them in it ({} when it did not). */
function words() {
  if (served === null) {
    const node = document.getElementById("textos");
    try { served = JSON.parse(node ? node.textContent : "{}") || {}; } catch (_e) { served = {}; }
  }
  return served;
}

/** A page's word (rotulos_paginas.yaml `textos`, "section.key"), its {marks} filled in from
 * `values`; an unknown key shows as itself, so a missing word is seen, never blank. */
export function label(key, values = {}) {
  const [section, name] = String(key).split(".");
  const texts = (words().textos || {})[section] || {};
  return name in texts ? filled(texts[name], values) : String(key);
}

/** How the sheet names a field (personagem.yaml `rotulos.campos`), or `fallback`. */
export function fieldName(field, fallback = field) {
  const names = words().campos || {};
  return typeof names[field] === "string" ? names[field] : fallback;
}

/** What the sheets show as low (rotulos_paginas.yaml `destaques`). */
export const highlights = () => words().destaques || {};

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
