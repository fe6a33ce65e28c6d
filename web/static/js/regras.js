// The GM's "Regras" screen: the campaign's regions with their encounter tables, the voice's
// names (the campaign's own, changed as rules; the learned ones, forgotten with {"esquecer"})
// and the house values (scalars, lists, maps, closed choices), a form built from GET
// /api/regras (the fields come from tables/, with their labels).
// Every value is checked as it is typed by the server's own loader (Socket.IO `regras`
// {"validar": …}, a dry run) and changed with {"alterar": …}: one logged, undoable command.
// There is no validator here: the messages are the server's.
import { $, el, sentence } from "./common.js";
import { label } from "./pages.js";

const TYPED_PAUSE_MS = 350;

/** "Floresta Sombria" → "floresta-sombria" (the id of a new region). */
function slug(text) {
  return String(text).normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .trim().split(/\s+/).join("-");
}

/** {arquivo: {a: {b: value}}} for the key path "a.b" of that file. */
function patchAt(file, key, value) {
  const root = {};
  let node = (root[file] = {});
  const parts = key.split(".");
  parts.slice(0, -1).forEach((part) => { node = node[part] = {}; });
  node[parts[parts.length - 1]] = value;
  return root;
}

/** What an input says, as the kind it is for ({tipo}): the server's loader checks it. */
function typedValue(field, input) {
  if (field.tipo === "sim_nao") return input.checked;
  if (field.tipo === "escolha") return input.value;
  const raw = input.value.trim();
  if (field.tipo === "inteiro" && /^-?\d+$/.test(raw)) return Number.parseInt(raw, 10);
  if (field.tipo === "numero" && raw !== "" && !Number.isNaN(Number(raw.replace(",", ".")))) {
    return Number(raw.replace(",", "."));
  }
  return raw;  // anything else goes as said: the server says what it should be
}

function debounce(fn) {
  let timer = null;
  return (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), TYPED_PAUSE_MS); };
}

