"""From a session's log entries to the typed Report (pure: no SQLite, no I/O)."""
from __future__ import annotations

import re
from typing import Any, Iterable, Mapping, Sequence

from companion.tables.weights import KEY as WEIGHT
from companion.engine.procedures.encounters import EncounterTables
from companion.engine.procedures.tally import TallyRules
from companion.engine.procedures.weather import WeatherRules
from companion.engine.characters import slug
from companion.engine.terrain import TerrainNames
from companion.report.report_model import (
    CharacterLine,
    ChaseLine,
    Count,
    DieCount,
    Encounter,
    FailedEscape,
    Place,
    RegionForm,
    Report,
    SupplyPoint,
    Utterance,
    WeatherPoint,
)
from companion.report.source import CODE, Campaign, Entry, SessionSpan
from companion.report.words import ReportLookups, ReportWords
from companion.tables.files import Tables

SUPPLIES = ("comida", "agua", "municao")
EventDict = dict[str, Any]


def _find(tables: Tables) -> ReportLookups:
    """What the report looks for in the log (tables/relatorio.yaml `procura`)."""
    return tables.piece(ReportWords).procura


def _live(entries: Sequence[Entry]) -> list[Entry]:
    """The entries whose command still counts (not undone)."""
    return [e for e in entries if not e.command.undone]


def _live_events(entries: Sequence[Entry]) -> Iterable[tuple[Entry, EventDict]]:
    for entry in _live(entries):
        for event in entry.events:
            yield entry, event


def region_of(view: Mapping[str, Any], tables: Tables) -> str:
    """Where the party was, as the form names it (the region — a terrain's default one is the
    terrain's name —, or the dungeon)."""
    if view.get("masmorra"):
        return tables.piece(TallyRules).regiao_masmorra
    return str(view.get("regiao_nome") or view.get("terreno_nome") or view.get("terreno") or "")


def _terrain_name(tables: Tables, region: Any, fallback: str) -> str:
    """A region's name by its id (a terrain's default region: the terrain's name), in the
    rules `tables` (those the roll ran under: a region renamed later keeps its old name)."""
    names = tables.piece(EncounterTables).names(tables.piece(TerrainNames).names())
    return names.get(str(region), fallback) if region else fallback


def _add(counts: dict[str, dict[str, int]], group: str, name: str, amount: int) -> None:
    """Add under group/name, merging names that differ only in case and accents."""
    inside = counts.setdefault(group, {})
    key = next((k for k in inside if slug(k) == slug(name)), name)
    inside[key] = inside.get(key, 0) + amount


# ---------------------------------------------------------------- the form

def forms(entries: Sequence[Entry], tables: Tables) -> tuple[RegionForm, ...]:
    """Per region: creatures defeated, treasure and items found (where the party was then)."""
    defeated: dict[str, dict[str, int]] = {}
    treasure: dict[str, dict[str, int]] = {}
    items: dict[str, dict[str, int]] = {}
    regions: list[str] = []
    for entry, event in _live_events(entries):
        data = event["data"]
        name, amount = None, data.get("quantidade")
        target: dict[str, dict[str, int]] | None = None
        if event["command"] == "derrotados" and "criatura" in data:
            name, target, region = data["criatura"], defeated, str(data.get("regiao", ""))
        elif event["command"] in ("tesouro", "item") and "tipo" in data:
            name = data["tipo"]
            target = treasure if event["command"] == "tesouro" else items
            region = region_of(entry.before, tables)
        if target is None or name is None or not isinstance(amount, int):
            continue
        region = next((r for r in regions if slug(r) == slug(region)), region)
        if region not in regions:
            regions.append(region)
        _add(target, region, str(name), amount)

    def counts(source: dict[str, dict[str, int]], region: str) -> tuple[Count, ...]:
        return tuple(Count(k, v) for k, v in source.get(region, {}).items())

    return tuple(RegionForm(r, counts(defeated, r), counts(treasure, r), counts(items, r))
                 for r in regions)


