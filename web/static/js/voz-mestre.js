// Voice on the GM page: what was heard (with Desfazer), the push-to-talk button, the listening
// mode. The audio of this page's own microphone (where the browser allows it: localhost or
// https) goes to the server as 16 kHz 16-bit PCM over the same Socket.IO connection; elsewhere
// "Falar" opens the laptop's microphone for a few seconds.
import { $, sentence, store } from "./common.js";
import { label } from "./pages.js";

// Why voice is off (no model, no microphone…) is said once: closed, it stays closed on this
// device until the reason changes, and the bar keeps to the command box.
const READ_KEY = "mesa.mestre.voz_aviso_lido";

const RATE = 16000;
const CHUNK = 4000; // samples per message: a quarter of a second
const { conn, run } = window.mesa;
const socket = conn.socket;
let status = { ligada: false, segundos_aviso: 8, segundos_apertar: 5 };
let toastTimer = null;

const MODES = { ativacao: "ativacao", apertar: "apertar", sempre: "sempre", desligado: "desligado" };
// what the voice line says in each mode (rotulos_paginas.yaml `voz`)
const LINES = { ativacao: "voz.ativacao", apertar: "voz.apertar", sempre: "voz.sempre", desligado: "voz.desligado" };

function decimal(value) {
  return Number(value || 0).toFixed(2).replace(".", ",");
}

/** "Ouvi: 'avançar' (0,91)" with Desfazer; a refusal says what was heard and why: the rules'
 * reason when they refused the command, a plain "não entendi" when it was not read as one
 * (the report's `codigo`, companion.voice.judge.Outcome). */
function showHeard(report) {
  const box = $("#voice-toast");
  const text = $("#voice-heard");
  const dito = report.ouvi;
  if (report.aceito) {
    text.textContent = label("voz.ouvi", { dito, confianca: decimal(report.confianca) });
  } else if (report.codigo === "confianca_baixa" || report.codigo === "nao_entendido") {
    text.textContent = label("voz.nao_entendi", { dito });
  } else {
    text.textContent = label("voz.ouvi_mas", { dito, motivo: report.motivo });
  }
  box.classList.toggle("refused", !report.aceito);
  $("#voice-undo").hidden = !report.aceito;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 1000 * (status.segundos_aviso || 8));
}

/** Listening, the voice's controls sit in the command bar (the thumb's reach); off, its
 * notice (why, and how to turn it on: often several lines) waits in the "Voz" card, in the
 * page's flow, never over the buttons. */
function place(on) {
  const box = $("#voice");
  const home = on ? $(".commandbar") : $("#voice-off-home");
  if (home && box.parentElement !== home) home.prepend(box);
}

function showStatus(next) {
  status = { ...status, ...(next || {}) };
  const on = Boolean(status.ligada);
  $("#voice-talk").hidden = !on;
  $("#voice-mode").hidden = !on;
  if (on) $("#voice-mode").value = MODES[status.modo] || "ativacao";
  const word = status.palavra || "mestre";
  const line = LINES[status.modo] ? label(LINES[status.modo], { palavra: word }) : "";
  const reason = sentence(status.aviso || label("voz.voz_desligada"));
  $("#voice-line").textContent = on ? [line, status.aviso || ""].join(" ").trim()
    : reason;
  $("#voice").dataset.mode = on ? status.modo : "off";
  place(on);
  $("#voice-close").hidden = on;
  $("#voice").hidden = !on && store.get(READ_KEY) === reason;
}

async function ask(event, payload) {
  try {
    return await socket.timeout(10000).emitWithAck(event, payload);
  } catch (_err) {
    return { ok: false, error: label("voz.sem_resposta") };
  }
}

/** This page's microphone, for `seconds`, sent as 16 kHz PCM chunks. */
async function streamPageMicrophone(seconds) {
  const media = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1 } });
  const context = new AudioContext();
  const source = context.createMediaStreamSource(media);
  const node = context.createScriptProcessor(4096, 1, 1);
  const step = context.sampleRate / RATE;
  let pending = [];
  let carry = 0;
  node.onaudioprocess = (e) => {
    const input = e.inputBuffer.getChannelData(0);
    for (let pos = carry; pos < input.length; pos += step) {
      const sample = Math.max(-1, Math.min(1, input[Math.floor(pos)]));
      pending.push(sample < 0 ? sample * 0x8000 : sample * 0x7fff);
      carry = pos + step - input.length;
    }
    while (pending.length >= CHUNK) {
      socket.emit("voz_audio", Int16Array.from(pending.splice(0, CHUNK)).buffer);
    }
  };
  source.connect(node);
  node.connect(context.destination);
  await new Promise((resolve) => setTimeout(resolve, 1000 * seconds));
  node.disconnect();
  source.disconnect();
  media.getTracks().forEach((track) => track.stop());
  await context.close();
  if (pending.length) socket.emit("voz_audio", Int16Array.from(pending).buffer);
  socket.emit("voz_fim");
}

async function talk() {
  const button = $("#voice-talk");
  const pageMic = window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia;
  const ack = await ask("voz_falar", { fonte: pageMic ? "pagina" : "notebook" });
  if (!ack || !ack.ok) {
    $("#voice-line").textContent = sentence((ack && ack.error) || label("voz.sem_microfone"));
    return;
  }
  button.classList.add("on");
  button.textContent = label("voz.ouvindo");
  try {
    if (pageMic) await streamPageMicrophone(ack.segundos || status.segundos_apertar);
    else await new Promise((resolve) => setTimeout(resolve, 1000 * (ack.segundos || 5)));
  } catch (err) {
    $("#voice-line").textContent = sentence(label("voz.microfone_da_pagina", { erro: err.message || err }));
  } finally {
    button.classList.remove("on");
    button.textContent = label("voz.falar");
  }
}

socket.on("voz", showHeard);
socket.on("voz_estado", showStatus);
socket.on("boas_vindas", async () => showStatus(await ask("voz_estado", null)));
if (socket.connected) ask("voz_estado", null).then(showStatus);
$("#voice-talk").addEventListener("click", talk);
$("#voice-close").addEventListener("click", () => {
  store.set(READ_KEY, $("#voice-line").textContent);
  $("#voice").hidden = true;
});
$("#voice-undo").addEventListener("click", () => { $("#voice-toast").hidden = true; run("desfazer"); });
$("#voice-mode").addEventListener("change", async (e) => {
  const ack = await ask("voz_modo", { modo: e.target.value });
  if (ack && ack.ok) showStatus(ack.estado);
  else $("#voice-line").textContent = sentence((ack && ack.error) || label("voz.modo_recusado"));
});
window.mesa.voice = { showHeard, showStatus, get status() { return status; } };
