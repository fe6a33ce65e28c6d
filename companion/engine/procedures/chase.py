"""The chase (tables/perseguicao.yaml: flight, the escape tests, distance and the
ranged check).

`fugir` declares flight during a combat round; at the end of that round the escape test (`fuga`)
decides whether the chase starts. During the chase each escape test is one 10-minute turn that
moves ONE signed score (+1 Ponto de Fuga, −1 Ponto de Perigo); the distance is derived from it.
The test's difficulty is always the GM's: `fuga sucesso|falha` or `fuga dc N` (a prompt for the
rolling character, or a public d20 when there is no party). Numbers and the seed's sentences
come from tables/perseguicao.yaml (the ChaseRules piece, including the score → distance
thresholds `distancia_pelo_placar`); the texts people read from tables/narracao/perseguicao.yaml.

The sides' speeds (`velocidade`), said when flight is declared or during the chase, are kept
until it ends (and, when the escape test of a declared flight fails, for the next `fugir` of
that combat, until time passes: State.flight_speeds): every view shows both and the difference, and the party's drops past the turn
limit when the GM confirms (`perda_de_velocidade`).

Each chase turn passes its minutes through clock.pass_time: in a dungeon the lights and spells
burn, and the travel's run of advances is broken. A chase that starts leaves any safe camp.

Past the turn limit (docs/regras.md): when a turn past it BEGINS — the third (fourth, …) test ended
and the chase goes on — the companion says so and asks the GM to confirm that turn's exhaustion
(`exaustao_apos_limite`, house default), privation (`privacao`) and slowdown
(`perda_de_velocidade`); that turn's escape test waits for the answer, so what the GM confirms
applies to a chase still running, and a chase that ends by its third test asks nothing.

Where the rules are silent: the test's attribute is DEX (house default in data); Menor needs no
range roll, so it does not use up the turn's check.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Literal

from companion.engine.clock import pass_time
from companion.engine.model import GM, Attribute, Character, Chase, Prompt, State
from companion.engine.procedures.rounds import round_before_leaving
from companion.engine.characters import (
    clamp_supplies,
    exhaust_party,
    find_character,
    modifier,
    slug,
)
from companion.engine.handlers import PromptAnswer, command, prompt_handler
from companion.engine.prompting import add_prompt
from companion.engine.scratch import Scratch, arg
from companion.engine.validators import require_chance, require_dice
from companion.tables.errors import CommandRejected
from companion.tables.narration import Narrator
from companion.tables.rulebook import InvalidValue, piece, require_at_least
from companion.tables.weights import Weight

FILE = "perseguicao"
ALWAYS = "sempre"
CONFIRM = "confirmar_perseguicao"  # the GM's confirmation of a turn past the limit
DistanceKey = Literal["menor", "neutra", "maior"]


@dataclass(frozen=True)
class EscapeTest:
    """The escape test: its dice and attribute; the GM's DC within dc_minima..dc_maxima."""

    nome: str
    dados: str
    atributo: Attribute
    atributo_padrao_da_casa: bool
    sucesso: str
    falha: str
    dc_minima: int
    dc_maxima: int

    def validate(self) -> None:
        require_dice("dados", self.dados)
        if self.dc_maxima < self.dc_minima:
            raise InvalidValue("dc_maxima", "validacao.dc_maxima_da_perseguicao",
                               {"minima": self.dc_minima})


@dataclass(frozen=True)
class DeclaredFlight:
    falha: str
    sucesso: str


@dataclass(frozen=True)
class Privation:
    comida: int
    agua: int


@dataclass(frozen=True)
class RangeCheck:
    nome: str
    sim: str
    nao: str


@dataclass(frozen=True)
class Distance:
    """A distance: its row text and the range chance in 6 (or `sempre`, no roll)."""

    nome: str
    linha: str
    chance: int | Literal["sempre"]

    def validate(self) -> None:
        if isinstance(self.chance, int):
            require_chance("chance", self.chance)


@dataclass(frozen=True)
class Distances:
    menor: Distance
    neutra: Distance
    maior: Distance

    def of(self, key: str) -> Distance:
        return {"menor": self.menor, "neutra": self.neutra, "maior": self.maior}[key]


