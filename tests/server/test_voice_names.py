"""The voice's names on the Regras screen over the wire (issue 19 item 2, beside issue 18): the
names a campaign adds to the voice lists are its rules (Socket.IO `regras` {"alterar":
{"nomes_da_voz": …}}, logged and undone like any rule, and heard by the session's phrase
list), and the names it learned from typed commands are listed by GET /api/regras and
forgotten with {"esquecer": […]} / POST /api/regras/esquecer (no game command), with real
clients against a real server on loopback and the real campaign file."""
from __future__ import annotations

from typing import Any, Callable

import requests

from companion.server.app import RunningServer
from companion.voice.learned import SessionNames, campaign_learned
from companion.voice.service import session_phrases
from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN
from tests.socket_helpers import Peer, rules

AUTH = {"Authorization": f"Bearer {GM_TOKEN}"}
SPELL = {"nomes_da_voz": {"magia": ["Raio do Trovão"]}}


def names_view(server: RunningServer) -> dict[str, Any]:
    answer = requests.get(f"{server.url}/api/regras", headers=AUTH, timeout=10)
    assert answer.status_code == 200
    return answer.json()["nomes_da_voz"]


def phrases_of(session: Any, tables: Any) -> list[str]:
    taught = SessionNames(session, tables)
    try:
        return session_phrases(session, tables, taught)()
    finally:
        taught.close()


def test_a_spell_added_on_the_screen_is_a_rule_the_voice_hears(server: RunningServer,
                                                              session: Any, tables: Any,
                                                              peers: Callable[..., Peer]) -> None:
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    assert not any("raio do trovão" in p for p in phrases_of(session, tables))
    magias = names_view(server)["listas"][0]
    assert magias["chave"] == "magia" and magias["nomes"] == [] and magias["da_lista"] > 100
    checked = rules(gm, {"validar": SPELL})
    assert checked["ok"] and checked["mudancas"] == [
        {"arquivo": "nomes_da_voz.yaml", "chave": "magia", "antes": [],
         "depois": ["Raio do Trovão"], "origem": "mestre"}]
    changed = rules(gm, {"alterar": SPELL})
    assert changed["ok"], changed
    assert session.overrides == SPELL
    assert names_view(server)["listas"][0]["nomes"] == ["Raio do Trovão"]
    assert any("raio do trovão" in p for p in phrases_of(session, tables))
    assert session.run("desfazer", actor="gm").ok
    assert session.overrides == {}
    assert not any("raio do trovão" in p for p in phrases_of(session, tables))


def test_a_name_the_voice_cannot_hear_is_refused_naming_it(server: RunningServer, session: Any,
                                                           peers: Callable[..., Peer]) -> None:
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    last = session.last_seq()
    bad = rules(gm, {"alterar": {"nomes_da_voz": {"magia": ["Escudo", "bola de fogo 3"]}}})
    assert bad["ok"] is False
    assert "'magia[1]' deveria ser um nome que a voz possa ouvir ('bola de fogo 3' não é)" \
        in bad["erro"]
    assert session.overrides == {} and session.last_seq() == last


def test_a_learned_name_is_listed_and_forgotten_from_the_phone(server: RunningServer,
                                                               session: Any, tables: Any,
                                                               peers: Callable[..., Peer]) -> None:
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    assert session.run("masmorra", actor="gm").ok
    assert session.run("monstro Górgona Anciã na sala 2", actor="gm").ok
    learned = names_view(server)["aprendidos"]
    assert [(n["nome"], n["dito"], n["comando"]) for n in learned] == [
        ("Górgona Anciã", "gorgona ancia", "monstro")]
    assert any("górgona anciã" in p for p in phrases_of(session, tables))
    last = session.last_seq()
    unknown = rules(gm, {"esquecer": ["Górgona Anciã", "Dragão de Lata"]})
    assert unknown["ok"] is False and "'Dragão de Lata' não é nome aprendido" in unknown["erro"]
    assert "Aprendidos: Górgona Anciã" in unknown["erro"]
    assert len(names_view(server)["aprendidos"]) == 1
    assert rules(gm, {"esquecer": "Górgona"})["ok"] is False  # a list of names, not text
    forgot = rules(gm, {"esquecer": ["gorgona ancia"]})
    assert forgot == {"ok": True, "erro": None, "esquecidos": ["Górgona Anciã"]}
    assert names_view(server)["aprendidos"] == []
    assert campaign_learned(session.db_path, tables) == []  # in the campaign's file
    assert not any("górgona" in p for p in phrases_of(session, tables))
    assert session.last_seq() == last  # no game command: nothing logged


