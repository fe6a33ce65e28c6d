"""Per-viewer prompt ids with real Socket.IO clients on a real loopback server: each player
counts only the prompts addressed to them (1, 2, 3, … with no gap left by another player's
prompts), answers by that number, and never sees the log's command numbers."""
from __future__ import annotations

import json
from typing import Any
from urllib.request import Request, urlopen

from companion.report import build
from companion.report.source import open_campaign
from companion.session import Session
from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN
from tests.socket_helpers import Peer, gm_ok, wait_until


def prompt_ids_in(peer: Peer) -> list[int]:
    """The prompt ids of the `pedido` events a connection received, in order."""
    return [e["data"]["pedido"]["id"] for e in peer.events if e["kind"] == "pedido"]


def pending_ids(peer: Peer) -> list[int]:
    views = peer.views()
    return [p["id"] for p in views[-1]["pedidos"]] if views else []


def global_prompts(session: Session, character: str) -> list[int]:
    return [e["data"]["pedido"]["id"] for e in session.events_since(0)
            if e["kind"] == "pedido" and e["visibility"] == f"player:{character}"]


def table(peers: Any) -> tuple[Peer, Peer, Peer]:
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    ana, bia = peers({"nome": "Ana"}), peers({"nome": "Bia"})
    ana.welcome(), bia.welcome()
    return gm, ana, bia


def test_two_players_each_see_their_own_gapless_prompt_ids(peers, session: Session) -> None:
    gm, ana, bia = table(peers)
    for name in ("Ana", "Bia", "Ana", "Bia", "Bia"):
        gm_ok(gm, f"pânico {name}")
    assert global_prompts(session, "ana") == [1, 3]  # the log's ids leave gaps for each
    assert global_prompts(session, "bia") == [2, 4, 5]
    wait_until(lambda: prompt_ids_in(ana) == [1, 2], what=f"Ana: {prompt_ids_in(ana)}")
    wait_until(lambda: prompt_ids_in(bia) == [1, 2, 3], what=f"Bia: {prompt_ids_in(bia)}")
    wait_until(lambda: pending_ids(ana) == [1, 2], what="o estado de Ana")
    wait_until(lambda: pending_ids(bia) == [1, 2, 3], what="o estado de Bia")
    # the GM keeps the log's ids
    wait_until(lambda: prompt_ids_in(gm) == [1, 2, 3, 4, 5], what=f"o Mestre: {prompt_ids_in(gm)}")
    wait_until(lambda: pending_ids(gm) == [1, 2, 3, 4, 5], what="o estado do Mestre")
    # a player's "estado" command shows the same numbers as the estado messages
    shown = ana.cmd("estado")
    assert shown["ok"], shown
    (summary,) = [e for e in shown["events"] if e["kind"] == "estado"]
    assert [p["id"] for p in summary["data"]["estado"]["pedidos"]] == [1, 2]


def test_answering_by_own_number_and_a_stale_number_is_refused(peers, session: Session) -> None:
    gm, ana, bia = table(peers)
    for name in ("Ana", "Bia", "Bia"):
        gm_ok(gm, f"pânico {name}")
    wait_until(lambda: pending_ids(bia) == [1, 2], what="os pedidos de Bia")
    answer = bia.cmd("responder pedido 2 rolar")  # Bia's second prompt: the log's 3
    assert answer["ok"], answer
    (said,) = [e for e in answer["events"] if e["kind"] == "resposta"]
    # her number in the data; the text says what was asked, not a number (issue 31 item 6)
    assert said["data"]["pedido"] == 2 and "pedido" not in said["text"]
    assert said["text"] == "Bia respondeu: 20 (teste de pânico).", said["text"]
    stored = [e for e in session.events_since(0) if e["kind"] == "resposta"]
    assert [e["data"]["pedido"] for e in stored] == [3]  # the engine answered its prompt 3
    last = session.commands()[-1]  # what Bia typed, and the engine's prompt in its arguments
    assert (last.text, last.args["pedido"]) == ("responder pedido 2 rolar", 3)
    wait_until(lambda: pending_ids(bia) == [1], what="o pedido 2 de Bia saiu")
    # the same button again: refused in Portuguese, nothing changes
    count = len(session.events_since(0))
    again = bia.cmd("responder pedido 2 rolar")
    assert again["ok"] is False and again["codigo"] == "pedido_encerrado"
    assert "já foi respondido ou cancelado" in again["error"]
    never = bia.cmd("responder pedido 7 rolar")
    assert never["ok"] is False and never["codigo"] == "pedido_desconhecido"
    assert "pedido desconhecido: '7'" in never["error"]
    assert len(session.events_since(0)) == count
    # an undone prompt's number is never given again: the old button does not answer the new one
    gm_ok(gm, "pânico Bia")  # Bia's prompt 3 (the log's 4)
    wait_until(lambda: pending_ids(bia) == [1, 3], what="o pedido 3 de Bia")
    gm_ok(gm, "desfazer")
    wait_until(lambda: pending_ids(bia) == [1], what="o pedido 3 de Bia foi desfeito")
    gm_ok(gm, "pânico Bia")
    wait_until(lambda: pending_ids(bia) == [1, 4], what="o pedido novo de Bia é o 4")
    stale = bia.cmd("responder pedido 3 rolar")
    assert stale["ok"] is False and stale["codigo"] == "pedido_encerrado"
    assert bia.cmd("responder pedido 4 rolar")["ok"]
    # Ana's numbers never moved: her first prompt is still her 1
    assert pending_ids(ana) == [1] and ana.cmd("responder pedido 1 rolar")["ok"]
    nothing = ana.cmd("responder rolar")
    assert nothing["ok"] is False and nothing["codigo"] == "sem_pedido"
    assert "não há nenhum pedido pendente" in nothing["error"]