@dataclass(frozen=True)
class ScoreDistances:
    """The score → distance thresholds: menor at most `menor_ate`, maior from `maior_desde`,
    neutra between."""

    menor_ate: int
    maior_desde: int

    def validate(self) -> None:
        if self.maior_desde <= self.menor_ate:
            raise InvalidValue("maior_desde", "validacao.maior_que_menor_ate",
                               {"menor_ate": self.menor_ate})


@piece(FILE)
@dataclass(frozen=True)
class ChaseRules:
    """tables/perseguicao.yaml."""

    teste_de_fuga: EscapeTest
    declarada: DeclaredFlight
    turno_minutos: int
    limite_turnos: int
    limite_texto: str
    exaustao_apos_limite: int
    privacao: Privation
    perda_de_velocidade: float | int
    velocidade_maxima: int
    exaustao_padrao_da_casa: bool
    pontos_para_fim: int
    ponto_de_fuga: str
    ponto_de_perigo: str
    escaparam: str
    alcancados: str
    fim_escaparam: str
    fim_alcancados: str
    alcance: RangeCheck
    distancia_pelo_placar: ScoreDistances
    distancias: Distances

    def validate(self) -> None:
        if not 0 <= self.perda_de_velocidade <= 1:
            raise InvalidValue("perda_de_velocidade", "validacao.fracao")
        require_at_least(self, 1, "pontos_para_fim")


def distance_of(chase: Chase, thresholds: ScoreDistances) -> str:
    """The abstract distance derived from the score (tables/perseguicao.yaml
    `distancia_pelo_placar`): −1 menor, 0 neutra, +1 maior as shipped."""
    if chase.score <= thresholds.menor_ate:
        return "menor"
    return "maior" if chase.score >= thresholds.maior_desde else "neutra"


def _distance(rules: ChaseRules, chase: Chase) -> str:
    return distance_of(chase, rules.distancia_pelo_placar)


def _require_chase(state: State) -> Chase:
    if state.chase is None:
        raise CommandRejected.because("perseguicao.sem_perseguicao")
    return state.chase


# ---------------------------------------------------------------- declaring flight

@command("fugir")
def declare_flight(state: State, scratch: Scratch) -> State:
    """Flight is declared at the start of a combat round; the test comes at its end."""
    if state.chase is not None:
        raise CommandRejected.because("perseguicao.ja_em_fuga")
    name = arg(scratch, "personagem")
    roller = find_character(state, str(name)).id if name else None
    scratch.tell("perseguicao.fuga_declarada", personagem=roller)
    scratch.tell("perseguicao.fuga_declarada_dica", GM, weight=Weight.FRAMING, personagem=roller)
    party, foes = state.flight_speeds or (None, None)
    return replace(state, flight_speeds=None, chase=Chase(
        phase="declarada", roller=roller, party_speed=party, foe_speed=foes))


# ---------------------------------------------------------------- the escape test

@command("fuga")
def escape_test(state: State, scratch: Scratch) -> State:
    """The GM gives the outcome (sucesso/falha) or the difficulty (dc); never invented."""
    _require_chase(state)
    if any(p.kind == "fuga" for p in state.prompts):
        raise CommandRejected.because("perseguicao.teste_esperando")
    waiting = [p.id for p in state.prompts if p.kind == CONFIRM]
    if waiting:
        raise CommandRejected.because("perseguicao.confirme_antes", pedido=waiting[0])
    result, dc = arg(scratch, "resultado"), arg(scratch, "dc")
    if result is not None and dc is not None:
        raise CommandRejected.because("perseguicao.resultado_e_dificuldade", resultado=result,
                                      dc=dc)
    if result is not None:
        return resolve(state, scratch, _outcome(str(result)))
    if dc is not None:
        return _test_with_dc(state, scratch, _dc(scratch.piece(ChaseRules).teste_de_fuga, dc))
    raise CommandRejected.because("perseguicao.dificuldade_do_mestre")


def _outcome(value: str) -> bool:
    outcomes = {"sucesso": True, "falha": False}
    key = slug(value)
    if key not in outcomes:
        raise CommandRejected.because("perseguicao.resultado_desconhecido", valor=value)
    return outcomes[key]


def _dc(test: EscapeTest, value: Any) -> int:
    low, high = test.dc_minima, test.dc_maxima
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise CommandRejected.because("perseguicao.dificuldade_invalida", valor=value,
                                      minima=low, maxima=high)
    return value


