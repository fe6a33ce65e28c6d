"""Spoken announcements on a real server: who says what, once, and "silêncio".

The laptop speaks through real espeak-ng into a recorder (this machine has no speakers); the
pages are real Socket.IO clients that switch their speech on as the pages do.
"""
from __future__ import annotations

import shutil
from typing import Any, Iterator

import pytest

from companion.server.app import RunningServer, start_in_thread
from companion.speech.speaker import Recorder

from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN
from tests.socket_helpers import Peer, wait_until

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="sem o espeak-ng (apt-get install espeak-ng)")

DARK = ["personagem Ana", "masmorra", "acender tocha", "6 turnos"]  # the torch goes out
TORCH_OUT = "A tocha se apagou."


@pytest.fixture
def speaking_server(session: Any) -> Iterator[RunningServer]:
    running = start_in_thread(session, speech_output=Recorder())
    yield running
    running.stop()


def _speech(server: RunningServer) -> Any:
    return server.app.extensions["mesa_speech"]


def _peer(server: RunningServer, auth: dict[str, Any], **preferences: Any) -> Peer:
    peer = Peer(server.url, auth)
    peer.welcome()
    ack = peer.sio.call("fala_preferencias", preferences, timeout=5)
    assert ack["ok"], ack
    return peer


def _run(peer: Peer, *texts: str) -> list[dict[str, Any]]:
    events = []
    for text in texts:
        ack = peer.sio.call("comando", {"text": text}, timeout=10)
        assert ack["ok"], (text, ack)
        events += ack["events"]
    return events


def test_the_laptop_says_public_announcements_once(speaking_server: RunningServer) -> None:
    gm = _peer(speaking_server, {"token": GM_TOKEN})
    table = _peer(speaking_server, {"papel": "mesa"}, pagina=True)
    try:
        _run(gm, *DARK)
        speaker = _speech(speaking_server).speaker
        assert speaker is not None and speaker.wait_idle(20)
        said = list(speaker.said)
        assert said.count(TORCH_OUT) == 1
        assert "Nenhuma luz acesa: escuridão total." in said
        assert any(text.startswith("Uma hora de exploração") for text in said)
        # GM-only events (the monsters' movement, the secret encounter checks) are not said
        assert not any("Movimento dos monstros" in text for text in said)
        # the laptop said them: the table screen, whose switch is on, said none of them again
        assert table.of("fala") == []
        played = speaker._output.played
        assert played and all(pieces for pieces in played)  # real audio from espeak-ng
    finally:
        gm.sio.disconnect()
        table.sio.disconnect()


def test_the_table_screen_speaks_public_facts_only_and_the_gm_page_the_rest(
        speaking_server: RunningServer) -> None:
    gm = _peer(speaking_server, {"token": GM_TOKEN}, pagina=True, notebook=False,
               avisos=["luz", "pedido", "por_voz", "descanso"])
    table = _peer(speaking_server, {"papel": "mesa"}, pagina=True)
    try:
        _run(gm, *DARK, "panico Ana")
        wait_until(lambda: any(f["texto"] == TORCH_OUT for f in table.of("fala")),
                   what="a tela da mesa diz que a tocha apagou")
        # the prompt goes to Ana only: the GM page says it, the table screen never
        prompt = wait_until(lambda: [f for f in gm.of("fala") if "pedido" in f["avisos"]],
                            what="a página do Mestre diz o pedido")
        assert "teste de pânico" in prompt[0]["texto"]
        # a command said by voice: its answer is said too, and a GM-only one by the GM page
        secret = _run(gm, "segredo")
        _speech(speaking_server).answered(secret)  # what the listener does after running it
        wait_until(lambda: any(f["texto"].startswith("Rolagem secreta")
                               for f in gm.of("fala")), what="o segredo na página do Mestre")
        table_said = table.of("fala")
        assert all("pedido" not in f["avisos"] for f in table_said)
        assert not any("secreta" in f["texto"] or "Movimento" in f["texto"]
                       for f in table_said)
        # each announcement once, by one speaker: no text reached both pages, none twice
        gm_ids = [f["id"] for f in gm.of("fala")]
        assert len(gm_ids) == len(set(gm_ids))
        assert not {f["texto"] for f in table_said} & {f["texto"] for f in gm.of("fala")}
        assert TORCH_OUT not in [f["texto"] for f in gm.of("fala")]
        # the table screen's ids are its own numbers: the ids of its events
        table_seqs = {e["seq"]: e["text"] for e in table.events}
        spoken = _speech(speaking_server).config.spoken
        assert all(spoken(table_seqs[f["id"]]) == f["texto"] for f in table_said)
        # the laptop was turned off by the GM page: it said nothing
        speaker = _speech(speaking_server).speaker
        assert speaker is not None and list(speaker.said) == []
    finally:
        gm.sio.disconnect()
        table.sio.disconnect()


def test_secrets_on_the_laptop_only_when_the_gm_turns_them_on(
        speaking_server: RunningServer) -> None:
    gm = _peer(speaking_server, {"token": GM_TOKEN})
    try:
        speech = _speech(speaking_server)
        speech.answered(_run(gm, "segredo"))
        assert speech.speaker.wait_idle(20)
        assert not any(text.startswith("Rolagem secreta") for text in speech.speaker.said)
        ack = gm.sio.call("fala_preferencias", {"notebook_segredos": True}, timeout=5)
        assert ack["escolha"]["notebook_segredos"] is True
        speech.answered(_run(gm, "segredo"))
        assert speech.speaker.wait_idle(20)
        assert any(text.startswith("Rolagem secreta") for text in speech.speaker.said)
    finally:
        gm.sio.disconnect()


