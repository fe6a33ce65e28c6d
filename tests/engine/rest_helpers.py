"""Helpers shared by the test_rest test modules."""
from __future__ import annotations



from companion.engine import Command, State
from companion.engine.procedures import dungeon as dungeon_module
from companion.engine.scratch import Scratch
from companion.engine.model import Character, Dungeon, Travel
from companion.engine.procedures.rest import rest_party
from companion.tables.files import Tables
from tests.play_helpers import FixedDice, Play
from tests.engine.travel_helpers import ana, bia, camp, fed, run

H = "Tabela H: Percalços"
SEED_H = {
    5: "Um personagem perde 1 item aleatório.",
    6: "Comida devorada por animais. Perca 1d4 rações entre o grupo.",
    7: "Ataque de mosquitos/insetos hematófagos. DESV nas próximas duas rodadas.",
    8: "Lenha molhada, a fogueira apaga. Vigia faz teste de pânico. Role 1d6. 3:6 | "
       "Encontro Aleatório.",
    9: "O fogo espalhou. Teste de DES DC 12 ou perde 1 item aleatório.",
    10: "Roedores/pestes infestam. Doença.",
}


# ---------------------------------------------------------------- interruptions

def _interrupted(play: Play) -> None:
    """An encounter in the rest round itself interrupts the rest (the GM reveals it)."""
    camp(play, fed(ana(hp=1, exhaustion=1)), fed(bia(hp=1)), safe=True)
    run(play, "descansar", 3, 1, 4)  # weather, encounter (estepe 1:6), encounter table row 4
    run(play, "responder", opcao="sim")


def _dungeon_rest(tables: Tables, *faces: int, party: tuple[Character, ...]):
    state = State(dungeon=Dungeon(active=True), party=party,
                  travel=Travel(camp_safe=True))
    dice = FixedDice(*faces)
    scratch = Scratch(rng=dice, tables=tables, command=Command("dormir"))
    state = rest_party(state, scratch, tables.piece(dungeon_module.DungeonRules).tabela_b)
    assert dice.faces == []
    return state, scratch.events
