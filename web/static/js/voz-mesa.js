// The table screen's small microphone state: listening, push-to-talk, off.
import { $ } from "./common.js";
import { label } from "./pages.js";

const socket = window.mesa.conn.socket;
// the line of each listening mode (rotulos_paginas.yaml `voz`)
const LINES = { ativacao: "voz.mesa_ativacao", apertar: "voz.mesa_apertar", sempre: "voz.mesa_sempre", desligado: "voz.mesa_desligado" };

function show(status) {
  const node = $("#mic");
  if (!status || typeof status !== "object" || status.ok === false) return; // not on the laptop
  node.hidden = false;
  node.dataset.mode = status.ligada ? status.modo : "off";
  const line = LINES[status.modo] || LINES.desligado;
  node.textContent = status.ligada ? label(line, { palavra: status.palavra || "mestre" })
    : label("voz.mesa_voz_desligada");
}

async function ask() {
  try { show(await socket.timeout(10000).emitWithAck("voz_estado", null)); } catch (_err) { /* offline */ }
}

socket.on("voz_estado", show);
socket.on("boas_vindas", ask);
if (socket.connected) ask();