export function rulesScreen({ ask, token, onChanged }) {
  const screen = $("#rules");
  const opener = $("#rules-open");
  const status = $("#rules-status");
  let data = null;

  const api = (path, options = {}) => fetch(path, {
    ...options,
    headers: { Authorization: `Bearer ${token()}`, ...(options.headers || {}) },
  });

  function say(text, bad = false) {
    status.textContent = text;
    status.classList.toggle("bad", bad);
  }

  async function load() {
    const answer = await api("/api/regras");
    if (!answer.ok) { say(label("regras.nao_leu"), true); return; }
    data = await answer.json();
    // a re-render must not take away what the GM is typing in another field (its own change
    // comes when it loses focus): the focused input keeps its text and the focus
    const typing = screen.contains(document.activeElement) && document.activeElement.id
      ? { id: document.activeElement.id, value: document.activeElement.value } : null;
    renderRegions();
    renderNames();
    renderValues();
    const again = typing && document.getElementById(typing.id);
    if (again) {
      if (again.matches("input[type=text]") && again.value !== typing.value) {
        again.value = typing.value;
        again.dispatchEvent(new Event("input", { bubbles: true }));
      }
      again.focus();
    }
  }

  /** Change the rules; "salvo" is said at the top and next to what was edited (`near`: the
   * id of the field's or region's message line, found again after the screen is redrawn),
   * with the server's warnings (`avisos`) when it has some. */
  async function change(patch, what, near = null, verb = "alterar") {
    const ack = await ask({ [verb]: patch });
    if (ack.ok) {
      const saved = label("regras.salvo", { o_que: what });
      say(saved);
      await load();
      const spot = near && document.getElementById(near);
      if (spot) {
        spot.textContent = [saved, ...warningsOf(ack)].join(" ");
        spot.classList.add("saved");
        spot.classList.toggle("warn", warningsOf(ack).length > 0);
      }
      if (onChanged) onChanged();
    } else {
      say(sentence(ack.erro || ack.error || label("regras.recusado")), true);
    }
    return ack;
  }

  /** A word of the regions' screen, as GET /api/regras sends it (regras_tela.yaml `regioes`). */
  const regionWord = (key) => String(((data && data.textos) || {})[key] ?? "");

  // a refusal of the loader names the file and the key ("tables/encontros.yaml:
  // 'regioes.floresta-sombria.linhas.2.quantidade' deveria ser…"): the form says the field
  const REGION_KEY = /regioes\.[^.']+\.(linhas\.(\d+)\.?(\w*)|\w+)/;
  const REGION_REFUSAL = /(?:tables\/[\w.-]+\.yaml: )?'(regioes\.[^']+)'/;
  function formWords(text) {
    const said = REGION_REFUSAL.exec(text);
    const found = said && REGION_KEY.exec(said[1]);
    if (!found) return text;
    const field = found[2]
      ? label("regras.linha_campo", { n: found[2], campo: regionWord(found[3] === "quantidade" ? "quantidade" : "texto") })
      : regionWord(found[1]);
    return field ? `${text.slice(0, said.index)}${field}${text.slice(said.index + said[0].length)}` : text;
  }

  const warningsOf = (ack) => (ack && Array.isArray(ack.avisos) ? ack.avisos.map(String) : []);

  async function check(patch) {
    return ask({ validar: patch });
  }

  // ------------------------------------------------------------------ house values

  function renderValues() {
    const box = $("#rules-values");
    box.replaceChildren();
    const files = new Map();
    for (const field of data.campos) {
      if (!files.has(field.arquivo)) files.set(field.arquivo, []);
      files.get(field.arquivo).push(field);
    }
    for (const [file, fields] of files) {
      const legend = fields[0].rotulo.split(" › ")[0];
      box.append(el("fieldset", { class: "rule-file" }, el("legend", { text: legend }),
        ...fields.map(fieldRow)));
    }
  }

  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const optionLabel = (kind, value) => (kind.rotulos_opcoes || {})[value] ?? String(value);

  /** One input for a scalar of `kind` ({tipo, opcoes}): text, number, yes/no or a choice. */
  function scalarInput(kind, value, props = {}) {
    let input;
    if (kind.tipo === "escolha") {
      input = el("select", props, ...kind.opcoes.map((o) => el("option", { value: o, text: optionLabel(kind, o) })));
      input.value = value;
    } else if (kind.tipo === "sim_nao") {
      input = el("input", { ...props, type: "checkbox" });
      input.checked = Boolean(value);
    } else {
      const numeric = kind.tipo === "inteiro" || kind.tipo === "numero";
      input = el("input", { ...props, type: "text", value: String(value ?? ""),
        inputmode: numeric ? "numeric" : undefined, autocomplete: "off" });
    }
    return input;
  }

  /** A field's editor: its element, its inputs and the value they say now. */
  function editorFor(field, id, describedBy) {
    const labels = field.rotulos_itens || [];
    if (field.tipo === "lista" && field.tamanho) {  // a fixed pair: [mínimo, máximo]
      const inputs = field.itens.map((kind, i) => scalarInput(kind, field.valor[i], {
        id: `${id}-${i}`, "aria-describedby": describedBy }));
      const element = el("div", { class: "rule-items" }, ...inputs.map((input, i) =>
        el("label", { for: input.id, class: "rule-item" }, el("span", { text: labels[i] || `${i + 1}` }), input)));
      return { element, inputs: () => inputs,
        value: () => inputs.map((input, i) => typedValue(field.itens[i], input)) };
    }
    if (field.tipo === "lista") return growingList(field, id, describedBy);
    if (field.tipo === "mapa") return mapRows(field, id, describedBy);
    const input = scalarInput(field, field.valor, { id, "aria-describedby": describedBy });
    return { element: input, inputs: () => [input], value: () => typedValue(field, input) };
  }

  function growingList(field, id, describedBy) {
    const list = el("ol", { class: "rule-list" });
    const kind = field.itens[0];
    let count = 0;
    const item = (value) => {
      const input = scalarInput(kind, value, { id: `${id}-${count++}`, "aria-describedby": describedBy });
      const row = el("li", {}, input, el("button", { type: "button", class: "small danger", text: "✕",
        "aria-label": label("regras.tirar", { valor: value ?? "" }).trim(), onclick: () => { row.remove(); list.dispatchEvent(new Event("change", { bubbles: true })); } }));
      input.setAttribute("aria-label", label("regras.item", { nome: field.rotulo.split(" › ").pop() }));
      return row;
    };
    (field.valor || []).forEach((value) => list.append(item(value)));
    const add = el("button", { type: "button", class: "small", text: label("regras.acrescentar"),
      onclick: () => { list.append(item(kind.tipo === "inteiro" ? 0 : "")); list.lastChild.querySelector("input, select").focus(); } });
    return { element: el("div", {}, list, add), inputs: () => [...list.querySelectorAll("input, select")],
      value: () => [...list.querySelectorAll("input, select")].map((input) => typedValue(kind, input)) };
  }

  function mapRows(field, id, describedBy) {
    const words = field.rotulos_mapa || {};
    const rows = el("ul", { class: "rule-map" });
    let count = 0;
    const row = (key, value) => {
      const n = count++;
      const keyInput = el("input", { id: `${id}-k${n}`, type: "text", value: key, class: "map-key",
        autocomplete: "off", "aria-describedby": describedBy });
      const valueInput = scalarInput(field.valores, value, { id: `${id}-v${n}`, class: "map-value",
        "aria-describedby": describedBy });
      const item = el("li", { class: "rule-map-row" },
        el("label", { for: keyInput.id, class: "rule-item" }, el("span", { text: words.chave || label("regras.chave") }), keyInput),
        el("label", { for: valueInput.id, class: "rule-item" }, el("span", { text: words.valor || label("regras.valor") }), valueInput),
        el("button", { type: "button", class: "small danger", text: "✕",
          "aria-label": label("regras.tirar", { valor: key || words.chave || label("regras.linha_curta") }),
          onclick: () => { item.remove(); rows.dispatchEvent(new Event("change", { bubbles: true })); } }));
      return item;
    };
    Object.entries(field.valor || {}).forEach(([key, value]) => rows.append(row(key, value)));
    const add = el("button", { type: "button", class: "small", text: words.nova || label("regras.acrescentar"),
      onclick: () => { rows.append(row("", field.valores.tipo === "inteiro" ? 0 : "")); rows.lastChild.querySelector("input").focus(); } });
    const value = () => {
      const now = {};
      for (const item of rows.children) {
        const key = item.querySelector(".map-key").value.trim();
        if (key) now[key] = typedValue(field.valores, item.querySelector(".map-value"));
      }
      // a key taken away goes back to the shipped map (null), as the file's overrides say it
      for (const key of Object.keys(field.valor || {})) if (!(key in now)) now[key] = null;
      return now;
    };
    return { element: el("div", {}, rows, add), inputs: () => [...rows.querySelectorAll("input, select")], value };
  }

  function fieldRow(field) {
    const id = "regra-" + field.arquivo + "-" + field.chave.replaceAll(".", "-");
    const message = el("p", { class: "rule-msg", id: `${id}-msg`, "aria-live": "polite" });
    const name = field.rotulo.split(" › ").slice(1).join(" › ");
    const editor = editorFor(field, id, message.id);
    const composite = field.tipo === "lista" || field.tipo === "mapa";
    const changed = !same(field.valor, field.padrao);
    const shown = (value) => (typeof value === "object" && value !== null ? JSON.stringify(value) : String(value));
    const reset = el("button", {
      type: "button", class: "small", hidden: !changed,
      text: label("regras.voltar_ao_padrao"), title: label("regras.padrao", { padrao: shown(field.padrao) }),
      "aria-label": label("regras.voltar_campo_ao_padrao", { nome: name, padrao: shown(field.padrao) }),
      onclick: () => change(patchAt(field.arquivo, field.chave, null), name, message.id),
    });
    const mark = (ack) => {
      for (const input of editor.inputs()) input.setAttribute("aria-invalid", String(!ack.ok));
      message.textContent = ack.ok ? "" : sentence(ack.erro || ack.error || "");
      message.classList.remove("saved", "warn");
    };
    const validate = debounce(async () => mark(await check(patchAt(field.arquivo, field.chave, editor.value()))));
    editor.element.addEventListener("input", validate);
    editor.element.addEventListener("change", async () => {
      const value = editor.value();
      if (same(value, field.valor)) return;
      const ack = await check(patchAt(field.arquivo, field.chave, value));
      mark(ack);
      if (ack.ok) await change(patchAt(field.arquivo, field.chave, value), name, message.id);
    });
    const kind = `rule-field${changed ? " changed" : ""}${composite ? " composite" : ""}`;
    if (composite) {  // several inputs: a group named by its legend
      return el("fieldset", { class: kind, "aria-describedby": message.id },
        el("legend", { text: name }), editor.element, el("div", { class: "rule-input" }, reset), message);
    }
    return el("div", { class: kind }, el("label", { for: id, text: name }),
      el("div", { class: "rule-input" }, editor.element, reset), message);
  }

  // ------------------------------------------------------------------ the voice's names

  function renderNames() {
    const box = $("#rules-names");
    const names = data.nomes_da_voz;
    if (!names) { box.replaceChildren(); return; }
    const words = names.textos || {};
    box.replaceChildren(
      el("p", { class: "muted", text: words.explica || "" }),
      ...names.listas.map((list) => namesList(list, words)),
      learnedNames(names.aprendidos, words));
  }

  function namesList(list, words) {
    const base = `nomes-${list.chave}`;
    const message = el("p", { class: "rule-msg", id: `${base}-msg`, "aria-live": "polite" });
    const patch = (names) => ({ nomes_da_voz: { [list.chave]: names } });
    const input = el("input", { id: `${base}-novo`, type: "text", autocomplete: "off",
      "aria-describedby": message.id });
    const mark = (ack) => {
      input.setAttribute("aria-invalid", String(!ack.ok));
      message.textContent = ack.ok ? "" : sentence(ack.erro || ack.error || "");
      message.classList.remove("saved", "warn");
    };
    const typed = () => [...list.nomes, input.value.trim()];
    input.addEventListener("input", debounce(async () => {
      if (!input.value.trim()) { mark({ ok: true }); return; }
      mark(await check(patch(typed())));
    }));
    const add = async () => {
      if (!input.value.trim()) return;
      const ack = await change(patch(typed()), `${list.rotulo}: ${input.value.trim()}`, message.id);
      if (!ack.ok) mark(ack); else $(`#${base}-novo`)?.focus();
    };
    input.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); add(); } });
    const items = list.nomes.map((name) => el("li", { class: "voice-name" },
      el("span", { text: name }),
      el("button", { type: "button", class: "small danger", text: words.tirar,
        "aria-label": `${words.tirar} ${name} (${list.rotulo})`,
        onclick: () => change(patch(list.nomes.filter((n) => n !== name)), `${list.rotulo}: ${name}`, message.id) })));
    return el("fieldset", { class: "rule-file voice-names", id: base },
      el("legend", { text: list.rotulo }),
      items.length ? el("ul", { class: "voice-name-list" }, ...items) : null,
      el("p", { class: "muted", text: `${list.da_lista} ${words.da_lista || ""}`.trim() }),
      el("label", { for: input.id, text: `${words.novo} (${list.rotulo.toLowerCase()})` }),
      el("div", { class: "rule-input" }, input,
        el("button", { type: "button", class: "primary", id: `${base}-acrescentar`, text: words.acrescentar, onclick: add })),
      message);
  }

  function learnedNames(learned, words) {
    const message = el("p", { class: "rule-msg", id: "nomes-aprendidos-msg", "aria-live": "polite" });
    const forget = async (name) => {
      const ack = await ask({ esquecer: [name.nome] });
      if (ack.ok) {
        say(String(words.esquecido ?? "").replace("{nome}", name.nome));
        await load();
      } else {
        message.textContent = sentence(ack.erro || ack.error || "");
      }
    };
    const items = learned.map((name) => el("li", { class: "voice-name" },
      el("span", {}, name.nome, el("small", { class: "muted", text: " · " + (words.digitado_em ?? "") + " " + name.comando })),
      el("button", { type: "button", class: "small danger", text: words.esquecer,
        "aria-label": `${words.esquecer} ${name.nome}`, onclick: () => forget(name) })));
    return el("fieldset", { class: "rule-file voice-names", id: "nomes-aprendidos" },
      el("legend", { text: words.aprendidos }),
      el("p", { class: "muted", text: words.aprendidos_explica || "" }),
      items.length ? el("ul", { class: "voice-name-list" }, ...items)
        : el("p", { class: "empty", text: words.nenhum_aprendido || "" }),
      message);
  }

  // ------------------------------------------------------------------ regions

  function renderRegions() {
    const box = $("#rules-regions");
    const open = new Set([...box.querySelectorAll("details.region[open]")].map((d) => d.id));
    box.replaceChildren(...data.regioes.map(regionForm), newRegionForm());
    for (const id of open) { const kept = document.getElementById(id); if (kept) kept.open = true; }
  }

  function terrainSelect(id, value, disabled) {
    const select = el("select", { id, disabled },
      ...Object.entries(data.terrenos).map(([key, name]) => el("option", { value: key, text: name })));
    select.value = value;
    return select;
  }

  /** The region's preposition ("na" Floresta Sombria): free text, so the server's check
   * (encontros.yaml `preposicoes`) says what a wrong one should be; the accepted ones come as
   * suggestions (its datalist, `prepositionList`). Empty: none ("em", the narration's). */
  function prepositionInput(id, value, describedBy) {
    return el("input", { id, type: "text", value: value || "", autocomplete: "off",
      list: `${id}-opcoes`, "aria-describedby": describedBy, class: "preposition" });
  }

  function prepositionList(input) {
    return el("datalist", { id: input.getAttribute("list") },
      ...(data.preposicoes || []).map((p) => el("option", { value: p })));
  }

  function regionForm(region) {
    const base = `regiao-${region.id}`;
    const message = el("p", { class: "rule-msg", id: `${base}-msg`, "aria-live": "polite" });
    const rows = el("ol", { class: "rule-rows" });
    const name = el("input", { id: `${base}-nome`, type: "text", value: region.nome,
      disabled: region.padrao, autocomplete: "off" });
    const terrain = terrainSelect(`${base}-terreno`, region.terreno, region.padrao);
    const preposition = prepositionInput(`${base}-preposicao`, region.preposicao, message.id);
    const dice = el("input", { id: `${base}-dados`, type: "text", value: region.dados,
      autocomplete: "off", "aria-describedby": message.id });

    function rowItem(row) {
      const item = el("li", { class: "rule-row" });
      const text = el("input", { type: "text", value: row.texto, class: "row-text",
        autocomplete: "off", "aria-describedby": message.id });
      const count = el("input", { type: "text", value: row.quantidade || "", class: "row-count",
        placeholder: "—", autocomplete: "off", "aria-describedby": message.id });
      const move = (delta) => {
        const sibling = delta < 0 ? item.previousElementSibling : item.nextElementSibling;
        if (!sibling) return;
        if (delta < 0) rows.insertBefore(item, sibling); else rows.insertBefore(sibling, item);
        relabel(); validate();
      };
      item.append(
        el("span", { class: "row-number" }),
        el("label", { class: "row-label" }, el("span", { class: "row-caption" }), text),
        el("label", { class: "row-label count" }, el("span", { text: regionWord("quantidade") }), count),
        el("span", { class: "row-tools" },
          el("button", { type: "button", class: "small up", text: "↑", onclick: () => move(-1) }),
          el("button", { type: "button", class: "small down", text: "↓", onclick: () => move(1) }),
          el("button", { type: "button", class: "small danger remove", text: "✕",
            onclick: () => { item.remove(); relabel(); validate(); } })));
      text.addEventListener("input", () => validate());
      count.addEventListener("input", () => validate());
      return item;
    }

    function relabel() {
      [...rows.children].forEach((item, index) => {
        const n = index + 1;
        item.querySelector(".row-number").textContent = `${n}`;
        item.querySelector(".row-caption").textContent = `${regionWord("linha")} ${n}`;
        item.querySelector(".row-text").setAttribute("aria-label", label("regras.linha_campo", { n, campo: regionWord("texto") }));
        item.querySelector(".row-count").setAttribute("aria-label", label("regras.linha_campo", { n, campo: regionWord("quantidade") }));
        item.querySelector(".up").setAttribute("aria-label", label("regras.subir_linha", { n }));
        item.querySelector(".down").setAttribute("aria-label", label("regras.descer_linha", { n }));
        item.querySelector(".remove").setAttribute("aria-label", label("regras.tirar_linha", { n }));
      });
    }

    function regionPatch() {
      const lines = {};
      [...rows.children].forEach((item, index) => {
        const text = item.querySelector(".row-text").value.trim();
        const count = item.querySelector(".row-count").value.trim();
        lines[index + 1] = count ? { texto: text, quantidade: count } : text;
      });
      const part = { dados: dice.value.trim(), linhas: lines };
      // empty: none ("em"); a null takes away the one the region had (the server refuses a
      // null for a key the region never had)
      const said = preposition.value.trim().toLowerCase();
      if (said) part.preposicao = said; else if (region.preposicao) part.preposicao = null;
      if (!region.padrao) { part.regiao = name.value.trim(); part.terreno = terrain.value; }
      return { encontros: { regioes: { [region.id]: part } } };
    }

    function mark(ack) {
      for (const input of form.querySelectorAll("input, select")) input.removeAttribute("aria-invalid");
      // accepted, it may still carry the server's warnings (a die that never gives some rows)
      message.textContent = ack.ok ? warningsOf(ack).join(" ") : sentence(formWords(ack.erro || ack.error || ""));
      message.classList.remove("saved");
      message.classList.toggle("warn", ack.ok && warningsOf(ack).length > 0);
      if (ack.ok) return;
      // the loader names the key: 'regioes.<id>.linhas.2.quantidade', 'regioes.<id>.dados'
      const found = REGION_KEY.exec(ack.erro || "");
      if (!found) return;
      let target = null;
      if (found[2]) {
        const item = rows.children[Number(found[2]) - 1];
        if (item) target = item.querySelector(found[3] === "quantidade" ? ".row-count" : ".row-text");
      } else {
        target = { dados: dice, regiao: name, terreno: terrain, preposicao: preposition }[found[1]] || null;
      }
      if (target) target.setAttribute("aria-invalid", "true");
    }

    const validate = debounce(async () => mark(await check(regionPatch())));
    dice.addEventListener("input", validate);
    name.addEventListener("input", validate);
    preposition.addEventListener("input", validate);
    terrain.addEventListener("change", validate);
    region.linhas.forEach((row) => rows.append(rowItem(row)));
    relabel();

    const title = region.padrao ? label("regras.regiao_padrao", { nome: region.nome })
      : label("regras.regiao_terreno", { nome: region.nome, terreno: data.terrenos[region.terreno] });
    // what the server says of the table as it is typed sits under the die (where the GM is
    // editing); "salvo" sits by the save button (where the GM tapped)
    const saved = el("p", { class: "rule-msg saved", id: `${base}-salvo`, "aria-live": "polite" });
    const form = el("details", { class: "region", id: base },
      el("summary", { text: title }),
      el("div", { class: "region-head" },
        el("label", { for: name.id, text: regionWord("nome") }), name,
        el("label", { for: terrain.id, text: regionWord("terreno") }), terrain,
        el("label", { for: preposition.id, text: regionWord("preposicao") }), preposition,
        prepositionList(preposition),
        el("label", { for: dice.id, text: regionWord("dados") }), dice),
      message,
      rows,
      el("button", { type: "button", class: "small add-row", text: label("regras.adicionar_linha"),
        onclick: () => { rows.append(rowItem({ texto: "", quantidade: null })); relabel(); validate(); } }),
      saved,
      el("div", { class: "region-tools" },
        el("button", { type: "button", class: "primary save", text: label("regras.salvar_regiao"),
          onclick: async () => { const ack = await change(regionPatch(), region.nome, saved.id); if (!ack.ok) mark(ack); } }),
        region.padrao
          ? el("button", { type: "button", class: "small", text: label("regras.voltar_ao_padrao"), hidden: !region.mudada,
            onclick: () => change({ encontros: { regioes: { [region.id]: null } } }, region.nome, saved.id) })
          : el("button", { type: "button", class: "small danger", text: label("regras.apagar_regiao"),
            onclick: () => change({ encontros: { regioes: { [region.id]: null } } }, region.nome) })));
    return form;
  }

  function newRegionForm() {
    const message = el("p", { class: "rule-msg", id: "nova-regiao-msg", "aria-live": "polite" });
    const name = el("input", { id: "nova-regiao-nome", type: "text", autocomplete: "off",
      "aria-describedby": message.id });
    const terrain = terrainSelect("nova-regiao-terreno", "floresta", false);
    // a refusal is of the name as it was: retyping it clears the refusal
    name.addEventListener("input", () => { message.textContent = ""; });
    terrain.addEventListener("change", () => { message.textContent = ""; });
    const create = async () => {
      const base = data.regioes.find((r) => r.id === terrain.value);
      const lines = {};
      base.linhas.forEach((row, index) => {
        // the seed's row names its dice ("Aranhas gigantes (1d4)"); the copy keeps them in the
        // count field only ("Aranhas gigantes", 1d4)
        lines[index + 1] = row.quantidade
          ? { texto: row.texto.replace(` (${row.quantidade})`, "").trim(), quantidade: row.quantidade }
          : row.texto;
      });
      const said = name.value.trim();
      const ack = await change({ encontros: { regioes: { [slug(said) || "regiao"]: {
        regiao: said, terreno: terrain.value, dados: base.dados, linhas: lines } } } }, said || regionWord("nova"),
        `regiao-${slug(said)}-salvo`, "criar");
      if (!ack.ok) message.textContent = sentence(formWords(ack.erro || ack.error || ""));
      if (ack.ok) {
        const made = $(`#regiao-${CSS.escape(slug(said))}`);
        if (made) made.open = true;
      }
    };
    return el("div", { class: "region new-region" },
      el("h3", { text: regionWord("nova") }),
      el("div", { class: "region-head" },
        el("label", { for: name.id, text: regionWord("nome") }), name,
        el("label", { for: terrain.id, text: regionWord("terreno") }), terrain),
      message,
      el("button", { type: "button", class: "primary", id: "nova-regiao-criar", text: label("regras.criar_regiao"), onclick: create }));
  }

  // ------------------------------------------------------------------ the file

  $("#rules-export").addEventListener("click", async () => {
    const answer = await api("/api/regras.yaml");
    if (!answer.ok) { say(label("regras.nao_exportou"), true); return; }
    const link = el("a", { href: URL.createObjectURL(await answer.blob()), download: "regras.yaml" });
    document.body.append(link);
    link.click();
    link.remove();
    say(label("regras.exportado"));
  });

  $("#rules-import").addEventListener("change", async (event) => {
    const file = event.target.files && event.target.files[0];
    if (!file) return;
    const answer = await api("/api/regras", { method: "POST", body: await file.text(),
      headers: { "Content-Type": "application/yaml" } });
    const result = await answer.json().catch(() => ({ ok: false, erro: label("regras.resposta_inesperada") }));
    event.target.value = "";
    if (result.ok) { say(label("regras.importado", { arquivo: file.name })); await load(); if (onChanged) onChanged(); }
    else say(label("regras.nao_importou", { arquivo: file.name, erro: sentence(result.erro || "") }), true);
  });

  // ------------------------------------------------------------------ open and close

  function show(open) {
    screen.hidden = !open;
    document.body.classList.toggle("rules-open", open);
    opener.setAttribute("aria-expanded", String(open));
    if (open) { say(""); load(); $("#h-regras").focus?.(); } else opener.focus();
  }
  opener.addEventListener("click", () => show(screen.hidden));
  $("#rules-close").addEventListener("click", () => show(false));
  return { reload: () => (screen.hidden ? null : load()) };
}
