"""Helpers shared by the test_history test modules."""
from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any


from companion.history import replay
from companion.report.source import entries, find_session, open_campaign
from companion.session import RunResult
from companion.tables.files import Tables

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GOLDEN_SCRIPTS = sorted((Path(__file__).resolve().parents[1] / "golden" / "scripts").glob("*.txt"))
VIEWERS = ("gm", "player:ana", "player:bia")


def ok(result: RunResult) -> list[dict]:
    assert result.ok, result.error
    return result.events


def facts(view: dict[str, Any]) -> dict[str, Any]:
    """What a GM checks of a view: day, round, clock, each character's exhaustion and
    supplies, the dungeon (its monsters, for the GM) and the chase."""
    return {"dia": view["dia"], "rodada": view["rodada"], "relogio": view["relogio"],
            "grupo": [(c["nome"], c["exaustao"], c["comida"], c["agua"], c["pv"])
                      for c in view["grupo"]],
            "masmorra": view["masmorra"], "perseguicao": view["perseguicao"],
            "mestre": view.get("mestre")}


def report_end(db: Path, tables: Tables, viewer: str) -> dict[str, Any]:
    """The view the report shows after the last command of the last session."""
    campaign = open_campaign(db, tables)
    start, found = entries(campaign, find_session(campaign, None), tables, viewer)
    return found[-1].after if found else start


TEXTS = ["personagem Ana con 1", "personagem Bia des 2", "terreno floresta", "avançar",
         "explorar", "forragear", "caçar Ana", "acampar", "descansar", "rolar 2d6",
         "masmorra", "acender tocha", "turno", "monstro Ogro na sala 2", "viagem",
         "segredo ouvir", "derrotados 2 goblins", "desfazer", "desfazer", "estado",
         "encerrar sessão", "pânico Ana", "fugir", "fuga sucesso", "clima"]


# ---------------------------------------------------------------------- undo is not a re-roll

def rolls(events: list[dict]) -> list[dict]:
    """The dice of a command's events (what a re-roll would change)."""
    return [{k: v for k, v in e["data"].items() if k in ("tabela", "dados", "total",
                                                          "resultado", "faces")}
            for e in events if e["kind"] == "rolagem"]


# ---------------------------------------------------------------------- the release before

# The fixture's commands that today's rules read differently from the release that wrote it
# (docs/regras.md changed since): replayed, their events differ, and the migration tells the GM the
# first one in one line. Each entry says which rule change explains it; nothing else may differ.
READ_DIFFERENTLY_TODAY = {
    4: "issue 17, 8: Bruno joined by name first; the GM's 'personagem Bruno … sanidade 5' is his "
       "sheet's creation, so 5 is his own Sanity too (sanidade_max 5, not 10)",
    17: "issue 17, 3: a character's own Tabela E roll names them (personagem)",
    26: "issue 17, 3: the group hunt is one Tabela E roll per character (Ana fails, Tabela F "
        "for her; Bruno succeeds and gains his yield)",
    41: "issue 17, 8: so his rest did not bring his Sanity to 6: the panic test passes with 5",
    42: "issue 17, 8: and Tabela J is read at Sanity 5 (the same row, Fúria); issue 17, 6: a "
        "panic's effect is its player's and the GM's (tables/panico.yaml visibilidade)",
    32: "issue 17, 1: the clock reaches the day's last round with no rest that day: the GM is "
        "told (a new GM-only warning)",
    49: "issue 17, 3: the closed session's tally counts Bruno's hunting die",
    33: "issue 26, 3: the dungeon entered at the start of round 6 (20h00) opens that round "
        "first: its weather roll and encounter check, once",
    46: "issue 26, 7: Bruno's Fúria (42) stays on his sheet with its rolled rounds until time "
        "passes: the first chase turn ends it, and his player and the GM are told",
    50: "issue 26, 3: back from the chase at 20h50, the advance is round 6's (the round the "
        "dungeon and the chase began, whose rolls were made at 20h00); it ends at 0h00 (the "
        "day ends); the next advance (51) is day 3's round 1 (0h–4h), as before",
    52: "issue 26, 3: so the session's tally counts the dice of those rounds as rolled today",
    23: "issue 17, 12: a character's own roll (Bruno's and Ana's hit dice) says who rolled "
        "(quem)",
    43: "issue 17, 14: declaring flight tells the players the fact; how to say the escape "
        "test's result ('fuga sucesso'…) is a new GM-only event",
    15: "issue 19: 'estado' shows the region too (regiao, regiao_nome: a terrain's default "
        "region is the terrain)",
}
# Events of the fixture whose facts today's rules keep but whose words they change: the
# migration fills their narration from today's replay (the stored text, which people see,
# stays the table's).
WORDED_DIFFERENTLY_TODAY = {
    81: "issue 26, 12: the new day starts 'nas Colinas' (the region's own preposition), the "
        "table saw 'em Colinas'",
    73: "issue 17, 8: Bruno's rest (command 23) recovers no Sanity today (his own is 5): its "
        "words say sanidade 5, the table saw 6",
    155: "issue 31, 6: the seed's 'Sucesso: A distância…' is said with no capital after the "
         "colon today; the table saw the capital (its text stays stored)",
    5: "issue 31, 6: a sheet's change says an attribute's modifier with its sign ('CON +1'): "
       "its words mark which values are modifiers",
    **{seq: "issue 31, 6: an answer says what the prompt asked ('teste de pânico'), not its "
            "number: its words carry the prompt's name" for seq in (33, 35, 39, 44, 117, 119)},
    140: "issue 31, 6: 'Derrotados: … na Floresta', the region with its own preposition "
         "(words na_regiao); the table saw 'em Floresta'",
}
# What those commands change in the views the fixture showed: (character id, field) → today's
# value, in every view that shows the character; nothing else may differ.
PARTY_TODAY = {
    ("bruno", "comida"): 7,  # 26: Bruno's own hunt succeeded (+2 food)
    ("bruno", "sanidade"): 5,  # 4: his own Sanity is 5: resting does not raise it to 6
}
# ... and the clock (50, 51): round 6 of day 2 and day 3's round 1 end at 4h00 of day 3, not
# at 4h50; the second session's tally (52) counts the d6 those two advances rolled today.
CLOCK_TODAY = {"minutos": 2 * 24 * 60 + 4 * 60, "hora": "4h00", "rodada": 2,
               "relogio": "Dia 3 · rodada 2 de 6 (4h–8h)"}
