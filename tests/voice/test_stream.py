"""The streaming path: the GM page's audio as 16 kHz PCM chunks over the Socket.IO connection,
recognised on the listener's own thread, reported to the GM only."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.server.app import start_in_thread
from companion.rules.loader import load_rules
from companion.voice.config import voice_config
from companion.voice.judge import phrase_reader
from companion.voice.listener import Listener
from companion.voice.service import Voice
from companion.voice.sources import wav_chunks
from tests.socket_helpers import SERVER_GM_TOKEN
from tests.socket_helpers import Peer, wait_until
from tests.voice_helpers import (NARRATION, KOREAN_LIST, KOREAN_PHRASES, join_wavs, korean_model,
                                 same_hearing, speak)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def audio(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("ko-stream")
    parts = [speak(t, "ko", folder / f"{i}.wav") for i, t in enumerate(KOREAN_PHRASES)]
    return {"ambas": join_wavs(parts, folder / "ambas.wav"),
            "fora": speak("맛있어요", "ko", folder / "fora.wav")}


@pytest.fixture
def voiced(session: Any, ko_model: Any) -> Iterator[Any]:
    config = voice_config(load_rules())

    def factory(on_heard: Any, on_status: Any) -> Voice:
        listener = Listener(ko_model, config, lambda: KOREAN_LIST,
                            lambda: phrase_reader(KOREAN_LIST, config.narration), None,
                            on_heard, on_status, wake_phrases=False)
        listener.start()
        return Voice(listener, "voz ligada (modelo de teste)")

    running = start_in_thread(session, voice=factory)
    made: list[Peer] = []
    yield running, made
    for peer in made:
        peer.close()
    running.stop()


def _stream(gm: Peer, path: Path) -> None:
    for chunk in wav_chunks(path, NARRATION):
        gm.sio.emit("voz_audio", chunk)
    assert gm.sio.call("voz_fim", None, timeout=10) == {"ok": True}


def _ouvir(path: Path, tmp_path: Path) -> list[dict]:
    phrases = tmp_path / "frases.txt"
    phrases.write_text("\n".join(KOREAN_LIST) + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "companion", "ouvir", str(path),
                           "--modelo", str(korean_model()), "--frases", str(phrases), "--json"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.parametrize("key", ["ambas", "fora"])
def test_streamed_audio_is_heard_as_ouvir_hears_the_file(voiced: Any, audio: dict[str, Path],
                                                         tmp_path: Path, key: str) -> None:
    running, made = voiced
    gm = Peer(running.url, {"token": SERVER_GM_TOKEN})
    player = Peer(running.url, {"nome": "Ana"})
    made += [gm, player]
    gm.welcome(), player.welcome()
    assert gm.sio.call("voz_modo", {"modo": "sempre"}, timeout=10)["ok"] is True
    expected = _ouvir(audio[key], tmp_path)
    _stream(gm, audio[key])
    wait_until(lambda: len(gm.of("voz")) >= len(expected), what="falas ouvidas")
    heard = [{k: v for k, v in h.items() if k not in ("aceito", "codigo")} for h in gm.of("voz")]
    assert same_hearing(heard, expected)
    assert all(h["aceito"] == (h["comando"] is not None) for h in gm.of("voz"))
    assert all((h["codigo"] == "aceito") == h["aceito"] for h in gm.of("voz"))
    assert player.of("voz") == []  # what the GM said is the GM's
    assert any(s["modo"] == "sempre" for s in gm.of("voz_estado"))


def test_only_the_gm_streams_and_switches(voiced: Any, audio: dict[str, Path]) -> None:
    running, made = voiced
    player = Peer(running.url, {"nome": "Bia"})
    table = Peer(running.url, {"papel": "mesa"})
    made += [player, table]
    player.welcome(), table.welcome()
    assert "só o Mestre" in player.sio.call("voz_modo", {"modo": "sempre"}, timeout=10)["error"]
    chunk = next(wav_chunks(audio["fora"], NARRATION))
    assert "só o Mestre" in player.sio.call("voz_audio", chunk, timeout=10)["error"]
    assert table.sio.call("voz_estado", None, timeout=10)["ligada"] is True


def test_bad_audio_and_modes_are_refused_in_portuguese(voiced: Any) -> None:
    running, made = voiced
    gm = Peer(running.url, {"token": SERVER_GM_TOKEN})
    made.append(gm)
    gm.welcome()
    assert "áudio inválido" in gm.sio.call("voz_audio", "texto", timeout=10)["error"]
    assert "áudio inválido" in gm.sio.call("voz_audio", b"\x00" * 3, timeout=10)["error"]
    refused = gm.sio.call("voz_modo", {"modo": "turbo"}, timeout=10)
    assert refused["ok"] is False and "modo de escuta desconhecido" in refused["error"]
    state = gm.sio.call("voz_estado", None, timeout=10)
    assert state["modo"] == voice_config(load_rules()).initial_mode


def test_without_voice_the_gm_page_is_told_how(server: Any) -> None:
    gm = Peer(server.url, {"token": SERVER_GM_TOKEN})
    try:
        gm.welcome()
        state = gm.sio.call("voz_estado", None, timeout=10)
        assert state["ligada"] is False
        refused = gm.sio.call("voz_falar", {"fonte": "notebook"}, timeout=10)
        assert refused["ok"] is False
    finally:
        gm.close()


def test_no_model_voice_says_how_to_turn_it_on(session: Any, tmp_path: Path) -> None:
    from companion.voice.service import start_voice

    voice = start_voice(session, load_rules(), lambda _: None, lambda _: None,
                        model_dir=tmp_path)
    assert voice.listener is None
    assert "mesa modelo" in voice.line and "pip" not in voice.line


def test_laptop_microphone_follows_the_mode_and_says_when_it_is_missing(
        session: Any, ko_model: Any) -> None:
    """This machine has no sound card: listening for the wake word tries the laptop's
    microphone and the GM page is told why it could not open it (voice itself stays on)."""
    import sounddevice

    try:
        inputs = [d for d in sounddevice.query_devices() if d["max_input_channels"] > 0]
    except Exception:  # PortAudio without any device
        inputs = []
    if inputs:
        pytest.skip("esta máquina tem microfone: o caminho 'sem microfone' não se mostra aqui")
    config = voice_config(load_rules())

    def factory(on_heard: Any, on_status: Any) -> Voice:
        listener = Listener(ko_model, config, lambda: KOREAN_LIST,
                            lambda: phrase_reader(KOREAN_LIST, config.narration), None,
                            on_heard, on_status, wake_phrases=False)
        listener.start()
        return Voice(listener, "voz ligada", laptop_microphone=True)

    running = start_in_thread(session, voice=factory)
    gm = Peer(running.url, {"token": SERVER_GM_TOKEN})
    try:
        gm.welcome()
        state = gm.sio.call("voz_estado", None, timeout=10)
        assert state["ligada"] is True and state["modo"] == "ativacao"
        assert "microfone do notebook indisponível" in state["aviso"]
        talk = gm.sio.call("voz_falar", {"fonte": "notebook"}, timeout=10)
        assert talk["ok"] is False and "microfone" in talk["error"]
    finally:
        gm.close()
        running.stop()


def test_the_laptop_microphones_refusals_are_the_tables_words(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the sounddevice package, and with a microphone PortAudio cannot open, the GM is
    told why (tables/narracao/voz_erros.yaml), not Python's or PortAudio's words alone."""
    import types

    from companion.voice.recognizer import VoiceUnavailable
    from companion.voice.sources import Microphone

    monkeypatch.setitem(sys.modules, "sounddevice", None)  # `import sounddevice` fails
    with pytest.raises(VoiceUnavailable) as missing:
        Microphone(lambda _chunk: None, NARRATION)
    assert missing.value.message.startswith("microfone indisponível: ")
    assert missing.value.message.endswith("; ligue o Mesa de novo pelo lançador (Mesa.cmd, "
                                          "Mesa.command), que instala a voz (no Linux, "
                                          "também o pacote libportaudio2)")

    def busy(**_options: Any) -> None:
        raise OSError("Device unavailable")

    monkeypatch.setitem(sys.modules, "sounddevice", types.SimpleNamespace(RawInputStream=busy))
    microphone = Microphone(lambda _chunk: None, NARRATION)
    with pytest.raises(VoiceUnavailable) as refused:
        microphone.start()
    assert refused.value.message == "não consegui abrir o microfone (Device unavailable)"