def _roller(state: State, scratch: Scratch) -> Character | None:
    """Who rolls: named now, or named when fleeing; None: nobody was named."""
    named = arg(scratch, "personagem")
    if named:
        return find_character(state, str(named))
    remembered = state.chase.roller if state.chase else None
    return next((c for c in state.party if c.id == remembered), None)


def _test_with_dc(state: State, scratch: Scratch, dc: int) -> State:
    """A prompt on the roller's phone, or — nobody named — on every player's (the party's
    test: the first answer counts); with no party the companion rolls the d20 in public."""
    spec = scratch.piece(ChaseRules).teste_de_fuga
    if not state.party:
        rolled = scratch.roll(spec.dados, spec.nome, weight=Weight.ROUTINE, dc=dc,
                              describe=lambda total: spec.sucesso if total >= dc else spec.falha)
        return resolve(state, scratch, rolled.total >= dc)
    character = _roller(state, scratch)
    if character is None:
        return _party_test(state, scratch, dc)
    attribute = spec.atributo
    bonus = modifier(character, attribute, scratch.tables)
    text = scratch.tables.narration.render("perseguicao.pedido_teste", {
        "nome": character.name, "dados": spec.dados, "modificador": bonus,
        "atributo": attribute, "dc": dc})
    scratch.tell("perseguicao.teste_com_dificuldade", words={"nome": character.name}, dc=dc,
                 personagem=character.id)
    return add_prompt(state, scratch, "fuga", character.id, text, spec.dados, bonus, dc,
                      tabela=spec.nome)


def _party_test(state: State, scratch: Scratch, dc: int) -> State:
    """The escape test of the whole party: one public prompt any player may answer."""
    spec = scratch.piece(ChaseRules).teste_de_fuga
    text = scratch.tables.narration.render("perseguicao.pedido_teste_grupo", {
        "dados": spec.dados, "atributo": spec.atributo, "dc": dc})
    return add_prompt(state, scratch, "fuga", None, text, spec.dados, 0, dc, party=True,
                      tabela=spec.nome, atributo=spec.atributo)


@prompt_handler("fuga")
def answer_escape(state: State, prompt: Prompt, answer: PromptAnswer, scratch: Scratch) -> State:
    """The roller answered: success when the total (die + modifier) reaches the DC."""
    _require_chase(state)
    spec = scratch.piece(ChaseRules).teste_de_fuga
    if answer.total is None or prompt.dc is None:
        raise CommandRejected.because("perseguicao.responda_com_o_dado")
    success = answer.total >= prompt.dc
    scratch.tell("perseguicao.teste_respondido",
                 words={"nome": spec.nome, "palavra": spec.sucesso if success else spec.falha},
                 total=answer.total, dc=prompt.dc, sucesso=success)
    state = replace(state, prompts=tuple(p for p in state.prompts if p.id != prompt.id))
    return resolve(state, scratch, success)


# ---------------------------------------------------------------- resolving a test

def resolve(state: State, scratch: Scratch, success: bool) -> State:
    """Apply an escape test's outcome to the current phase of the chase."""
    chase = _require_chase(state)
    phases: dict[str, Callable[[State, Scratch, bool], State]] = {
        "declarada": _resolve_declared, "ativa": _resolve_turn}
    return phases[chase.phase](state, scratch, success)


def _resolve_declared(state: State, scratch: Scratch, success: bool) -> State:
    rules = scratch.piece(ChaseRules)
    if not success:
        scratch.tell("perseguicao.declarada_falha", words={"texto": rules.declarada.falha},
                     fuga=False)
        chase = _require_chase(state)
        kept = None if chase.party_speed is None or chase.foe_speed is None \
            else (chase.party_speed, chase.foe_speed)
        return replace(state, chase=None, flight_speeds=kept)
    state = round_before_leaving(state, scratch)  # the travel round it fills had its rolls
    chase = replace(_require_chase(state), phase="ativa")  # who rolls and the speeds stay
    distance = _distance(rules, chase)
    scratch.tell("perseguicao.declarada_sucesso",
                 words={"texto": rules.declarada.sucesso,
                        "nome": rules.distancias.of(distance).nome},
                 fuga=True, distancia=distance, placar=0)
    return replace(state, chase=chase, travel=replace(state.travel, camp_safe=False))


