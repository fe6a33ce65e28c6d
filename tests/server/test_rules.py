"""The GM's own rules over the wire (issue 19): Socket.IO `regras` ({"validar"|"alterar"}, ack
{ok, erro}) and GET/POST /api/regras with the GM token, with real clients against a real server
on loopback."""
from __future__ import annotations

from typing import Any, Callable

import requests

from companion.server.app import RunningServer
from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN
from tests.socket_helpers import Peer, rules, wait_until

AUTH = {"Authorization": f"Bearer {GM_TOKEN}"}
TORCH_2 = {"casa": {"luz": {"tocha": {"turnos": 2}}}}
SOMBRIA = {"regiao": "Floresta Sombria", "terreno": "floresta", "dados": "1d2",
           "linhas": {1: "Ent furioso", 2: "Corvos que falam"}}


def test_the_gm_checks_and_changes_the_rules_over_socketio(server: RunningServer,
                                                           session: Any,
                                                           peers: Callable[..., Peer]) -> None:
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    ana = peers({"nome": "Ana"})
    ana.welcome()
    last = session.last_seq()
    checked = rules(gm, {"validar": TORCH_2})
    assert checked == {"ok": True, "erro": None, "mudancas": [
        {"arquivo": "casa.yaml", "chave": "luz.tocha.turnos", "antes": 6, "depois": 2,
         "origem": "mestre"}]}
    assert session.last_seq() == last and session.overrides == {}
    bad = rules(gm, {"validar": {"encontros": {"regioes": {"sombria": {
        **SOMBRIA, "linhas": {1: {"texto": "Ent", "quantidade": "muitos"}, 2: "Corvos"}}}}}})
    assert bad["ok"] is False
    assert "'regioes.sombria.linhas.1.quantidade' deveria ser uma expressão de dados" \
        in bad["erro"]
    changed = rules(gm, {"alterar": {**TORCH_2, "encontros": {"regioes": {"sombria": SOMBRIA}}}})
    assert changed["ok"] is True and changed["erro"] is None
    assert all(e["visibility"] == "gm" for e in changed["eventos"])
    seq = changed["eventos"][-1]["seq"]
    gm.wait_seq(seq)
    assert any("luz.tocha.turnos" in e["text"] for e in gm.events)
    # the players never see the GM's rules nor the encounter tables
    assert gm.cmd("região Floresta Sombria")["ok"]
    wait_until(lambda: any("Floresta Sombria" in e["text"] for e in ana.events),
               what="Ana sabe onde o grupo está")
    seen = ana.everything()
    assert "Ent furioso" not in seen and "luz.tocha" not in seen and "regras" not in seen
    refused = rules(ana, {"alterar": TORCH_2})
    assert refused["ok"] is False and "só o Mestre" in refused["erro"]
    for wrong in (None, {}, TORCH_2, {"validar": TORCH_2, "alterar": TORCH_2}):
        answer = rules(gm, wrong)
        assert answer["ok"] is False and "validar" in answer["erro"], wrong
    undone = gm.cmd("desfazer")  # the region
    assert undone["ok"]
    assert gm.cmd("desfazer")["ok"]  # the rules change
    assert session.overrides == {}