def test_a_player_never_answers_another_players_prompt(peers, session: Session) -> None:
    gm, ana, bia = table(peers)
    gm_ok(gm, "pânico Ana")
    gm_ok(gm, "pânico Bia")
    wait_until(lambda: pending_ids(bia) == [1], what="o pedido de Bia")
    count = len(session.events_since(0))
    # Bia's 2 does not exist (the log's 2 is hers, but she counts it as 1; the log's 1 is Ana's)
    refused = bia.cmd("responder pedido 2 rolar")
    assert refused["ok"] is False and refused["codigo"] == "pedido_desconhecido"
    assert len(session.events_since(0)) == count
    assert bia.cmd("responder pedido 1 rolar")["ok"]
    assert [e["data"]["pedido"] for e in session.events_since(0) if e["kind"] == "resposta"] == [2]


def test_a_players_undo_event_carries_no_global_command_number(peers, session: Session) -> None:
    gm, ana, bia = table(peers)
    for secret in range(6):  # GM-only commands: they count in the log, never on a phone
        gm_ok(gm, f"segredo 1d20 porta {secret}")
    asked = gm_ok(gm, "pânico Ana")
    undone = session.commands()[-1].n
    undo = gm_ok(gm, "desfazer")
    (gm_undo,) = [e for e in undo if "desfeito" in e["data"]]
    assert gm_undo["data"]["desfeito"] == undone
    for peer, me in ((ana, "player:ana"), (bia, "player:bia")):
        wait_until(lambda: any(e["command"] == "desfazer" for e in peer.events),
                   what=f"o desfazer chegou a {me}")
        (local,) = [e for e in peer.events if e["command"] == "desfazer"]
        first_seen = next(e for e in asked if e["visibility"] in ("public", me))
        mine = [e for e in peer.events if e["text"] == first_seen["text"]]
        assert local["data"]["desfeito"] == mine[0]["seq"]  # its own number of what was undone
        assert local["data"]["desfeito"] != undone


def test_naming_another_character_is_refused_without_their_prompt_ids(peers,
                                                                       session: Session) -> None:
    gm, ana, bia = table(peers)
    gm_ok(gm, "pânico Ana")
    gm_ok(gm, "pânico Bia")
    wait_until(lambda: pending_ids(bia) == [1], what="o pedido de Bia")
    refused = bia.cmd("responder 12 Ana")
    assert refused["ok"] is False and refused["codigo"] == "pedido_alheio"
    assert "pedido 1" not in refused["error"] and "responda só aos seus pedidos" in refused["error"]
    assert bia.cmd("responder 12 Bia")["ok"]


def test_an_undone_answer_quotes_each_player_only_their_own_numbers(peers,
                                                                     session: Session) -> None:
    gm, ana, bia = table(peers)
    gm_ok(gm, "pânico Ana")
    gm_ok(gm, "pânico Bia")
    assert bia.cmd("responder pedido 1 rolar")["ok"]  # the log's prompt 2
    gm_ok(gm, "desfazer")
    said = {}
    for peer, me in ((gm, "gm"), (ana, "ana"), (bia, "bia")):
        wait_until(lambda: any(e["command"] == "desfazer" for e in peer.events),
                   what=f"o desfazer chegou a {me}")
        said[me] = next(e["text"] for e in peer.events if e["command"] == "desfazer")
    # quoted by name and arguments for each viewer (the GM too: Bia typed her own number)
    assert said["gm"] == "Desfeito: 'responder pedido 2'"
    assert said["bia"] == "Desfeito: a resposta ao pedido 1"  # said as people say it
    assert said["ana"] == "Desfeito: a resposta a um pedido"


# ---------------------------------------------------------------- refusals: only one's own prompts

