// The table screen's small microphone state: listening, push-to-talk, off.
import { $ } from "./common.js";

const socket = window.mesa.conn.socket;
const TEXTS = {
  ativacao: (word) => `🎤 ouvindo — diga "${word}, …"`,
  apertar: () => "🎤 aperte Falar para falar",
  sempre: () => "🎤 ouvindo tudo",
  desligado: () => "🎤 microfone desligado",
};

function show(status) {
  const node = $("#mic");
  if (!status || typeof status !== "object" || status.ok === false) return; // not on the laptop
  node.hidden = false;
  node.dataset.mode = status.ligada ? status.modo : "off";
  node.textContent = status.ligada ? (TEXTS[status.modo] || TEXTS.desligado)(status.palavra || "mestre")
    : "🎤 voz desligada";
}

async function ask() {
  try { show(await socket.timeout(10000).emitWithAck("voz_estado", null)); } catch (_err) { /* offline */ }
}

socket.on("voz_estado", show);
socket.on("boas_vindas", ask);
if (socket.connected) ask();