def _resolve_turn(state: State, scratch: Scratch, success: bool) -> State:
    """One chase turn: 10 minutes, one point of the tug of war, maybe the end or the limit."""
    rules = scratch.piece(ChaseRules)
    chase = _require_chase(state)
    chase = replace(chase, turn=chase.turn + 1, score=chase.score + (1 if success else -1),
                    ranged_checked=False)
    state = pass_time(state, scratch, rules.turno_minutos)
    scratch.tell("perseguicao.ponto",
                 words={"texto": rules.ponto_de_fuga if success else rules.ponto_de_perigo},
                 turno=chase.turn, placar=chase.score)
    state = _after_point(state, scratch, rules, chase)
    if state.chase is not None and chase.turn >= rules.limite_turnos:
        state = _past_limit(state, scratch, rules, chase.turn + 1)
    return state


def _after_point(state: State, scratch: Scratch, rules: ChaseRules, chase: Chase) -> State:
    end = rules.pontos_para_fim
    if chase.score >= end:
        scratch.tell("perseguicao.escaparam", words={"texto": rules.fim_escaparam},
                     fim="escaparam", regra=rules.escaparam)
        return replace(state, chase=None)
    if chase.score <= -end:
        scratch.tell("perseguicao.alcancados", weight=Weight.ARRIVAL, kind="aviso",
                     words={"texto": rules.fim_alcancados}, fim="alcancados",
                     regra=rules.alcancados)
        return replace(state, chase=None)
    distance = _distance(rules, chase)
    scratch.tell("perseguicao.turno",
                 words={"turno": chase.turn, "nome": rules.distancias.of(distance).nome},
                 distancia=distance, placar=chase.score)
    return replace(state, chase=chase)


def _past_limit(state: State, scratch: Scratch, rules: ChaseRules, beginning: int) -> State:
    """A turn past the limit begins (the chase goes on): say so and ask the GM to confirm its
    exhaustion, privation and slowdown before the turn's escape test, which waits for the
    answer (`escape_test`), so what the GM confirms applies to the chase still running."""
    scratch.tell("perseguicao.limite", kind="aviso", words={"texto": rules.limite_texto},
                 turno=beginning)
    amount = rules.exaustao_apos_limite
    text = scratch.tables.narration.render("perseguicao.confirmar_exaustao", {
        "limite": rules.limite_turnos, "turno": beginning, "pontos": amount})
    return add_prompt(state, scratch, CONFIRM, None, text, options=("sim", "nao"),
                      turnos_extras=1, turno=beginning)


@prompt_handler(CONFIRM)
def confirm_exhaustion(state: State, prompt: Prompt, answer: PromptAnswer,
                       scratch: Scratch) -> State:
    """The GM confirms (sim) or declines (nao) the exhaustion of a long chase. A prompt stored
    by an older release may count several extra turns (`turnos_extras`)."""
    option = slug(answer.option or "")
    if option not in ("sim", "nao"):
        raise CommandRejected.because("perseguicao.responda_sim_ou_nao",
                                      recebido=answer.option or answer.total)
    state = replace(state, prompts=tuple(p for p in state.prompts if p.id != prompt.id))
    if option == "nao":
        scratch.tell("perseguicao.exaustao_recusada")
        return state
    rules = scratch.piece(ChaseRules)
    extra = int(prompt.context.get("turnos_extras", 1))
    amount = rules.exaustao_apos_limite * extra
    state, levels = exhaust_party(state, amount)
    scratch.tell("perseguicao.exaustao", weight=Weight.HARM, kind="aviso", words={"niveis": levels},
                 exaustao=amount)
    state = _deprive(state, scratch, rules.privacao, extra)
    return _slow_down(state, scratch, rules.perda_de_velocidade, extra)


def _deprive(state: State, scratch: Scratch, cost: Privation, extra: int) -> State:
    """Privation (house default): each character loses food and water per extra turn."""
    food, water = cost.comida * extra, cost.agua * extra
    if not (food or water) or not state.party:
        return state
    party = tuple(clamp_supplies(replace(c, food=c.food - food, water=c.water - water))
                  for c in state.party)
    scratch.tell("perseguicao.privacao", weight=Weight.HARM, kind="aviso", comida=food, agua=water)
    return replace(state, party=party)