def test_a_typed_command_does_not_wait_for_recognition(voiced: Any, audio: dict[str, Path],
                                                       tmp_path: Path) -> None:
    """Recognition runs on the listener's thread: a command typed while a long stretch of
    audio is still being recognised is acknowledged before that recognition ends."""
    running, made = voiced
    listener = running.app.extensions["mesa_voice"].voice.listener
    long_audio = join_wavs([audio["ambas"]] * 8, tmp_path / "longo.wav")
    gm = Peer(running.url, {"token": SERVER_GM_TOKEN})
    made.append(gm)
    gm.welcome()
    gm.sio.call("voz_modo", {"modo": "sempre"}, timeout=10)
    heard_before = len(gm.of("voz"))
    for chunk in wav_chunks(long_audio, NARRATION):
        listener.feed(chunk)  # as the voz_audio handler does: queued, never recognised here
    ack = gm.cmd("estado")
    still_busy = listener.busy.is_set()
    heard_at_ack = len(gm.of("voz")) - heard_before
    assert ack["ok"] is True
    assert still_busy and heard_at_ack < 2 * 8, "o comando esperou o reconhecimento"
    assert listener.wait_idle(120)
    wait_until(lambda: len(gm.of("voz")) - heard_before >= 2 * 8, what="todas as falas")
