// The GM's "Regras" screen: the campaign's regions with their encounter tables and the house
// values, a form built from GET /api/regras (the fields come from tables/, with their labels).
// Every value is checked as it is typed by the server's own loader (Socket.IO `regras`
// {"validar": …}, a dry run) and changed with {"alterar": …}: one logged, undoable command.
// There is no validator here: the messages are the server's.
import { $, el, sentence } from "./common.js";

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

function typedValue(field, input) {
  if (field.tipo === "sim_nao") return input.checked;
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
    if (!answer.ok) { say("Não consegui ler as regras da campanha.", true); return; }
    data = await answer.json();
    renderRegions();
    renderValues();
  }

  async function change(patch, what) {
    const ack = await ask({ alterar: patch });
    if (ack.ok) {
      say(`${what}: salvo. Vale do próximo comando em diante.`);
      await load();
      if (onChanged) onChanged();
    } else {
      say(sentence(ack.erro || ack.error || "Recusado."), true);
    }
    return ack;
  }

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

  function fieldRow(field) {
    const id = `regra-${field.arquivo}-${field.chave.replaceAll(".", "-")}`;
    const message = el("p", { class: "rule-msg", id: `${id}-msg`, "aria-live": "polite" });
    const label = el("label", { for: id, text: field.rotulo.split(" › ").slice(1).join(" › ") });
    let input;
    if (field.tipo === "escolha") {
      input = el("select", { id }, ...field.opcoes.map((o) => el("option", { value: o, text: o })));
      input.value = field.valor;
    } else if (field.tipo === "sim_nao") {
      input = el("input", { id, type: "checkbox" });
      input.checked = Boolean(field.valor);
    } else {
      const numeric = field.tipo === "inteiro" || field.tipo === "numero";
      input = el("input", { id, type: "text", value: String(field.valor ?? ""),
        inputmode: numeric ? "numeric" : undefined, autocomplete: "off" });
    }
    input.setAttribute("aria-describedby", message.id);
    const changed = field.valor !== field.padrao;
    const reset = el("button", {
      type: "button", class: "small", hidden: !changed,
      text: "Voltar ao padrão", title: `Padrão: ${field.padrao}`,
      "aria-label": `Voltar ${label.textContent} ao padrão (${field.padrao})`,
      onclick: () => change(patchAt(field.arquivo, field.chave, null), label.textContent),
    });
    let valid = true;
    const validate = debounce(async () => {
      const ack = await check(patchAt(field.arquivo, field.chave, typedValue(field, input)));
      valid = ack.ok;
      input.setAttribute("aria-invalid", String(!ack.ok));
      message.textContent = ack.ok ? "" : sentence(ack.erro || ack.error || "");
    });
    input.addEventListener("input", validate);
    input.addEventListener("change", async () => {
      const value = typedValue(field, input);
      if (value === field.valor) return;
      const ack = await check(patchAt(field.arquivo, field.chave, value));
      valid = ack.ok;
      input.setAttribute("aria-invalid", String(!ack.ok));
      message.textContent = ack.ok ? "" : sentence(ack.erro || ack.error || "");
      if (valid) await change(patchAt(field.arquivo, field.chave, value), label.textContent);
    });
    return el("div", { class: `rule-field${changed ? " changed" : ""}` }, label,
      el("div", { class: "rule-input" }, input, reset), message);
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

  function regionForm(region) {
    const base = `regiao-${region.id}`;
    const message = el("p", { class: "rule-msg", id: `${base}-msg`, "aria-live": "polite" });
    const rows = el("ol", { class: "rule-rows" });
    const name = el("input", { id: `${base}-nome`, type: "text", value: region.nome,
      disabled: region.padrao, autocomplete: "off" });
    const terrain = terrainSelect(`${base}-terreno`, region.terreno, region.padrao);
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
        el("label", { class: "row-label count" }, el("span", { text: data.textos.quantidade || "Quantos" }), count),
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
        item.querySelector(".row-caption").textContent = `${data.textos.linha || "Linha"} ${n}`;
        item.querySelector(".row-text").setAttribute("aria-label", `Linha ${n}: ${data.textos.texto || "o que aparece"}`);
        item.querySelector(".row-count").setAttribute("aria-label", `Linha ${n}: ${data.textos.quantidade || "quantos aparecem"}`);
        item.querySelector(".up").setAttribute("aria-label", `Subir a linha ${n}`);
        item.querySelector(".down").setAttribute("aria-label", `Descer a linha ${n}`);
        item.querySelector(".remove").setAttribute("aria-label", `Tirar a linha ${n}`);
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
      if (!region.padrao) { part.regiao = name.value.trim(); part.terreno = terrain.value; }
      return { encontros: { regioes: { [region.id]: part } } };
    }

    function mark(ack) {
      for (const input of form.querySelectorAll("input, select")) input.removeAttribute("aria-invalid");
      message.textContent = ack.ok ? "" : sentence(ack.erro || ack.error || "");
      if (ack.ok) return;
      // the loader names the key: 'regioes.<id>.linhas.2.quantidade', 'regioes.<id>.dados'
      const found = /regioes\.[^.']+\.(linhas\.(\d+)\.?(\w*)|\w+)/.exec(ack.erro || "");
      if (!found) return;
      let target = null;
      if (found[2]) {
        const item = rows.children[Number(found[2]) - 1];
        if (item) target = item.querySelector(found[3] === "quantidade" ? ".row-count" : ".row-text");
      } else {
        target = { dados: dice, regiao: name, terreno: terrain }[found[1]] || null;
      }
      if (target) target.setAttribute("aria-invalid", "true");
    }

    const validate = debounce(async () => mark(await check(regionPatch())));
    dice.addEventListener("input", validate);
    name.addEventListener("input", validate);
    terrain.addEventListener("change", validate);
    region.linhas.forEach((row) => rows.append(rowItem(row)));
    relabel();

    const label = region.padrao ? `${region.nome} (região padrão)` : `${region.nome} (${data.terrenos[region.terreno]})`;
    const form = el("details", { class: "region", id: base },
      el("summary", { text: label }),
      el("div", { class: "region-head" },
        el("label", { for: name.id, text: data.textos.nome || "Nome" }), name,
        el("label", { for: terrain.id, text: data.textos.terreno || "Terreno" }), terrain,
        el("label", { for: dice.id, text: data.textos.dados || "Dado" }), dice),
      rows,
      el("button", { type: "button", class: "small add-row", text: "Adicionar linha",
        onclick: () => { rows.append(rowItem({ texto: "", quantidade: null })); relabel(); validate(); } }),
      message,
      el("div", { class: "region-tools" },
        el("button", { type: "button", class: "primary save", text: "Salvar região",
          onclick: async () => mark(await change(regionPatch(), region.nome)) }),
        region.padrao
          ? el("button", { type: "button", class: "small", text: "Voltar ao padrão", hidden: !region.mudada,
            onclick: () => change({ encontros: { regioes: { [region.id]: null } } }, region.nome) })
          : el("button", { type: "button", class: "small danger", text: "Apagar região",
            onclick: () => change({ encontros: { regioes: { [region.id]: null } } }, region.nome) })));
    return form;
  }

  function newRegionForm() {
    const message = el("p", { class: "rule-msg", id: "nova-regiao-msg", "aria-live": "polite" });
    const name = el("input", { id: "nova-regiao-nome", type: "text", autocomplete: "off",
      "aria-describedby": message.id });
    const terrain = terrainSelect("nova-regiao-terreno", "floresta", false);
    const create = async () => {
      const base = data.regioes.find((r) => r.id === terrain.value);
      const lines = {};
      base.linhas.forEach((row, index) => {
        lines[index + 1] = row.quantidade ? { texto: row.texto, quantidade: row.quantidade } : row.texto;
      });
      const said = name.value.trim();
      const ack = await change({ encontros: { regioes: { [slug(said) || "regiao"]: {
        regiao: said, terreno: terrain.value, dados: base.dados, linhas: lines } } } }, said || "Nova região");
      message.textContent = ack.ok ? "" : sentence(ack.erro || ack.error || "");
      if (ack.ok) {
        const made = $(`#regiao-${CSS.escape(slug(said))}`);
        if (made) made.open = true;
      }
    };
    return el("div", { class: "region new-region" },
      el("h3", { text: data.textos.nova || "Nova região" }),
      el("div", { class: "region-head" },
        el("label", { for: name.id, text: data.textos.nome || "Nome" }), name,
        el("label", { for: terrain.id, text: data.textos.terreno || "Terreno" }), terrain),
      message,
      el("button", { type: "button", class: "primary", id: "nova-regiao-criar", text: "Criar região", onclick: create }));
  }

  // ------------------------------------------------------------------ the file

  $("#rules-export").addEventListener("click", async () => {
    const answer = await api("/api/regras.yaml");
    if (!answer.ok) { say("Não consegui exportar as regras.", true); return; }
    const link = el("a", { href: URL.createObjectURL(await answer.blob()), download: "regras.yaml" });
    document.body.append(link);
    link.click();
    link.remove();
    say("Arquivo de regras baixado (regras.yaml).");
  });

  $("#rules-import").addEventListener("change", async (event) => {
    const file = event.target.files && event.target.files[0];
    if (!file) return;
    const answer = await api("/api/regras", { method: "POST", body: await file.text(),
      headers: { "Content-Type": "application/yaml" } });
    const result = await answer.json().catch(() => ({ ok: false, erro: "Resposta inesperada." }));
    event.target.value = "";
    if (result.ok) { say(`${file.name}: regras importadas.`); await load(); if (onChanged) onChanged(); }
    else say(`${file.name}: ${sentence(result.erro || "")}`, true);
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