def _sides(kind: str) -> int | None:
    digits = kind.lower().lstrip("d")
    return int(digits) if digits.isdigit() and int(digits) > 0 else None


def dice(entries: Sequence[Entry]) -> tuple[DieCount, ...]:
    """Every die rolled, by type: the companion's rolls (`faces`, with how often each face came
    up) and the physical dice answered on prompts (`dados_fisicos`, counted; their faces are
    not all known, so they stay out of the face chart)."""
    rolled: dict[str, list[int]] = {}
    physical: dict[str, int] = {}
    for _entry, event in _live_events(entries):
        for kind, values in event["data"].get("faces", []) or []:
            rolled.setdefault(str(kind), []).extend(int(v) for v in values)
        for kind, count in (event["data"].get("dados_fisicos") or {}).items():
            physical[str(kind)] = physical.get(str(kind), 0) + int(count)
    out = []
    for kind in rolled.keys() | physical.keys():
        values = rolled.get(kind, [])
        sides = _sides(kind)
        faces = tuple(values.count(face) for face in range(1, sides + 1)) if sides else ()
        out.append(DieCount(kind, sides, len(values) + physical.get(kind, 0), faces,
                            physical.get(kind, 0)))
    return tuple(sorted(out, key=lambda d: (d.sides is None, d.sides or 0, d.kind)))


# ---------------------------------------------------------------- travel

def _is_round(data: Mapping[str, Any]) -> bool:
    return "dia" in data and "rodada" in data


def travel(entries: Sequence[Entry], tables: Tables) -> tuple[int, int, int, float,
                                                            tuple[Count, ...]]:
    """Days ended, travel rounds, dungeon turns, hexes crossed, rounds per terrain."""
    days = rounds = turns = 0
    hexes = 0.0
    terrains: dict[str, int] = {}
    advance = _find(tables).tabela_avanco
    for entry, event in _live_events(entries):
        data = event["data"]
        if _is_round(data):
            rounds += 1
            where = region_of(entry.before, tables)
            terrains[where] = terrains.get(where, 0) + 1
        elif set(data) - {WEIGHT} == {"dia"}:  # the day's end (its weight as news aside)
            days += 1
        elif "turno" in data and "descanso" in data:  # a turn, explored or rested
            turns += 1
        if data.get("tabela") == advance and isinstance(data.get("hexes"), (int, float)):
            hexes += float(data["hexes"])
    return days, rounds, turns, hexes, tuple(Count(k, v) for k, v in terrains.items())


def _weather_rolls(tables: Tables) -> frozenset[str]:
    """The rolls that set the weather's row outright (its total is the row): the session's
    initial weather and the GM's `clima` re-roll (tables/clima.yaml `inicial`, `de_novo`)."""
    rules = tables.piece(WeatherRules)
    return frozenset({rules.inicial.nome, rules.de_novo.nome})


def _weather_of(event: Mapping[str, Any], rolls: frozenset[str]) -> tuple[str, int] | None:
    """The weather an event set (its text, its row), or None: a round's drift said after
    its roll (`clima`, `linha`), or a roll that set the row outright (the total is the row)."""
    data = event["data"]
    if event["kind"] == "relato" and "clima" in data and isinstance(data.get("linha"), int):
        return str(data["clima"]), int(data["linha"])
    if event["kind"] == "rolagem" and data.get("tabela") in rolls \
            and isinstance(data.get("total"), int):
        return str(data.get("resultado", "")), int(data["total"])
    return None