def test_silence_stops_the_laptop_and_every_page(speaking_server: RunningServer) -> None:
    gm = _peer(speaking_server, {"token": GM_TOKEN}, pagina=True)
    table = _peer(speaking_server, {"papel": "mesa"}, pagina=True)
    try:
        events = _run(gm, "silencio")
        assert [e["text"] for e in events] == ["Silêncio: o companheiro parou de falar."]
        wait_until(lambda: table.of("fala_parar") and gm.of("fala_parar"),
                   what="fala_parar nas duas páginas")
        assert table.of("fala") == [] and gm.of("fala") == []  # the silence is not said
    finally:
        gm.sio.disconnect()
        table.sio.disconnect()


def test_only_the_gm_page_and_the_table_screen_choose_speech(
        speaking_server: RunningServer) -> None:
    player = Peer(speaking_server.url, {"nome": "Ana"})
    try:
        player.welcome()
        ack = player.sio.call("fala_preferencias", {"pagina": True}, timeout=5)
        assert ack == {"ok": False, "error": "só a página do Mestre e a tela da mesa falam"}
        ack = player.sio.call("fala_estado", {"falando": True}, timeout=5)
        assert ack["ok"] is False
    finally:
        player.sio.disconnect()


def test_the_gm_choice_lists_the_kinds_and_keeps_what_is_left_out(
        speaking_server: RunningServer) -> None:
    gm = _peer(speaking_server, {"token": GM_TOKEN})
    try:
        ack = gm.sio.call("fala_preferencias", {"avisos": ["luz", "nada"], "notebook": "x"},
                          timeout=5)
        assert ack["escolha"] == {"avisos": ["luz"], "notebook": True,
                                  "notebook_segredos": False}
        assert [k["tipo"] for k in ack["avisos"]][:2] == ["por_voz", "luz"]
        assert ack["notebook"]["pode"] is True and "espeak-ng" in ack["notebook"]["linha"]
    finally:
        gm.sio.disconnect()


def test_the_gm_s_spoken_question_about_the_clock_is_said_by_the_laptop(tables: Any) -> None:
    """'mestre, quanto falta para a tocha?': the answer goes to the GM alone, but it says only
    what the table may know (tables/fala.yaml respostas_publicas), so the laptop says it with
    its secrets off; a GM-only answer (the party is lost) it does not say."""
    from companion.speech.announce import Choice, Place, speaker_for, to_say
    from companion.speech.speech_config import speech_config

    config = speech_config(tables)
    choice = Choice.defaults(config)
    assert not choice.laptop_secrets
    places = [Place("notebook", "notebook"), Place("pagina-do-mestre", "mestre")]
    clock = {"seq": 9, "visibility": "gm", "kind": "relato", "code": "perguntas.tempo",
             "command": "tempo"}
    lost = {"seq": 10, "visibility": "gm", "kind": "relato", "code": "viagem.perdido",
            "command": "avancar"}
    (said_clock,) = to_say([clock], config, by_voice=True)
    (said_lost,) = to_say([lost], config, by_voice=True)
    assert speaker_for(said_clock, choice, places) == places[0]
    assert speaker_for(said_lost, choice, places) == places[1]


def test_the_spoken_clock_is_said_by_the_laptop_and_said_again_on_repetir(
        speaking_server: RunningServer) -> None:
    """Through the real server: the GM's spoken 'tempo' (GM-only, but tables/fala.yaml
    respostas_publicas) is said by the laptop with its secrets off; a spoken 'repetir' says the
    last game result (the torch lit), not the answer; with the laptop off, the table screen does not say it (not in its numbering)."""
    gm = _peer(speaking_server, {"token": GM_TOKEN})
    table = _peer(speaking_server, {"papel": "mesa"}, pagina=True)
    try:
        _run(gm, "personagem Ana", "masmorra", "acender tocha")
        speech = _speech(speaking_server)
        speaker = speech.speaker
        assert speaker is not None and speaker.wait_idle(20)
        asked = _run(gm, "tempo")
        (answer,) = [e for e in asked if e["command"] == "tempo"]
        assert answer["visibility"] == "gm"
        spoken = speech.config.spoken(answer["text"])
        speech.answered(asked, "tempo")
        assert speaker.wait_idle(20) and list(speaker.said).count(spoken) == 1
        # `repetir` repeats the last GAME result (the torch lit), never an answer (issue 31)
        again = _run(gm, "repetir")
        assert answer["seq"] not in [e["seq"] for e in again]
        assert again and {e["command"] for e in again} == {"luz"}
        speech.answered(again, "repetir")
        torch = speech.config.spoken(again[0]["text"])
        assert speaker.wait_idle(20) and torch in list(speaker.said)
        assert list(speaker.said).count(spoken) == 1
        ack = gm.sio.call("fala_preferencias", {"notebook": False}, timeout=5)
        assert ack["ok"] and ack["escolha"]["notebook"] is False
        speech.answered(_run(gm, "tempo"), "tempo")
        assert table.of("fala") == []
    finally:
        gm.sio.disconnect()
        table.sio.disconnect()