def crowded(peers: Any) -> tuple[Peer, Peer, Peer]:
    """Ana has the log's prompts 1–3; Bia's only prompt is the log's 4 (her 1); Caio has none."""
    gm, ana, bia = table(peers)
    gm_ok(gm, "personagem Caio")
    for name in ("Ana", "Ana", "Ana", "Bia"):
        gm_ok(gm, f"pânico {name}")
    wait_until(lambda: pending_ids(bia) == [1], what="o pedido de Bia")
    return gm, ana, bia


def refused(peer: Peer, text: str) -> dict[str, Any]:
    ack = peer.cmd(text)
    assert ack["ok"] is False, ack
    return ack


def test_a_refusal_lists_only_the_players_own_prompts_in_their_numbers(peers,
                                                                        session: Session) -> None:
    gm, ana, bia = crowded(peers)
    count = len(session.events_since(0))
    said = refused(bia, "responder Caio")["error"]  # Caio has no prompt: pendentes are listed
    assert "Ana" not in said and "4" not in said, said
    assert said == "não há pedido pendente para 'Caio'; pendentes: 1 (Bia: Teste de pânico)"
    # the GM reads the same refusal with every prompt, in the log's ids (unchanged)
    gm_said = refused(gm, "responder Caio")["error"]
    assert gm_said.startswith("não há pedido pendente para 'Caio'; pendentes: 1 (Ana: ")
    assert "4 (Bia: Teste de pânico)" in gm_said
    assert len(session.events_since(0)) == count


def test_naming_another_players_prompt_holder_never_shows_that_prompts_id(peers,
                                                                          session: Session) -> None:
    gm, ana, bia = crowded(peers)
    ack = refused(bia, "responder Ana")  # read as an option, then as Ana's prompt
    assert ack["codigo"] == "pedido_alheio"
    assert ack["error"] == "esse pedido não é seu; responda só aos seus pedidos"


def test_refusals_about_the_players_prompt_use_their_number(peers, session: Session) -> None:
    gm, ana, bia = crowded(peers)
    out_of_range = refused(bia, "responder pedido 1 99")
    assert out_of_range["codigo"] == "valor_fora_do_dado"
    assert "o pedido 1 é de" in out_of_range["error"] and "pedido 4" not in out_of_range["error"]
    option = refused(bia, "responder pedido 1 exaustão")  # a roll, not a choice
    assert option["error"].startswith("o pedido 1 pede uma rolagem"), option
    both = refused(bia, "responder 9 15")  # two dice for a prompt with no edge
    assert both["error"].startswith("o pedido 1 não é com DESV nem vantagem"), both


def test_the_servers_own_refusals_come_from_the_narration_tables(peers, session: Session) -> None:
    gm, ana, bia = crowded(peers)
    assert refused(bia, "responder pedido 9 rolar")["error"] == \
        "pedido desconhecido: '9'; seus pedidos pendentes: 1"
    assert refused(bia, "responder 12 Ana")["error"] == \
        "'Ana' não é o seu personagem; responda só aos seus pedidos"
    assert bia.cmd("responder pedido 1 rolar")["ok"]
    assert refused(bia, "responder pedido 1 rolar")["error"] == \
        "o pedido 1 já foi respondido ou cancelado; seus pedidos pendentes: nenhum"
    assert refused(bia, "responder rolar")["error"] == "não há nenhum pedido pendente para você"


def test_nothing_a_player_receives_carries_another_players_prompt(peers,
                                                                   session: Session) -> None:
    gm, ana, bia = crowded(peers)
    for text in ("responder Caio", "responder Ana", "responder pedido 1 99", "estado",
                 "responder pedido 2", "registro", "ajuda"):
        bia.cmd(text)
    gm_ok(gm, "cancelar pedido 4")
    wait_until(lambda: pending_ids(bia) == [], what="o pedido de Bia foi cancelado")
    everything = bia.everything()
    assert "Ana: " not in everything and "pedido 4" not in everything.lower()
    # her own cancel (numbered), and everyone's (a panic test everyone saw asked: no number)
    (cancelled,) = [e for e in bia.events if e["data"].get("cancelado") and "pedido" in e["data"]]
    assert cancelled["data"]["pedido"] == 1 and cancelled["text"].startswith("Pedido 1 (Bia")