def weather(entries: Sequence[Entry], tables: Tables
            ) -> tuple[tuple[WeatherPoint, ...], tuple[str, ...]]:
    """The weather after each roll (a round's drift, the initial weather, the GM's `clima`
    re-roll), with the day and round it was rolled in."""
    points: list[WeatherPoint] = []
    rows: dict[int, str] = {}
    for entry in _live(entries):
        rolls = _weather_rolls(entry.rules or tables)
        for event in entry.events:
            found = _weather_of(event, rolls)
            if found is None:
                continue
            rounds = [e["data"] for e in entry.events if _is_round(e["data"])]
            day = rounds[-1]["dia"] if rounds else entry.after.get("dia", 1)
            number = rounds[-1]["rodada"] if rounds else None
            points.append(WeatherPoint(int(day), number, *found))
            rows[found[1]] = found[0]
    return tuple(points), tuple(rows.get(i, "") for i in range(1, 7))


def _chance_hit(data: Mapping[str, Any]) -> bool:
    match = re.fullmatch(r"(\d+):(\d+)", str(data.get("chance", "")))
    return bool(match) and isinstance(data.get("total"), int) and \
        data["total"] <= int(match.group(1))


def encounters(entries: Sequence[Entry], tables: Tables) -> tuple[Encounter, ...]:
    """Each encounter as the viewer saw it: a roll on a region's encounter table (or a check
    that came up with none), and each dungeon arrival — its roll (the GM's), or the public
    warning of monsters in the party's room (what the players saw): one row per fact."""
    lookups = _find(tables)
    check, prefix = lookups.checagem_encontro, lookups.prefixo_encontros
    arrival, warning = lookups.chegada_masmorra, lookups.codigo_chegada
    nothing = tables.piece(ReportWords).label("encontro_sem_tabela")
    found: list[Encounter] = []
    for entry in _live(entries):
        rounds = [e["data"] for e in entry.events if _is_round(e["data"])]
        day = int(rounds[-1]["dia"] if rounds else entry.before.get("dia", 1))
        number = rounds[-1]["rodada"] if rounds else None
        here = region_of(entry.before, tables)
        waiting: Encounter | None = None
        rolled_arrival = False  # the GM saw the arrival's roll: its warning is the same fact
        for event in entry.events:
            data, name = event["data"], str(event["data"].get("tabela", ""))
            if event.get(CODE) == warning:
                if not rolled_arrival:
                    found.append(Encounter(day, number, here, str(event["text"])))
                rolled_arrival = False
                continue
            if event["kind"] != "rolagem":
                continue
            if name == arrival:
                found.append(Encounter(day, number, here, str(data.get("resultado", ""))))
                waiting, rolled_arrival = None, True
                continue
            if name == check and _chance_hit(data):
                if waiting:
                    found.append(waiting)
                where = _terrain_name(entry.rules or tables, data.get("regiao"), here)
                waiting = Encounter(day, number, where, nothing)
            elif name.startswith(prefix):
                where = _terrain_name(entry.rules or tables, data.get("regiao"), here)
                found.append(Encounter(day, number, where, str(data.get("resultado", ""))))
                waiting = None
        if waiting:
            found.append(waiting)
    return tuple(found)


def lights(entries: Sequence[Entry], tables: Tables) -> tuple[Count, ...]:
    """Light sources lit (a torch lit is a torch spent)."""
    names = _find(tables)
    lit: dict[str, int] = {}
    for _entry, event in _live_events(entries):
        data = event["data"]
        if event["command"] == "luz" and "luz" in data and "turnos" in data:
            key = str(data["luz"])
            lit[key] = lit.get(key, 0) + 1
    return tuple(Count(names.light_name(k, v), v) for k, v in lit.items())


# ---------------------------------------------------------------- the party

