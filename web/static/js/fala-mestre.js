// The GM page's "Voz" settings: where the companion speaks and what it says (this device's
// preference), and this page's own voice.
import { $ } from "./common.js";
import { drawGmSettings, startSpeech } from "./fala.js";

startSpeech({ socket: window.mesa.conn.socket, role: "mestre", draw: drawGmSettings($("#fala")) });
