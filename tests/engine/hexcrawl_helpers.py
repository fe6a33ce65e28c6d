"""Helpers shared by the test_hexcrawl test modules."""
from __future__ import annotations


from hypothesis import strategies as st

from tests.engine.travel_helpers import QUIET, ana, bia, run, start
from tests.play_helpers import Play

TERRAINS = ["planicie", "estepe", "colinas", "floresta", "pantano", "montanha"]


SEED_WEATHER = {
    "primavera": ["Frio, chuvoso e ventoso", "Frio e com neblina", "Ameno, ventoso e chuvoso",
                  "Ameno e nublado", "Quente e chuvoso", "Quente e ensolarado"],
    "verao": ["Ameno e tempestuoso", "Quente e chuvoso", "Quente e com brisa",
              "Quente e ensolarado", "Quente e ensolarado", "Sufocante e ensolarado"],
    "outono": ["Frio e tempestuoso", "Frio e ventoso", "Frio e nevoeiro", "Ameno e ventoso",
               "Ameno e chuvoso", "Quente e ventoso"],
    "inverno": ["Congelante e com granizo", "Congelante e com neve", "Frio e com neve",
                "Frio e ventoso", "Frio e ensolarado", "Ameno e ensolarado"],
}


_PI, _EV, _PE, _NA = "Ponto de Interesse", "Evento", "Peregrinos", "Nada"


_D_PLAINS = [_PI, _PI, _EV, _PE, _NA, _NA, _PI, _PI]


_D_HILLS = [_PI, _EV, _PE, _NA, _NA, _NA, _PI, _PI]


_D_WOODS = [_PI, _EV, _NA, _NA, _NA, _NA, _PE, _PI]


SEED_D = {"planicie": _D_PLAINS, "estepe": _D_PLAINS, "colinas": _D_HILLS,
          "montanha": _D_HILLS, "floresta": _D_WOODS, "pantano": _D_WOODS}


SEED_C = {"estepe": 1, "planicie": 2, "colinas": 2, "floresta": 2, "pantano": 3, "montanha": 3}


SEED_ENCOUNTER = {"estepe": 1, "planicie": 1, "colinas": 2, "floresta": 2, "montanha": 2,
                  "pantano": 3}


SEED_E = {  # terrain: (forragear, cacar, pescar)
    "planicie": (2, 3, 1), "colinas": (2, 3, 1), "estepe": (3, 4, 4), "floresta": (5, 5, 5),
    "pantano": (5, 2, 4), "montanha": (1, 2, 2)}


SEED_G = {"planicie": -6, "colinas": -6, "estepe": -4, "floresta": 0, "pantano": 0,
          "montanha": -10}


SEED_F = {
    6: "Encontra comida, mas venenosa/doente. Quem a ingerir tem DESV pelo próximo dia.",
    7: "Sofre por carrapatos ou sanguessugas. 1 de dano por rodada até se livrar.",
    8: "Cai e torce o tornozelo. Sofre 2 de dano e 1/2 do movimento até ser curado.",
    9: "É emboscado por 1 predador (lobo, urso, pantera etc)",
    10: "O barulho atrai um encontro aleatório",
}


def _dice_count(row: object) -> int:
    """How many dice an encounter row's number appearing rolls (0: none)."""
    if not isinstance(row, dict):
        return 0
    return int(str(row["quantidade"]).split("d")[0] or 1)


# ---------------------------------------------------------------- forced march

def _march(play: Play) -> list:
    """One avançar. Past the free rounds the test comes first: the round opens (weather,
    encounter) and the advance (Tabela C, D) waits for the answers."""
    free = play.tables.get("viagem", "tabela_b", "rodadas_sem_penalidade")
    if play.state.travel.consecutive_advances >= free and play.state.party:
        return run(play, "avancar", *QUIET)
    return run(play, "avancar", *QUIET, 6, 5)


ADVANCE = (6, 5)  # the advance after the forced-march tests: Tabela C, Tabela D


def _forced(play: Play) -> None:
    start(play, party=(ana(),), terrain="estepe")
    for _ in range(3):
        _march(play)


def _forced_pair(play: Play, *party) -> None:
    """Three advances with this party: every character is asked the forced-march test."""
    start(play, party=party or (ana(), bia()), terrain="estepe")
    for _ in range(3):
        _march(play)


# ---------------------------------------------------------------- Forragear / Caçar / Pescar

ACTIVITIES = ["forragear", "cacar", "pescar"]


ANKLE = "Tornozelo torcido: 1/2 do movimento até ser curado"


def advance_text(events: list) -> str:
    (said,) = [e for e in events if e.kind == "relato" and "avança" in e.text]
    return said.text


# ---------------------------------------------------------------- property

COMMANDS = st.one_of(
    st.sampled_from([("avancar", {}), ("explorar", {}), ("forragear", {}), ("cacar", {}),
                     ("pescar", {}), ("criar_municao", {}), ("acampar", {}),
                     ("descansar", {}), ("clima", {}), ("encontro", {})]),
    st.tuples(st.sampled_from(["forragear", "cacar", "pescar", "criar_municao"]),
              st.fixed_dictionaries({"personagem": st.sampled_from(["Ana", "bia", "Zé"])})),
    st.tuples(st.just("terreno"), st.fixed_dictionaries(
        {"terreno": st.sampled_from(TERRAINS + ["Pântano", "deserto", ""])})),
    st.tuples(st.just("modo"), st.fixed_dictionaries(
        {"modo": st.sampled_from(["andando", "montado", "navegando", "voando"])})),
    st.tuples(st.just("estacao"), st.fixed_dictionaries(
        {"estacao": st.sampled_from(["primavera", "verão", "outono", "inverno", "x"])})),
    st.tuples(st.just("responder"), st.one_of(
        st.fixed_dictionaries({"valor": st.integers(-3, 25)}),
        st.fixed_dictionaries({"opcao": st.sampled_from(["descansar", "exaustao", "x"])}),
        st.just({}))),
)


SMALL = st.integers(0, 3)


# ---------------------------------------------------------------- forced march (Tabela B)

def _three_advances(play: Play) -> list:
    start(play, party=(ana(),), terrain="estepe")
    run(play, "avancar", *QUIET, 6, 5)
    run(play, "avancar", *QUIET, 6, 5)
    return run(play, "avancar", *QUIET)


# ---------------------------------------------------------------- a round a chase or dungeon fills (issue 26)

def _round_start_rolls(events: list) -> list[str]:
    return [e.data["tabela"] for e in events if e.kind == "rolagem"
            and e.data["tabela"] in ("Clima", "Encontro aleatório")]


def _travel_round_rolls(events: list) -> list[str]:
    """The rolls a travel round starts with: its weather drift and its encounter check (the
    travel one, by the day's region: not the dungeon's own check of the same name)."""
    return [e.data["tabela"] for e in events if e.kind == "rolagem"
            and (e.data["tabela"] == "Clima"
                 or (e.data["tabela"] == "Encontro aleatório" and "regiao" in e.data))]