def test_only_the_gm_forgets_and_http_does_it_too(server: RunningServer, session: Any,
                                                  peers: Callable[..., Peer]) -> None:
    assert session.run("masmorra", actor="gm").ok
    assert session.run("monstro Troll das Cavernas", actor="gm").ok
    ana = peers({"nome": "Ana"})
    ana.welcome()
    refused = rules(ana, {"esquecer": ["Troll das Cavernas"]})
    assert refused["ok"] is False and "só o Mestre" in refused["erro"]
    url = f"{server.url}/api/regras/esquecer"
    assert requests.post(url, json={"nomes": ["Troll das Cavernas"]},
                         timeout=10).status_code == 401
    bad = requests.post(url, json={"nomes": []}, headers=AUTH, timeout=10)
    assert bad.status_code == 422 and "envie" in bad.json()["erro"]
    assert len(names_view(server)["aprendidos"]) == 1
    done = requests.post(url, json={"nomes": ["Troll das Cavernas"]}, headers=AUTH, timeout=10)
    assert done.status_code == 200 and done.json()["esquecidos"] == ["Troll das Cavernas"]
    assert names_view(server)["aprendidos"] == []
    assert session.run("monstro Troll das Cavernas", actor="gm").ok  # typed again: back
    assert [n["nome"] for n in names_view(server)["aprendidos"]] == ["Troll das Cavernas"]


def test_lists_maps_and_closed_choices_are_fields_checked_by_the_server(
        server: RunningServer, session: Any, peers: Callable[..., Peer]) -> None:
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    view = requests.get(f"{server.url}/api/regras", headers=AUTH, timeout=10).json()
    fields = {(f["arquivo"], f["chave"]): f for f in view["campos"]}
    level = fields[("personagem", "limites_personagem.nivel")]
    assert level["tipo"] == "lista" and level["tamanho"] == 2
    assert level["rotulos_itens"] == ["mínimo", "máximo"] and level["valor"] == [1, 20]
    dice = fields[("casa", "descanso.dados_de_vida")]
    assert dice["tipo"] == "mapa" and dice["valores"] == {"tipo": "texto"}
    season = fields[("inicio", "estacao.valor")]
    assert season["tipo"] == "escolha" and season["opcoes"] == [
        "primavera", "verao", "outono", "inverno"]
    assert season["rotulos_opcoes"]["verao"] == "verão"
    assert fields[("masmorra", "magia_maximo_turnos")]["tipo"] == "inteiro"
    swapped = rules(gm, {"validar": {"personagem": {"limites_personagem": {"nivel": [20, 1]}}}})
    assert swapped["ok"] is False
    assert "'limites_personagem.nivel' deveria ser [mínimo, máximo]" in swapped["erro"]
    bad_die = rules(gm, {"validar": {"casa": {"descanso": {"dados_de_vida": {"ana": "d0"}}}}})
    assert bad_die["ok"] is False and "dados_de_vida.ana" in bad_die["erro"]
    assert rules(gm, {"alterar": {"casa": {"descanso": {"dados_de_vida": {"ana": "d6"}}}}})["ok"]
    assert session.tables.get("casa", "descanso", "dados_de_vida") == {"ana": "d6"}
    assert rules(gm, {"alterar": {"casa": {"descanso": {"dados_de_vida": {"ana": None}}}}})["ok"]
    assert session.overrides == {}
    assert rules(gm, {"validar": {"inicio": {"estacao": {"valor": "monção"}}}})["ok"] is False