def test_a_players_report_and_exports_use_their_own_prompt_numbers(peers, server: Any,
                                                                    session: Session) -> None:
    gm, ana, bia = crowded(peers)
    token = bia.welcome()["token"]
    gm_ok(gm, "responder pedido 4 12")  # Bia's prompt 1, answered for her by the GM
    gm_ok(gm, "pânico Bia")  # the log's 5: her 2
    gm_ok(gm, "cancelar pedido 5")
    exported = json.loads(urlopen(Request(f"{server.url}/relatorio/eventos.json", headers={
        "Authorization": f"Bearer {token}"})).read())
    said = [(e["dados"], e["texto"], e["comando_texto"]) for e in exported["eventos"]]
    ids = [d["pedido"]["id"] if isinstance(d.get("pedido"), dict) else d["pedido"]
           for d, _text, _command in said if "pedido" in d]
    assert ids and set(ids) == {1, 2}, said
    written = json.dumps(said, ensure_ascii=False)
    for global_only in ("pedido 4", "pedido 5", "Pedido 5"):
        assert global_only not in written, written
    assert "respondeu ao pedido 1 com 12" in written and "cancelar pedido 2" in written
    page = urlopen(Request(f"{server.url}/relatorio", headers={
        "Authorization": f"Bearer {token}"})).read().decode()
    assert "pedido 4" not in page and "pedido 5" not in page and "Pedido 5" not in page


def test_a_players_export_names_an_undo_in_their_own_numbers(tmp_path: Any, tables: Any) -> None:
    db = tmp_path / "desfeito.db"
    session = Session.open(db, 7, tables)
    session.join_player("Ana")
    session.join_player("Bia")
    for text in ("segredo 1d20 porta", "segredo 1d20 porta", "pânico Bia", "pânico Ana",
                 "responder pedido 2 12", "desfazer"):
        assert session.run(text).ok, text
    undone = session.commands()[-2].n
    session.close()
    exported = json.loads(build.export(open_campaign(db), tables, "json", None, "player:ana"))
    (undo,) = [e for e in exported["eventos"] if "desfeito" in e["dados"]]
    answered = next(e for e in exported["eventos"]
                    if e["comando_texto"] == "respondeu ao pedido 1 com 12")
    assert undo["dados"]["desfeito"] == answered["seq"] != undone  # her number, not the log's
    assert undo["dados"]["texto"] == "responder pedido 1 12" and undo["texto"] == \
        "Desfeito: a resposta ao pedido 1 (12)"
    # Bia saw the answer's public outcome: her number of it; Ana's prompt has no number of hers
    for_bia = json.loads(build.export(open_campaign(db), tables, "json", None, "player:bia"))
    (other,) = [e for e in for_bia["eventos"] if "desfeito" in e["dados"]]
    outcome = next(e for e in for_bia["eventos"] if e["comando"] == "responder")
    assert outcome["comando_texto"] == "respondeu com 12"
    assert other["dados"]["desfeito"] == outcome["seq"]
    assert other["dados"]["texto"] == "responder um pedido 12"


def test_the_party_escape_test_reaches_every_player_in_their_own_numbering(
        peers, session: Session) -> None:
    """Issue 17: 'teste de fuga dificuldade 12' with no name is the whole party's: every player
    gets it, numbered in their own numbering (Ana already had a prompt: hers is 2, Bia's 1);
    any may answer, the first answer counts and closes it for all; the table screen sees it."""
    gm, ana, bia = table(peers)
    mesa = peers({"papel": "mesa"})
    mesa.welcome()
    gm_ok(gm, "pânico Ana")
    gm_ok(gm, "fugir")
    gm_ok(gm, "fuga sucesso")
    gm_ok(gm, "teste de fuga dificuldade 12")
    wait_until(lambda: pending_ids(ana) == [1, 2], what=f"os pedidos de Ana: {pending_ids(ana)}")
    wait_until(lambda: pending_ids(bia) == [1], what=f"os pedidos de Bia: {pending_ids(bia)}")
    (party_for_bia,) = [e for e in bia.events if e["kind"] == "pedido"]
    assert party_for_bia["data"]["pedido"]["grupo"] is True
    assert "A primeira resposta vale para todos" in party_for_bia["text"]
    wait_until(lambda: any(e["kind"] == "pedido" for e in mesa.events), what="a mesa vê o teste")
    answer = bia.cmd("responder pedido 1 valor 15")
    assert answer["ok"], answer
    (said,) = [e for e in answer["events"] if e["kind"] == "resposta"]
    assert said["data"]["pedido"] == 1 and "pelo grupo, vale para todos" in said["text"]
    # the same answer reaches Ana in her numbering, and her card of it closes
    wait_until(lambda: any(e["kind"] == "resposta" and e["data"]["pedido"] == 2
                           for e in ana.events), what="Ana vê a resposta de Bia como pedido 2")
    wait_until(lambda: pending_ids(ana) == [1], what="o teste do grupo saiu dos pedidos de Ana")
    late = ana.cmd("responder pedido 2 valor 3")
    assert late["ok"] is False and late["codigo"] == "pedido_encerrado"
    assert session.state.chase is not None and session.state.chase.score == 1