def _slow_down(state: State, scratch: Scratch, loss: float, extra: int) -> State:
    """The party's kept speed drops by the house fraction per extra turn
    (`perda_de_velocidade`), when the GM gave the speeds; the chase goes on at the new one."""
    chase = state.chase
    if chase is None or chase.party_speed is None:
        scratch.tell("perseguicao.mais_lento")
        scratch.tell("perseguicao.mais_lento_dica", GM, weight=Weight.FRAMING)
        return state
    slower = replace(chase, party_speed=max(0, round(chase.party_speed
                                                     * (1 - float(loss)) ** extra)))
    scratch.tell("perseguicao.velocidade_reduzida", weight=Weight.HARM, kind="aviso",
                 words={"antes": chase.party_speed,
                        "diferenca": speed_gap_text(scratch.tables.narration, slower)},
                 velocidade_grupo=slower.party_speed,
                 velocidade_perseguidores=slower.foe_speed)
    return replace(state, chase=slower)


# ---------------------------------------------------------------- speeds

@command("velocidade")
def speeds(state: State, scratch: Scratch) -> State:
    """The sides' speeds (50× each side's exploration rate), as the GM says them: shown with
    the difference, as information for the escape test's difficulty."""
    chase = _require_chase(state)
    top = scratch.piece(ChaseRules).velocidade_maxima
    values = []
    for key in ("grupo", "perseguidores"):
        raw = arg(scratch, key)
        if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= top:
            raise CommandRejected.because("perseguicao.velocidade_invalida", valor=raw,
                                          maxima=top)
        values.append(raw)
    party, foes = values
    chase = replace(chase, party_speed=party, foe_speed=foes)
    scratch.tell("perseguicao.velocidades", velocidade_grupo=party,
                 velocidade_perseguidores=foes, diferenca=party - foes)
    return replace(state, chase=chase)


def speeds_text(narrator: Narrator, chase: Chase) -> str | None:
    """'grupo 120 × perseguidores 90 (o grupo é 30 mais rápido)', or None before the GM gave
    the speeds (for every view; tables/narracao/perseguicao.yaml `velocidades_no_estado`)."""
    if chase.party_speed is None or chase.foe_speed is None:
        return None
    return narrator.render("perseguicao.velocidades_no_estado", {
        "velocidade_grupo": chase.party_speed, "velocidade_perseguidores": chase.foe_speed,
        "diferenca": speed_gap_text(narrator, chase)})


def speed_gap_text(narrator: Narrator, chase: Chase) -> str:
    """'o grupo é 30 mais rápido', '… mais lento', 'mesma velocidade' (for the view;
    tables/narracao/perseguicao.yaml `diferenca_de_velocidade`)."""
    known = chase.party_speed is not None and chase.foe_speed is not None
    gap = (chase.party_speed or 0) - (chase.foe_speed or 0) if known else None
    return narrator.render("perseguicao.diferenca_de_velocidade", {"diferenca": gap})


# ---------------------------------------------------------------- ranged actions

@command("distancia")
def ranged_check(state: State, scratch: Scratch) -> State:
    """Ataques, Arremessos e Magias: by the current distance, once per turn unless wider range."""
    chase = _require_chase(state)
    if chase.phase != "ativa":
        raise CommandRejected.because("perseguicao.ainda_nao_comecou")
    wider = arg(scratch, "alcance_maior", False)
    if not isinstance(wider, bool):
        raise CommandRejected.because("perseguicao.alcance_maior_invalido", valor=wider)
    rules = scratch.piece(ChaseRules)
    key = _distance(rules, chase)
    spec = rules.distancias.of(key)
    check = rules.alcance
    if spec.chance == ALWAYS:
        scratch.tell("perseguicao.alcance_sempre",
                     words={"tabela": check.nome, "nome": spec.nome},
                     distancia=key, linha=spec.linha)
        return state
    if chase.ranged_checked and not wider:
        raise CommandRejected.because("perseguicao.alcance_ja_testado")
    scratch.chance(int(spec.chance), check.nome, check.sim, check.nao,
                   distancia=key, linha=spec.linha, alcance_maior=wider)
    return replace(state, chase=replace(chase, ranged_checked=True))
