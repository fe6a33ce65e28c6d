// One prompt card for both pages: the GM's (roll or choose for the player, type a die rolled at
// the table, cancel) and the player's phone (roll, type the die, choose). Titles and option
// labels come from the server (pages.js); a refusal is shown inside the card, in plain words
// in the words the server sends for it (`cartao`, commands.plainAnswerError).
import { el } from "./common.js";
import { label } from "./pages.js";
import { promptTitle, promptDetail } from "./view.js";
import { answerText, cancelText, optionLabel, plainAnswerError, valueProblem } from "./commands.js";

/**
 * `p` is a promptInfo; `send(text, show)` runs a command text and calls `show(message, ack)` on
 * a refusal. Options: `gm` (the GM's card: whose prompt, "Rolar por Ana", a cancel button),
 * `who` (the owner's name, for the GM), `compact` (an older prompt, shown small).
 */
export function promptCard(p, { gm = false, who = "", compact = false, send }) {
  const title = promptTitle(p.kind);
  const error = el("p", { class: "error", role: "alert", hidden: true });
  const showHere = (message, ack) => {
    error.textContent = plainAnswerError(ack || message, p);
    error.hidden = false;
  };
  const run = (text) => send(text, showHere);
  const answers = p.options.length ? optionButtons(p, { gm, compact, run }) : rollAnswers(p, { gm, who, compact, run, showHere });
  const heading = gm
    ? el("h3", {}, el("span", { class: "who", text: who }), ` · ${title}`, compact ? el("span", { class: "tag", text: label("pedidos.antigo") }) : null)
    : el("h2", { text: title }); // a player's cards open the page, right under its h1
  const detail = gm ? promptDetail(p) : "";
  const frame = gm
    ? { class: `prompt for-gm${compact ? " older" : " current"}`, "data-pedido": p.id ?? "" }
    : { class: `prompt${compact ? " compact" : " current"}`, role: compact ? "group" : "alertdialog", "aria-label": title, "data-pedido": p.id ?? "" };
  return el("div", frame,
    heading,
    el("p", { class: "prompt-text", text: p.text }),
    detail ? el("p", { class: "dice", text: detail }) : null,
    answers,
    error,
    gm ? el("button", { type: "button", class: "danger cancel", text: label("pedidos.cancelar"), onclick: () => run(cancelText(p)) }) : null);
}

function optionButtons(p, { gm, compact, run }) {
  return el("div", { class: "options" }, p.options.map((option, i) => el("button", {
    type: "button", class: gm || compact ? null : "big", text: optionLabel(option, p.labels[i]),
    onclick: () => run(answerText(p, { option })),
  })));
}

/** "Rolar" (the companion rolls) and the value of a die rolled at the table. */
function rollAnswers(p, { gm, who, compact, run, showHere }) {
  const inputId = `valor-${p.id}`;
  const bounds = p.range;
  const placeholder = gm ? (compact ? label("pedidos.valor_compacto_mestre", { dados: p.dice }) : null)
    : bounds ? label("pedidos.faixa", { minimo: bounds.low, maximo: bounds.high }) : label("pedidos.digite_inteiro");
  const input = el("input", { type: "number", id: inputId, inputmode: "numeric", min: "1", placeholder });
  const valueLabel = gm ? label(compact ? "pedidos.valor_mestre_compacto" : "pedidos.valor_mestre", { dados: p.dice })
    : label(compact ? "pedidos.valor_compacto" : "pedidos.valor_jogador");
  // Under DESV (or vantagem) the prompt asks for both dice: a second field, which may stay empty
  // (then the first is the one kept).
  const secondId = `valor2-${p.id}`;
  const second = p.edge
    ? el("input", { type: "number", id: secondId, inputmode: "numeric", min: "1", placeholder })
    : null;
  const form = el("form", { class: `manual${second ? " two" : ""}`, novalidate: true },
    el("label", { for: inputId, text: second ? label(compact || gm ? "pedidos.primeiro_dado_compacto" : "pedidos.primeiro_dado") : valueLabel }), input,
    second ? el("label", { for: secondId, text: label("pedidos.segundo_dado") }) : null, second,
    el("button", { type: "submit", text: label(gm ? "pedidos.responder" : second ? "pedidos.enviar_valores" : "pedidos.enviar_valor") }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = input.value.trim();
    const value2 = second ? second.value.trim() : "";
    const problem = valueProblem(p, value) || (value2 ? valueProblem(p, value2) : null);
    if (problem) showHere(problem);
    else run(answerText(p, { value, value2 }));
  });
  const roll = gm
    ? el("button", { type: "button", class: compact ? "roll-for" : "roll-for primary",
      text: p.character ? label("pedidos.rolar_por", { nome: who }) : label("pedidos.rolar_dados", { dados: p.dice }),
      onclick: () => run(answerText(p, {})) })
    : el("button", { type: "button", class: compact ? "roll" : "primary big", text: label("pedidos.rolar"), onclick: () => run(answerText(p, {})) });
  const detail = gm ? "" : promptDetail(p, { always: true });
  return [detail ? el("p", { class: "dice", text: detail }) : null, roll, form];
}