def test_the_rules_over_http_need_the_gm_token(server: RunningServer) -> None:
    url = server.url + "/api/regras"
    assert requests.get(url, timeout=5).status_code == 401
    assert requests.post(url, json=TORCH_2, timeout=5).status_code == 401
    shown = requests.get(url, headers=AUTH, timeout=5).json()
    assert shown["sobrescritas"] == {}
    torch = next(f for f in shown["campos"] if f["chave"] == "luz.tocha.turnos")
    assert torch["arquivo"] == "casa" and torch["tipo"] == "inteiro"
    assert torch["padrao"] == torch["valor"] == 6 and "tocha" in torch["rotulo"]
    visibility = next(f for f in shown["campos"] if f["chave"] == "encontros.visibilidade")
    assert visibility["tipo"] == "escolha" and visibility["opcoes"] == ["mestre", "publico"]
    assert {r["id"] for r in shown["regioes"]} >= {"floresta", "pantano"}
    assert shown["efetivas"]["casa"]["luz"]["tocha"]["turnos"] == 6

    dry = requests.post(url + "?validar=1", json=TORCH_2, headers=AUTH, timeout=5)
    assert dry.status_code == 200 and dry.json()["mudancas"][0]["depois"] == 2
    assert requests.get(url, headers=AUTH, timeout=5).json()["sobrescritas"] == {}
    bad = requests.post(url, json={"casa": {"luz": {"tocha": {"turnos": 0}}}}, headers=AUTH,
                        timeout=5)
    assert bad.status_code == 422
    assert bad.json() == {"ok": False, "erro": bad.json()["erro"]}
    assert "'luz.tocha.turnos' deveria ser" in bad.json()["erro"]
    applied = requests.post(url, json=TORCH_2, headers=AUTH, timeout=5)
    assert applied.status_code == 200 and applied.json()["ok"] is True
    after = requests.get(url, headers=AUTH, timeout=5).json()
    assert after["sobrescritas"] == TORCH_2
    torch = next(f for f in after["campos"] if f["chave"] == "luz.tocha.turnos")
    assert (torch["padrao"], torch["valor"]) == (6, 2)
    back = requests.post(url, json={"casa": {"luz": {"tocha": {"turnos": None}}}},
                         headers=AUTH, timeout=5)
    assert back.status_code == 200
    assert requests.get(url, headers=AUTH, timeout=5).json()["sobrescritas"] == {}
    not_json = requests.post(url, data="casa: 1", headers=AUTH, timeout=5)
    assert not_json.status_code == 400 and not_json.json()["ok"] is False


def test_a_new_region_never_replaces_one_that_exists(server: RunningServer, session: Any,
                                                     peers: Callable[..., Peer]) -> None:
    """Issue 26 point 1: "Nova região" (`criar`) with a taken name is refused with the reason,
    and the region keeps its own table; a terrain's name gets a message about terrains."""
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    made = rules(gm, {"criar": {"encontros": {"regioes": {"floresta_sombria": SOMBRIA}}}})
    assert made["ok"] is True, made
    kept = session.overrides
    stock = {**SOMBRIA, "dados": "1d6", "linhas": {n: f"Linha {n}" for n in range(1, 7)}}
    again = rules(gm, {"criar": {"encontros": {"regioes": {"floresta_sombria": stock}}}})
    assert again["ok"] is False
    assert "já existe uma região 'Floresta Sombria'" in again["erro"]
    assert session.overrides == kept
    terrain = rules(gm, {"criar": {"encontros": {"regioes": {"pantano": {
        **SOMBRIA, "regiao": "Pântano", "terreno": "pantano"}}}}})
    assert terrain["ok"] is False
    assert "uma região não pode ter o nome de um terreno" in terrain["erro"]
    assert "não existe" not in terrain["erro"] and "regioes.pantano" not in terrain["erro"]
    assert session.overrides == kept
    # editing the region itself (`alterar`) still changes its table
    edited = rules(gm, {"alterar": {"encontros": {"regioes": {"floresta_sombria": stock}}}})
    assert edited["ok"] is True


def test_a_regions_preposition_is_checked_and_kept(server: RunningServer, session: Any,
                                                   peers: Callable[..., Peer]) -> None:
    """Issue 26: the region's `preposicao` ("na Floresta Sombria") is set from the Regras
    screen too: a value outside tables/encontros.yaml `preposicoes` is refused, in Portuguese,
    naming the key and what would be accepted; a good one is kept and said."""
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    bad = rules(gm, {"validar": {"encontros": {"regioes": {"floresta_sombria": {
        **SOMBRIA, "preposicao": "dentro da"}}}}})
    assert bad["ok"] is False
    assert "'regioes.floresta_sombria.preposicao'" in bad["erro"]
    assert "na, no, nas, nos ou em" in bad["erro"] and "'dentro da'" in bad["erro"]
    made = rules(gm, {"alterar": {"encontros": {"regioes": {"floresta_sombria": {
        **SOMBRIA, "preposicao": "na"}}}}})
    assert made["ok"] is True, made
    said = gm.cmd("região Floresta Sombria")
    assert said["ok"] and any("O grupo está na Floresta Sombria" in e["text"]
                              for e in said["events"])