def _party(view: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {str(c["id"]): c for c in view.get("grupo", [])}


def supplies(start: Mapping[str, Any], entries: Sequence[Entry], start_label: str,
             end_label: str, day_label: str) -> tuple[SupplyPoint, ...]:
    """The party's food, water and ammunition at the start, at each day's end, at the end."""
    def point(label: str, view: Mapping[str, Any]) -> SupplyPoint:
        party = view.get("grupo", [])
        return SupplyPoint(label, *(sum(int(c.get(k, 0)) for c in party) for k in SUPPLIES))

    points = [point(start_label, start)] if start.get("grupo") else []
    for entry in _live(entries):
        for day in range(int(entry.before.get("dia", 1)), int(entry.after.get("dia", 1))):
            points.append(point(f"{day_label} {day}", entry.after))
    last = entries[-1].after if entries else start
    points.append(point(end_label, last))
    return tuple(points)


def characters(start: Mapping[str, Any], entries: Sequence[Entry],
               tables: Tables) -> tuple[CharacterLine, ...]:
    """Each character's HP, exhaustion, supplies spent, panic results and afflictions."""
    end = entries[-1].after if entries else start
    first, last = _party(start), _party(end)
    for entry in entries:  # a character made during the session starts as it was made
        for cid, made in _party(entry.after).items():
            first.setdefault(cid, made)
    spent: dict[str, list[int]] = {cid: [0, 0, 0] for cid in last}
    highest: dict[str, int] = {cid: int(c.get("exaustao", 0)) for cid, c in first.items()}
    for entry in _live(entries):
        before, after = _party(entry.before), _party(entry.after)
        for cid, now in after.items():
            was = before.get(cid)
            highest[cid] = max(highest.get(cid, 0), int(now.get("exaustao", 0)))
            if was is None:
                continue
            for index, key in enumerate(SUPPLIES):
                spent.setdefault(cid, [0, 0, 0])[index] += max(0, int(was.get(key, 0))
                                                               - int(now.get(key, 0)))
    panic_codes = set(_find(tables).codigos_panico)
    panic: dict[str, list[str]] = {}
    for _entry, event in _live_events(entries):
        data = event["data"]
        if event.get(CODE) in panic_codes and data.get("personagem"):
            panic.setdefault(str(data["personagem"]), []).append(event["text"])
    lines = []
    for cid, now in last.items():
        was = first.get(cid, now)
        lines.append(CharacterLine(
            name=str(now.get("nome", cid)),
            hp=(int(was.get("pv", 0)), int(now.get("pv", 0)), int(now.get("pv_max", 0))),
            exhaustion=(int(was.get("exaustao", 0)), int(now.get("exaustao", 0)),
                        highest.get(cid, 0)),
            spent=tuple(spent.get(cid, [0, 0, 0])),  # type: ignore[arg-type]
            left=tuple(int(now.get(k, 0)) for k in SUPPLIES),  # type: ignore[arg-type]
            panic=tuple(panic.get(cid, [])),
            afflictions=tuple(str(a) for a in now.get("aflicoes", [])),
            conditions=tuple(str(c) for c in now.get("condicoes", []))))
    return tuple(lines)


# ---------------------------------------------------------------- chases

def chases(start: Mapping[str, Any], entries: Sequence[Entry], tables: Tables
           ) -> tuple[tuple[ChaseLine, ...], tuple[FailedEscape, ...]]:
    """Each chase: where it started, how many chase turns, and how it ended (a chase the
    last session left running goes on in this one); apart, each declared flight whose escape
    test failed (no chase began: it is not one)."""
    out: list[ChaseLine] = []
    failed: list[FailedEscape] = []
    open_chase: dict[str, Any] | None = None
    running = start.get("perseguicao")
    if running:
        open_chase = {"day": int(start.get("dia", 1)), "where": region_of(start, tables),
                      "turns": int(running.get("turno", 0) or 0)}
    for entry, event in _live_events(entries):
        data = event["data"]
        if data.get("fuga") is False:
            failed.append(FailedEscape(int(entry.before.get("dia", 1)),
                                       region_of(entry.before, tables), event["text"]))
        elif data.get("fuga") is True:
            open_chase = {"day": int(entry.before.get("dia", 1)), "turns": 0,
                          "where": region_of(entry.before, tables)}
        elif open_chase is not None:
            if isinstance(data.get("turno"), int) and "placar" in data:
                open_chase["turns"] = max(open_chase["turns"], data["turno"])
            if isinstance(data.get("fim"), str):  # how it ended (a condition's end is True)
                out.append(ChaseLine(open_chase["day"], open_chase["where"],
                                     open_chase["turns"], event["text"]))
                open_chase = None
    if open_chase is not None:
        out.append(ChaseLine(open_chase["day"], open_chase["where"], open_chase["turns"],
                             tables.piece(ReportWords).label("em_jogo")))
    return tuple(out), tuple(failed)


# ---------------------------------------------------------------- voice, undo, log

def _number(value: Any) -> int | None:
    try:
        return int(value) if value is not None and str(value).strip() != "" else None
    except (TypeError, ValueError):
        return None


def _confidence(value: Any) -> float | None:
    try:
        return float(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def _first(row: Mapping[str, Any], *names: str) -> Any:
    """The first of these columns that the row has and is not empty."""
    return next((row[k] for k in names if row.get(k) not in (None, "")), None)


def utterances(campaign: Campaign, span: SessionSpan) -> tuple[Utterance, ...]:
    """The voice listener's utterances heard during this session, with undone marks."""
    undone = {c.n for c in campaign.commands if c.undone}
    ends = span.ended or "9999"
    out = []
    for row in campaign.utterances:
        at = str(row.get("at") or "")
        n = _number(_first(row, "n", "command_n"))
        inside = span.first <= n <= span.last if n is not None else span.started <= at < ends
        if not inside and not (n is None and not at and span.ended is None):
            continue
        accepted = row.get("accepted")
        out.append(Utterance(
            at=at, text=str(_first(row, "text", "heard") or ""),
            confidence=_confidence(row.get("confidence")),
            accepted=None if accepted is None else bool(accepted),
            command=str(_first(row, "command", "command_name", "name", "command_text") or ""),
            n=n,
            undone=n in undone, reason=str(row.get("reason") or "")))
    return tuple(out)


def gm_notes(end: Mapping[str, Any], entries: Sequence[Entry]) -> dict[str, Any]:
    """Lost or not and the monster list as the session left them; this session's secret rolls."""
    notes = end.get("mestre") or {}
    secrets = [event["text"] for entry, event in _live_events(entries)
               if entry.command.name == "segredo" and event["kind"] == "rolagem"]
    return {"perdido": bool(notes.get("perdido")), "monstros": list(notes.get("monstros", [])),
            "segredos": secrets}


def _place(view: Mapping[str, Any], tables: Tables) -> Place:
    return Place(int(view.get("dia", 1)), str(view.get("relogio", "")), region_of(view, tables))


def build(campaign: Campaign, span: SessionSpan, start: Mapping[str, Any],
          entries: Sequence[Entry], tables: Tables, viewer: str = "gm",
          viewer_name: str | None = None) -> Report:
    """The report of one session as `viewer` may see it."""
    words = tables.piece(ReportWords)
    end = entries[-1].after if entries else start
    days, rounds, turns, hexes, terrains = travel(entries, tables)
    points, rows = weather(entries, tables)
    chased, failed = chases(start, entries, tables)
    gm = viewer == "gm"
    log = tuple({**event, "texto_comando": entry.command.text, "desfeito": entry.command.undone}
                for entry in entries for event in entry.events)
    return Report(
        span=span, viewer=viewer, viewer_name=viewer_name,
        start=_place(start, tables), end=_place(end, tables),
        forms=forms(entries, tables), dice=dice(entries),
        days_ended=days, rounds=rounds, dungeon_turns=turns, hexes=hexes, terrains=terrains,
        weather=points, weather_rows=rows, encounters=encounters(entries, tables),
        lights=lights(entries, tables),
        supplies=supplies(start, entries, words.label("inicio"), words.label("fim"),
                          words.label("dia")),
        characters=characters(start, entries, tables), chases=chased, failed_escapes=failed,
        utterances=utterances(campaign, span) if gm else (),
        undone=tuple((e.command.n, e.command.text) for e in entries
                     if e.command.undone) if gm else (),
        gm_notes=gm_notes(end, entries) if gm else {}, log=log)
