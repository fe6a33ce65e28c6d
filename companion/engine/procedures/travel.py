"""The travel round (tables/viagem.yaml `rodada`): rounds of 4 h, the party's activities in
them, the end of the day, and the travel settings (`estacao`, `terreno`, `modo`).

Each character does one activity per round. Rounds sit on the day's grid (0h–4h, 4h–8h…):
after time spent off it (a dungeon, a chase) the next round starts at the next boundary, the
rest of the round passing first (rounds.on_the_grid). A chase or a dungeon that starts at the start
of a round opens it first (`round_before_leaving`: its weather and encounter check, once), and
a round that begins while the party is still there (dungeon turns, chase turns, the dungeon
sleep) opens when the clock reaches it (`rounds.round_begun_away`); the round stays open until
its end, so who has not acted keeps their activity for what is left. A round starts, in order, with the weather drift
(weather.py) and the encounter check (encounters.py, by the terrain where the party started the
day). A named activity ("caçar Ana") is that character's one activity of the round: the first
one opens the round, a second one for the same character is refused, and when everyone has
acted the round closes by itself (clock +4 h). A group activity (no character named) is the
activity of everyone who has not acted yet, and closes the round; `avancar` (advance.py) moves
the whole party, so it is refused once someone did another activity this round. After the last
round of the day the day ends (`end_of_day`, the clock's day-ended hook).

Forced march (Tabela B, forced_march.py): "o personagem deve descansar por 2 rodadas antes de
realizar qualquer outra atividade", read literally: THAT character rests, not the group. While
a character owes rest rounds (`rest_rounds_owed`), every travel round that passes (whatever the
group does) pays one round for them: they sit it out and take no part in the group's activity
(no share of a harvest, no ammunition made, never Tabela F's victim); the travel rest itself
they share. An activity named for them is refused, and so is `avancar`: leaving the hex waits
for them (or the GM releases them with `cancelar Nome`, prompts.py). Only they sit out: when a
failed test makes the round's advance wait (advance.py), the round stays open and everyone
else still does their activity in it; it closes when all who may act have acted.

Prompts that hold the group (comandos.yaml `pedidos_que_seguram`: the forced-march test and the
choice after a failure, the rest's CON tests, Tabela H's DEX test): while one waits, no group
activity runs (prompting.require_group_free), and an activity named for its character neither.

The clock itself lives in clock.py (time passes the same way in the dungeon and in a chase):
any time that is not an advance round breaks the run of advances (Tabela B). A safe camp
(Levantar Acampamento) lasts until the party rests or moves on (advances, enters a dungeon),
across midnight: camping in the day's last round protects the rest in the next day's first.
The day without rest still costs its exhaustion (`end_of_day`); when the clock reaches the
day's last round and the party has not rested that day, the GM is told (`warn_last_round`).

Rules: the typed pieces below (and in advance.py, forced_march.py, encounters.py,
foraging.py); texts and refusals: tables/narracao/viagem.yaml.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping, get_args

from companion.engine.clock import MINUTES_PER_DAY, day_of, pass_time
from companion.engine.procedures import panic, rest
from companion.engine.procedures.rounds import (  # noqa: F401 (round_of, round_before_leaving: re-exported)
    open_round as _open_round,
    round_before_leaving,
    round_minutes as _round_minutes,
    round_of,
)
from companion.engine.procedures.conditions import TravelRound
from companion.engine.procedures.encounters import EncounterTables, encounter_visibility, \
    in_region, region_name
from companion.engine.procedures.weather import WeatherRules, roll_initial_weather
from companion.engine.model import GM, PUBLIC, State, TravelMode, set_travel
from companion.engine.characters import exhaust_party, find_character, slug, update_character
from companion.engine.handlers import command
from companion.engine.prompting import require_group_free
from companion.engine.rows import pick_row
from companion.engine.scratch import Scratch, arg
from companion.engine.terrain import TerrainNames, group_for, terrain_name
from companion.engine.validators import require_chance, require_dice
from companion.tables.protocol import spoken_name
from companion.tables.errors import CommandRejected
from companion.tables.narration import Narrator
from companion.tables.rulebook import InvalidValue, piece
from companion.tables.weights import Weight


@dataclass(frozen=True)
class EventsColumn:
    nome: str
    terrenos: tuple[str, ...]
    linhas: Mapping[int | str, str]


@piece("viagem", "tabela_d")
@dataclass(frozen=True)
class EventsTable:
    """tables/viagem.yaml `tabela_d` (Tabela D: Eventos): a column per terrain group; 1d6 when
    advancing, 1d8 when exploring."""

    nome: str
    dados_avancar: str
    dados_explorar: str
    colunas: tuple[EventsColumn, ...]

    def validate(self) -> None:
        require_dice("dados_avancar", self.dados_avancar)
        require_dice("dados_explorar", self.dados_explorar)

    def dice(self, key: str) -> str:
        return {"dados_avancar": self.dados_avancar, "dados_explorar": self.dados_explorar}[key]

    def column(self, terrain: str, narration: Narrator) -> EventsColumn:
        return group_for(self.colunas, terrain, "viagem", "tabela_d.colunas", narration)


@piece("viagem", "acampamento")
@dataclass(frozen=True)
class Camp:
    """tables/viagem.yaml `acampamento` (Levantar Acampamento): X-in-6 of a safe camp."""

    nome: str
    chance: int
    sim: str
    nao: str

    def validate(self) -> None:
        require_chance("chance", self.chance)




@piece("viagem", "modos")
@dataclass(frozen=True)
class TravelModes:
    """tables/viagem.yaml `modos`: how each travel mode is named (Tabela A)."""

    andando: str
    montado: str
    navegando: str

    def name(self, mode: str) -> str:
        return str(getattr(self, mode))


@piece("viagem", "tabela_a")
@dataclass(frozen=True)
class AdvanceTable:
    """tables/viagem.yaml `tabela_a`: hexes per round of advance, by travel mode."""

    nome: str
    hexes: Mapping[str, float | int]

    def validate(self) -> None:
        missing = [mode for mode in get_args(TravelMode) if mode not in self.hexes]
        if missing:
            raise InvalidValue("hexes", "validacao.hexes_para_cada_modo", {"falta": missing[0]})


Activity = Callable[[State, Scratch, bool], State]  # (state, scratch, encounter this round)


# ---------------------------------------------------------------- rounds of the day

def run_round(state: State, scratch: Scratch, activity: Activity, *,
              advancing: bool = False, close: bool = True) -> State:
    """A group activity: the activity of everyone who has not acted yet this round, then the
    round closes (+4 h). A fresh round first rolls its weather and encounter check. Characters
    owing forced-march rest sit the round out (see the module docstring)."""
    _require_no_chase(state, scratch)
    require_group_free(state, scratch)
    if advancing:
        require_rested(state, scratch, tuple(c.id for c in state.party))
    if state.travel.round_open:  # someone acted, or the advance waited for who rests
        _require_whole_group(state, scratch, advancing)
        encounter = state.travel.round_encounter
        doing = participants(state)
        names = [find_character(state, c).name for c in doing]
        scratch.tell("viagem.atividade_do_grupo", participantes=list(doing),
                     atividade=scratch.command.name,
                     words={"nomes": names, "nome_atividade": _activity_name(scratch),
                            "feitos": _acted(state, scratch)})
    else:
        state, encounter = _open_round(state, scratch)
    state = activity(state, scratch, encounter)
    return close_round(state, scratch, advancing=advancing) if close else state


def _require_no_chase(state: State, scratch: Scratch) -> None:
    if state.chase is not None:
        raise CommandRejected.because("viagem.durante_fuga",
                                      atividade=spoken_name(scratch.tables,
                                                            scratch.command.name))


def close_round(state: State, scratch: Scratch, advancing: bool = False) -> State:
    """The round ends: the clock goes to its end (4 h after its start; less when a chase or a
    dungeon spent part of it)."""
    state = _sit_out(state, scratch)
    length = _round_minutes(scratch)
    return pass_time(state, scratch, length - state.minutes % length, advancing=advancing)


def _activity_name(scratch: Scratch) -> str:
    """How people say the activity: 'caçar', 'criar munição', 'explorar'."""
    return spoken_name(scratch.tables, scratch.command.name)


def _acted(state: State, scratch: Scratch) -> list[dict[str, str]]:
    """Who already acted this round and how people say what they did (for the texts:
    'já agiu nesta rodada: Ana (caçar)')."""
    names = {c.id: c.name for c in state.party}
    return [{"nome": names.get(who, who), "atividade": spoken_name(scratch.tables, what)}
            for who, what in state.travel.acted]


def _require_whole_group(state: State, scratch: Scratch, advancing: bool) -> None:
    """Advancing moves the whole party: not in a round where someone already did another
    activity, nor in the round whose advance waited for who rests off a forced march."""
    if not advancing or not (state.travel.acted or state.travel.advance_waited):
        return
    waiting = [find_character(state, c).name for c in participants(state)]
    raise CommandRejected.because("viagem.grupo_todo", atividade=_activity_name(scratch),
                                  feitos=_acted(state, scratch), faltam=waiting)


def named_activity(state: State, scratch: Scratch, character_id: str,
                   do: Callable[[State, Scratch, tuple[str, ...]], State]) -> State:
    """One character's activity of the round ("caçar Ana"): it opens the round when it is the
    first (weather, encounter check), counts as that character's one activity, and closes the
    round when everyone has acted. A second activity in the same round is refused."""
    _require_no_chase(state, scratch)
    character = find_character(state, character_id)
    done = dict(state.travel.acted).get(character.id)
    if done is not None:
        waiting = [find_character(state, c).name for c in participants(state)]
        raise CommandRejected.because("viagem.ja_agiu", nome=character.name,
                                      atividade=spoken_name(scratch.tables, done),
                                      faltam=waiting)
    if not state.travel.round_open:
        state, _ = _open_round(state, scratch)
    state = do(state, scratch, (character.id,))
    state = set_travel(state, acted=state.travel.acted + ((character.id, scratch.command.name),))
    waiting = [find_character(state, c).name for c in participants(state)]
    words = {"nome": character.name, "nome_atividade": _activity_name(scratch)}
    if waiting:
        scratch.tell("viagem.agiu", personagem=character.id, atividade=scratch.command.name,
                     faltam=list(participants(state)), words={**words, "nomes": waiting})
        return state
    scratch.tell("viagem.todos_agiram", personagem=character.id,
                 atividade=scratch.command.name, faltam=[], words=words)
    return close_round(state, scratch)


def participants(state: State) -> tuple[str, ...]:
    """Who takes part in the group's activity: everyone who has not acted yet this round and
    is not resting off a forced march."""
    acted = {who for who, _ in state.travel.acted}
    return tuple(c.id for c in state.party if c.rest_rounds_owed <= 0 and c.id not in acted)


def _sit_out(state: State, scratch: Scratch) -> State:
    """Forced-march debt: every travel round pays one round for everyone who owes rest."""
    for character in state.party:
        if character.rest_rounds_owed > 0:
            rested = replace(character, rest_rounds_owed=character.rest_rounds_owed - 1)
            scratch.tell("viagem.descansa_pela_marcha", personagem=character.id,
                         descanso_devido=rested.rest_rounds_owed,
                         words={"nome": character.name})
            state = update_character(state, rested)
    return state


def require_rested(state: State, scratch: Scratch, who: tuple[str, ...]) -> None:
    """Refuse while any of `who` still owes forced-march rest rounds."""
    owing = [c for c in state.party if c.id in who and c.rest_rounds_owed > 0]
    if not owing:
        return
    raise CommandRejected.because(
        "viagem.descansando", grupo=scratch.command.args.get("personagem") is None,
        devedores=[{"nome": c.name, "rodadas": c.rest_rounds_owed} for c in owing])


# ---------------------------------------------------------------- the end of the day

def end_of_day(state: State, scratch: Scratch, day: int) -> State:
    """No rest today → exhaustion for everyone; Tabela I daily harm; the new day's region.

    Called by clock.pass_time at each midnight; a safe camp outlasts it (it ends when the
    party rests or moves on)."""
    if not state.travel.rested_today:
        state = _day_without_rest(state, scratch)
    state = panic.exhaustion_day(state, scratch)
    travel = state.travel
    scratch.tell("viagem.fim_do_dia", dia=day_of(state),
                 words={"fim": day, "terreno": region_name(scratch, travel.region
                                                           or travel.terrain),
                        "em_regiao": in_region(scratch, travel.region or travel.terrain)})
    return set_travel(state, day_start_terrain=travel.terrain,
                      day_start_region=travel.region, rested_today=False)


def warn_last_round(state: State, scratch: Scratch, rounds: int) -> State:
    """When the clock has just reached the day's last travel round and the party has not
    rested that day, tell the GM: at midnight the day without rest costs its exhaustion.
    A reminder for the GM's bookkeeping (like the end of a dungeon turn), so GM-only: the GM
    decides what to say to the table. Called by clock.pass_time (rounds ended)."""
    if rounds < 1 or not restless_last_round(state, scratch):
        return state
    scratch.tell("viagem.sem_descanso_hoje", GM, kind="aviso", **restless_words(state, scratch))
    return state


def restless_last_round(state: State, scratch: Scratch) -> bool:
    """The clock is in the day's last travel round and the party has not rested that day:
    at midnight the day without rest costs its exhaustion."""
    rules = scratch.piece(TravelRound)
    return bool(state.party) and not state.travel.rested_today \
        and round_of(state, rules.minutos) == rules.rodadas_por_dia


def restless_words(state: State, scratch: Scratch) -> dict[str, int]:
    """The words of `viagem.sem_descanso_hoje`: the day, and the exhaustion it will cost."""
    return {"dia": day_of(state), "pontos": scratch.piece(rest.RestRules).dia_sem_descanso}


def acted_this_round(state: State, scratch: Scratch) -> list[dict[str, str]]:
    """Who already did their activity in the travel round under way: id, name and how people
    say the activity ('caçar')."""
    names = {c.id: c.name for c in state.party}
    return [{"id": who, "nome": names.get(who, who), "atividade": spoken_name(scratch.tables, what)}
            for who, what in state.travel.acted]


def _day_without_rest(state: State, scratch: Scratch) -> State:
    gain = scratch.piece(rest.RestRules).dia_sem_descanso
    state, levels = exhaust_party(state, gain)
    if state.party:
        scratch.tell("viagem.dia_sem_descanso", weight=Weight.HARM, kind="aviso",
                     words={"pontos": gain, "niveis": levels})
    return state


# ---------------------------------------------------------------- Explorar (and Tabela D)

def events_roll(state: State, scratch: Scratch, dice_key: str) -> None:
    """Tabela D, column by the current terrain: 1d6 when advancing, 1d8 when exploring."""
    spec = scratch.piece(EventsTable)
    column = spec.column(state.travel.terrain, scratch.tables.narration)
    scratch.roll(spec.dice(dice_key), spec.nome, coluna=column.nome,
                 describe=lambda total: str(pick_row(column.linhas, total)))


@command("explorar")
def explore(state: State, scratch: Scratch) -> State:
    return run_round(state, scratch, _explore)


def _explore(state: State, scratch: Scratch, encounter: bool) -> State:
    scratch.tell("viagem.explora")
    events_roll(state, scratch, "dados_explorar")
    return state


# ---------------------------------------------------------------- Acampar / Descansar

@command("acampar")
def make_camp(state: State, scratch: Scratch) -> State:
    return run_round(state, scratch, _camp)


def _camp(state: State, scratch: Scratch, encounter: bool) -> State:
    spec = scratch.piece(Camp)
    safe = scratch.chance(spec.chance, spec.nome, spec.sim, spec.nao)
    scratch.tell("viagem.acampamento", seguro=safe)
    return set_travel(state, camp_safe=safe)


def travel_rest(state: State, scratch: Scratch) -> State:
    """`descansar` (and `dormir`) while travelling: the party sleeps (one round). In a dungeon
    the registry sends them to the dungeon's rest turn and sleep instead."""
    return run_round(state, scratch, _rest)