TALLY_TODAY = {"d6": 4}


def shown_today(view: dict[str, Any]) -> dict[str, Any]:
    """A view the fixture showed, with the changes today's rules explain (PARTY_TODAY,
    CLOCK_TODAY, the region a terrain's default one)."""
    today = {**json.loads(json.dumps(view)), **CLOCK_TODAY}
    if "dados" in today.get("registro", {}):
        today["registro"] = {**today["registro"], "dados": TALLY_TODAY}
    if "terreno" in today and "regiao" not in today:  # the view names the region (issue 19):
        today["regiao"], today["regiao_nome"] = today["terreno"], today["terreno_nome"]
    if "viagem" in today:  # who already acted this round (issue 26): nobody, in the fixture's
        today["viagem"] = {**today["viagem"], "agiram": []}
    if "mestre" in today:  # the GM's standing "no rest today" warning (issue 26): none then
        today["mestre"] = {**today["mestre"], "sem_descanso_hoje": None}
    for character in today.get("grupo", []):
        for (who, field), value in PARTY_TODAY.items():
            if character.get("id") == who and field in character:
                character[field] = value
    return today


def rekeyed(opening: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An old campaign (a small seed, from before secrets) opened without --seed tells the GM,
    last, that its dice now come from a secret; what it told before that."""
    *before, told = opening
    assert told["visibility"] == "gm" and told["command"] == replay.HISTORY_NOTICE
    assert "chave secreta nova" in told["text"], told["text"]
    return before


def told_differences(opening: list[dict[str, Any]],
                     differing: set[int] | None = None) -> None:
    """The opening tells the GM, GM-only: where the copy of the file before the update is, the
    first command read differently today, then each such command (number, then and now)."""
    differing = set(READ_DIFFERENTLY_TODAY) if differing is None else differing
    copy, *opening = rekeyed(opening)
    assert copy["visibility"] == "gm" and ".antes-de-" in copy["text"], copy["text"]
    if not differing:
        assert opening == []  # nothing differed: nothing to tell
        return
    summary, *each = opening
    assert all(told["visibility"] == "gm" and told["command"] == replay.HISTORY_NOTICE
               for told in opening)
    assert f"comando {min(differing)} " in summary["text"], summary["text"]
    assert [told["text"].split(" ", 2)[1] for told in each] == [
        str(n) for n in sorted(differing)], [told["text"] for told in each]
    assert all("Disse então:" in told["text"] and "Diria hoje:" in told["text"]
               for told in each)


def restore(sql: Path, db: Path) -> Path:
    connection = sqlite3.connect(db)
    connection.executescript(sql.read_text(encoding="utf-8"))
    connection.close()
    return db


# ---------------------------------------------------------------------- read only, verificar

def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---------------------------------------------------------------------- found in review

def damage(db: Path, n: int) -> None:
    raw = sqlite3.connect(db)
    raw.execute("UPDATE states SET state = x'00ff' WHERE n = ?", (n,))
    raw.commit()
    raw.close()
