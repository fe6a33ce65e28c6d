"""The session form (tables/registro.yaml): what the party defeated, found and rolled.

`derrotados N criatura [regiao]` counts creatures per region (default: the current terrain's
display name, or "Masmorra" — tables/registro.yaml — inside a dungeon); the first
monster of the GM's dungeon list with that name (accents, case and a plural 's' ignored) leaves
the list, said only to the GM; `tesouro N tipo` and `item N tipo` count what was found (names up
to tables/registro.yaml `nome_maximo` letters). The dice rolled per type are counted by core from every
`rolagem` event. Names are kept as first said; later mentions match ignoring case and accents.

`registro` shows the form to whoever asked (visibility = the actor): creatures defeated per
region, treasure and items; the dice rolled per type only to the GM (they include secret rolls).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from companion.tables import protocol
from companion.engine.model import GM, PUBLIC, State, Tally
from companion.engine.procedures.encounters import EncounterTables, in_region, region_name
from companion.engine.characters import slug
from companion.engine.handlers import command
from companion.engine.scratch import Scratch, arg
from companion.engine.terrain import TerrainNames
from companion.tables.errors import CommandRejected
from companion.tables.narration import Narrator
from companion.tables.rulebook import piece, require_at_least


@piece("registro")
@dataclass(frozen=True)
class TallyRules:
    """tables/registro.yaml (house defaults): the region a dungeon is counted in, the
    largest quantity said at once and the longest name."""

    padrao_da_casa: bool
    regiao_masmorra: str
    preposicao_masmorra: str  # how people say "in" it: "na Masmorra"
    quantidade_maxima: int
    nome_maximo: int

    def validate(self) -> None:
        require_at_least(self, 1, "quantidade_maxima", "nome_maximo")


def _quantity(scratch: Scratch) -> int:
    raw = arg(scratch, "quantidade")
    highest = scratch.piece(TallyRules).quantidade_maxima
    value: Any = raw
    if isinstance(raw, float) and raw.is_integer():
        value = int(raw)
    if isinstance(raw, str) and raw.strip().isdigit():
        value = int(raw.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= highest:
        raise CommandRejected.because("registro.quantidade_invalida", quantidade=raw,
                                      maximo=highest)
    return value


def _label(scratch: Scratch, key: str) -> str:
    text = " ".join(str(arg(scratch, key) or "").split())
    if not text or not slug(text):
        raise CommandRejected.because("registro.falta_o_que", dito=text,
                                      comando=scratch.command.name)
    longest = scratch.piece(TallyRules).nome_maximo
    if len(text) > longest:
        raise CommandRejected.because("registro.nome_longo", inicio=text[:longest],
                                      maximo=longest)
    return text


def _add(counts: Mapping[str, int], name: str, amount: int) -> tuple[dict[str, int], str, int]:
    """Add amount under name (matching an existing key by slug); the key used and its total."""
    merged = dict(counts)
    key = next((k for k in merged if same_creature(k, name)), name)
    merged[key] = merged.get(key, 0) + amount
    return merged, key, merged[key]


def current_region(state: State, scratch: Scratch) -> str:
    """Where the party is, as the form names it."""
    if state.dungeon.active:
        return scratch.piece(TallyRules).regiao_masmorra
    return region_name(scratch, state.travel.region or state.travel.terrain)


def _in_region_named(scratch: Scratch, name: str) -> str:
    """'na Floresta Sombria', 'no Pântano': a counted region by its name, with the preposition
    stored with it (a name no region has: 'em' and the name)."""
    regions = scratch.piece(EncounterTables).names(scratch.piece(TerrainNames).names())
    key = next((k for k, said in regions.items() if slug(said) == slug(name)), None)
    if key is not None:
        return in_region(scratch, key)
    rules = scratch.piece(TallyRules)
    dungeon = slug(name) == slug(rules.regiao_masmorra)
    return scratch.tables.narration.render("encontros.na_regiao", {
        "preposicao": rules.preposicao_masmorra if dungeon else None, "nome": name})


def _region(state: State, scratch: Scratch) -> str:
    """The region said (a terrain id or a region's id becomes its name), else the current
    one."""
    said = " ".join(str(arg(scratch, "regiao") or "").split())
    if not said:
        return current_region(state, scratch)
    dungeon = scratch.piece(TallyRules).regiao_masmorra
    terrains = {slug(key): name for key, name in scratch.piece(TerrainNames).names().items()}
    regions = scratch.piece(EncounterTables).names(scratch.piece(TerrainNames).names())
    named = {slug(key): name for key, name in regions.items()}
    named.update({slug(name): name for name in regions.values()})
    known = {**terrains, **named, slug(dungeon): dungeon}
    return known.get(slug(said), said)


@command("derrotados")
def defeated_command(state: State, scratch: Scratch) -> State:
    """Count creatures defeated in a region."""
    amount = _quantity(scratch)
    creature = _label(scratch, "criatura")
    region = _region(state, scratch)
    regions = dict(state.tally.defeated)
    region_key = next((k for k in regions if slug(k) == slug(region)), region)
    counts, key, total = _add(regions.get(region_key, {}), creature, amount)
    regions[region_key] = counts
    scratch.tell("registro.derrotados", PUBLIC, regiao=region_key, criatura=key,
                 quantidade=amount, total=total,
                 words={"na_regiao": _in_region_named(scratch, region_key)})
    state = _off_the_monster_list(state, scratch, creature)
    return replace(state, tally=replace(state.tally, defeated=regions))


# Portuguese plural endings and their singular (accents already folded: poções → pocoes).
_PLURALS = (("oes", "ao"), ("aes", "ao"), ("res", "r"), ("zes", "z"), ("s", ""))


def _singular(word: str) -> str:
    for plural, single in _PLURALS:
        if word.endswith(plural) and len(word) > len(plural) + 1:
            return word[:-len(plural)] + single
    return word


def same_creature(a: str, b: str) -> bool:
    """Names match ignoring accents, case and the plural of each word (goblins = Goblin,
    tochas = tocha, poções = poção): a creature, a treasure or an item is counted once."""
    def words(name: str) -> list[str]:
        return [_singular(w) for w in slug(name).split("-")]
    return words(a) == words(b)


def _off_the_monster_list(state: State, scratch: Scratch, creature: str) -> State:
    """The first monster of the GM's dungeon list with that name is defeated: take it off."""
    monsters = state.dungeon.monsters
    index = next((i for i, m in enumerate(monsters) if same_creature(m.name, creature)), None)
    if index is None:
        return state
    gone = monsters[index]
    left = monsters[:index] + monsters[index + 1:]
    scratch.tell("registro.fora_da_lista", GM, words={"sala": gone.room},
                 monstro=gone.name, monstros=[{"nome": m.name, "sala": m.room,
                                             "alertado": m.alerted} for m in left])
    return replace(state, dungeon=replace(state.dungeon, monsters=left))


def _found(state: State, scratch: Scratch, field: str) -> tuple[State, dict[str, Any]]:
    """Count what was found under the tally's `field`; the event's data."""
    amount = _quantity(scratch)
    kind = _label(scratch, "tipo")
    counts, key, total = _add(getattr(state.tally, field), kind, amount)
    found = {"tipo": key, "quantidade": amount, "total": total}
    return replace(state, tally=replace(state.tally, **{field: counts})), found


@command("tesouro")
def treasure_command(state: State, scratch: Scratch) -> State:
    """Count treasure found."""
    state, found = _found(state, scratch, "treasure")
    scratch.tell("registro.tesouro", PUBLIC, **found)
    return state


@command("item")
def item_command(state: State, scratch: Scratch) -> State:
    """Count items found."""
    state, found = _found(state, scratch, "items")
    scratch.tell("registro.itens", PUBLIC, **found)
    return state


# ---------------------------------------------------------------- registro

def _die_size(kind: str) -> int:
    digits = kind.lstrip("dD")
    return int(digits) if digits.isdigit() else 10 ** 6


def form_text(state: State, narration: Narrator, gm: bool) -> str:
    """The session form as people read it (tables/narracao/registro.yaml `ficha`; the dice
    rolled only for the GM, smallest die first)."""
    tally = state.tally
    dice = sorted(tally.dice.items(), key=lambda item: _die_size(item[0])) if gm else None
    return narration.render("registro.ficha", {
        "derrotados": tally.defeated, "tesouro": tally.treasure, "itens": tally.items,
        "dados": dice})


def tally_dict(tally: Tally, with_dice: bool = True) -> dict[str, Any]:
    """The session form as JSON-safe data (the `registro` of the form's events and of the
    view); the dice counts only `with_dice` (they include secret rolls: the GM's)."""
    form: dict[str, Any] = {
        "derrotados": {region: dict(counts) for region, counts in tally.defeated.items()},
        "tesouro": dict(tally.treasure), "itens": dict(tally.items)}
    if with_dice:
        form["dados"] = dict(tally.dice)
    return form


@command("registro")
def form_command(state: State, scratch: Scratch) -> State:
    """The session form, only to whoever asked."""
    player = protocol.character_of(scratch.command.actor)
    visibility = protocol.player_key(player) if player else GM
    form = tally_dict(state.tally, with_dice=player is None)
    scratch.tell("registro.registro", visibility, registro=form,
                 words={"ficha": form_text(state, scratch.tables.narration, player is None)})
    return state