def _rest(state: State, scratch: Scratch, encounter: bool) -> State:
    """An encounter this round interrupts the rest (one CON test each)."""
    acted = {who for who, _ in state.travel.acted}
    return rest.rest_party(state, scratch, scratch.piece(rest.TravelMishaps),
                           interruptions=1 if encounter else 0,
                           secret=encounter_visibility(scratch) != PUBLIC,
                           who=tuple(c.id for c in state.party if c.id not in acted))


# ---------------------------------------------------------------- settings

def _choose(value: Any, options: Mapping[str, str], refusal: CommandRejected) -> str:
    """The canonical key for what was said (accents and case ignored), else `refusal` (built by
    the caller with its literal code, so the narration check can see it)."""
    said = slug(str(value or "")).replace("-", " ")
    for key, name in options.items():
        if said in (slug(key).replace("-", " "), slug(name).replace("-", " ")):
            return key
    raise refusal


@command("estacao")
def set_season(state: State, scratch: Scratch) -> State:
    seasons = {key: column.nome for key, column in scratch.piece(WeatherRules).estacoes.items()}
    said = arg(scratch, "estacao")
    season = _choose(said, seasons, CommandRejected.because(
        "viagem.estacao_desconhecida", valor=said or "",
        aceitos=[name.lower() for name in seasons.values()]))
    scratch.tell("viagem.estacao", estacao=season,
                 words={"nome": scratch.piece(WeatherRules).estacoes[season].nome})
    return roll_initial_weather(set_travel(state, season=season), scratch)


