// The table screen's switch: "Falar nesta tela" (public facts only: the server sends no other).
import { $ } from "./common.js";
import { drawTableSwitch, startSpeech } from "./fala.js";

startSpeech({ socket: window.mesa.conn.socket, role: "mesa", draw: drawTableSwitch($("#fala")) });
