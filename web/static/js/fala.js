// Speech on a page (the GM page and the table screen): the browser's own voice (Web Speech API)
// says what the server gives this page (`fala`), once each, in order; `fala_parar` ("mestre,
// silêncio") stops it. What to say and where is this device's preference (localStorage), sent to
// the server on connecting and on every change: not a game command, never undone.
import { $, el, fill, store } from "./common.js";
import { label } from "./pages.js";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** The device's Portuguese voice, if it has one (Brazilian first). */
export function portugueseVoice() {
  const synth = window.speechSynthesis;
  if (!synth || typeof synth.getVoices !== "function") return null;
  const voices = synth.getVoices() || [];
  const lang = (v) => String(v.lang || "").toLowerCase().replace("_", "-");
  return voices.find((v) => lang(v) === "pt-br") || voices.find((v) => lang(v).startsWith("pt")) || null;
}

/**
 * Start speech for this page. `role` is "mestre" or "mesa"; `draw(info, prefs, change)` shows
 * the page's controls (info: the server's answer; change(part) saves and sends a new choice).
 */
export function startSpeech({ socket, role, draw }) {
  const key = `mesa.fala.${role}`;
  const said = new Set(); // ids already spoken on this page: never twice
  const onLaptop = LOOPBACK.has(window.location.hostname);
  let speaking = 0;
  let prefs = {};
  try { prefs = JSON.parse(store.get(key) || "{}") || {}; } catch (_e) { prefs = {}; }
  let info = null;

  const canSpeak = () => Boolean(window.speechSynthesis && portugueseVoice());

  function tellLaptop(on) {
    if (!onLaptop) return; // only a page on the laptop is heard by its microphone
    socket.emit("fala_estado", { falando: on });
  }

  async function send() {
    const wanted = { ...prefs, pagina: Boolean(prefs.pagina) && canSpeak() };
    try {
      const ack = await socket.timeout(10000).emitWithAck("fala_preferencias", wanted);
      if (ack && ack.ok) {
        info = ack;
        draw(info, prefs, change, canSpeak());
      }
    } catch (_err) { /* offline: sent again on the next welcome */ }
  }

  function change(part) {
    prefs = { ...prefs, ...part };
    store.set(key, JSON.stringify(prefs));
    send();
  }

  function say(item) {
    // once each, unless the server says it again on purpose (a spoken "repetir")
    if (!item || (said.has(item.id) && !item.de_novo) || !prefs.pagina || !canSpeak()) return;
    said.add(item.id);
    const utterance = new window.SpeechSynthesisUtterance(String(item.texto || ""));
    const voice = portugueseVoice();
    utterance.lang = voice ? voice.lang : "pt-BR";
    if (voice) utterance.voice = voice;
    utterance.onstart = () => { speaking += 1; if (speaking === 1) tellLaptop(true); };
    const done = () => { speaking = Math.max(0, speaking - 1); if (speaking === 0) tellLaptop(false); };
    utterance.onend = done;
    utterance.onerror = done;
    window.speechSynthesis.speak(utterance); // the browser queues: one after another
  }

  function stop() {
    if (window.speechSynthesis) window.speechSynthesis.cancel();
    if (speaking) { speaking = 0; tellLaptop(false); }
  }

  socket.on("fala", say);
  socket.on("fala_parar", stop);
  socket.on("boas_vindas", send);
  if (socket.connected) send();
  // voices load late in some browsers: draw again once they are known
  if (window.speechSynthesis && "onvoiceschanged" in window.speechSynthesis) {
    window.speechSynthesis.addEventListener("voiceschanged", () => { if (info) send(); });
  }
  return { change, stop };
}

/** A labelled checkbox: el("label") around an input, for the settings. */
export function checkbox({ id, label, checked, disabled, onChange, note }) {
  const input = el("input", { type: "checkbox", id, checked: Boolean(checked), disabled: Boolean(disabled) });
  input.addEventListener("change", () => onChange(input.checked));
  return el("div", { class: "check" },
    input, el("label", { for: id, text: label }),
    note ? el("p", { class: "muted small", text: note }) : null);
}

/** Why a device cannot speak. */
export const noVoice = () => label("fala.sem_voz");

/** The table screen's switch ("Falar nesta tela"). */
export function drawTableSwitch(node) {
  return (_info, prefs, change, available) => {
    fill(node, checkbox({
      id: "fala-pagina", label: label("fala.falar_nesta_tela"), checked: prefs.pagina && available,
      disabled: !available, onChange: (on) => change({ pagina: on }),
      note: available ? null : noVoice(),
    }));
    node.hidden = false;
  };
}

/** The GM page's "Voz" settings: where the companion speaks and what it says. */
export function drawGmSettings(node) {
  return (info, prefs, change, available) => {
    const choice = info.escolha || {};
    const laptop = info.notebook || {};
    const kinds = new Set(choice.avisos || []);
    const where = el("fieldset", {},
      el("legend", { text: label("fala.onde_falar") }),
      checkbox({ id: "fala-notebook", label: label("fala.alto_falantes"), checked: choice.notebook,
        disabled: !laptop.pode, onChange: (on) => change({ notebook: on }),
        note: laptop.linha || null }),
      checkbox({ id: "fala-segredos", label: label("fala.segredos"),
        checked: choice.notebook_segredos, disabled: !laptop.pode,
        onChange: (on) => change({ notebook_segredos: on }) }),
      checkbox({ id: "fala-pagina", label: label("fala.esta_pagina"), checked: prefs.pagina && available,
        disabled: !available, onChange: (on) => change({ pagina: on }),
        note: available ? null : noVoice() }));
    const what = el("fieldset", {},
      el("legend", { text: label("fala.o_que_falar") }),
      (info.avisos || []).map((kind) => checkbox({
        id: `fala-aviso-${kind.tipo}`, label: kind.nome, checked: kinds.has(kind.tipo),
        onChange: (on) => {
          const next = new Set(kinds);
          if (on) next.add(kind.tipo); else next.delete(kind.tipo);
          change({ avisos: [...next] });
        },
      })));
    fill(node, where, what,
      el("p", { class: "muted small", text: label("fala.silencio") }));
  };
}