@command("terreno")
def set_terrain(state: State, scratch: Scratch) -> State:
    """The current hex. Before the day's first round it is also where the day started."""
    names = scratch.piece(TerrainNames).names()
    said = arg(scratch, "terreno")
    terrain = _choose(said, names, CommandRejected.because(
        "viagem.terreno_desconhecido", valor=said or "",
        aceitos=[name.lower() for name in names.values()]))
    scratch.tell("viagem.terreno", terreno=terrain,
                 words={"nome": scratch.piece(TerrainNames).names()[terrain]})
    return _move(state, terrain, None)


def _move(state: State, terrain: str, region: str | None) -> State:
    """The party in a region (None: the terrain's default one). Before the day's first round
    it is also where the day started."""
    changes: dict[str, Any] = {"terrain": terrain, "region": region}
    if state.minutes % MINUTES_PER_DAY == 0:
        changes.update(day_start_terrain=terrain, day_start_region=region)
    return set_travel(state, **changes)


@command("regiao")
def set_region(state: State, scratch: Scratch) -> State:
    """A region the GM named (tables/encontros.yaml `regioes`, with the campaign's own): the
    party is there, in its terrain; a terrain's default region by its name too."""
    regions = scratch.piece(EncounterTables)
    names = regions.names(scratch.piece(TerrainNames).names())
    said = arg(scratch, "regiao")
    key = _choose(said, names, CommandRejected.because(
        "viagem.regiao_desconhecida", valor=said or "", aceitos=list(names.values())))
    terrain = regions.regioes[key].terreno_de(key)
    scratch.tell("viagem.regiao", regiao=key, terreno=terrain,
                 words={"nome": names[key], "terreno_nome": terrain_name(scratch, terrain),
                        "em_regiao": in_region(scratch, key)})
    return _move(state, terrain, None if key == terrain else key)


@command("modo")
def set_mode(state: State, scratch: Scratch) -> State:
    modes = {mode: scratch.piece(TravelModes).name(mode) for mode in get_args(TravelMode)}
    said = arg(scratch, "modo")
    mode = _choose(said, modes, CommandRejected.because(
        "viagem.modo_desconhecido", valor=said or "", aceitos=list(modes)))
    hexes = float(scratch.piece(AdvanceTable).hexes[mode])
    scratch.tell("viagem.modo", modo=mode,
                 words={"nome": scratch.piece(TravelModes).name(mode), "hexes": hexes})
    return set_travel(state, mode=mode)
