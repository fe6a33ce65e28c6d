"""The session form (tables/panico.yaml `registro`): what the party defeated, found and rolled.

`derrotados N criatura [regiao]` counts creatures per region (default: the current terrain's
display name, or "Masmorra" — tables/panico.yaml `registro` — inside a dungeon); the first
monster of the GM's dungeon list with that name (accents, case and a plural 's' ignored) leaves
the list, said only to the GM; `tesouro N tipo` and `item N tipo` count what was found (names up
to `registro.nome_maximo` letters). The dice rolled per type are counted by core from every
`rolagem` event. Names are kept as first said; later mentions match ignoring case and accents.

`registro` shows the form to whoever asked (visibility = the actor): creatures defeated per
region, treasure and items; the dice rolled per type only to the GM (they include secret rolls).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from companion import protocol
from companion.engine.model import GM, PUBLIC, State, player_visibility
from companion.engine.toolkit import Scratch, arg, command, slug, terrain_name
from companion.errors import CommandRejected

FILE = "panico"


def _quantity(scratch: Scratch) -> int:
    raw = arg(scratch, "quantidade")
    highest = int(scratch.table(FILE, "registro", "quantidade_maxima"))
    value: Any = raw
    if isinstance(raw, float) and raw.is_integer():
        value = int(raw)
    if isinstance(raw, str) and raw.strip().isdigit():
        value = int(raw.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= highest:
        raise CommandRejected(f"quantidade inválida: '{raw}'; diga um número inteiro de 1 a "
                              f"{highest}, como 'derrotados 3 goblins'")
    return value


def _label(scratch: Scratch, key: str, example: str) -> str:
    text = " ".join(str(arg(scratch, key) or "").split())
    if not text or not slug(text):
        raise CommandRejected(f"falta dizer o quê: '{text}'; por exemplo '{example}'")
    longest = int(scratch.table(FILE, "registro", "nome_maximo"))
    if len(text) > longest:
        raise CommandRejected(f"nome longo demais: '{text[:longest]}…'; "
                              f"use até {longest} letras")
    return text


def _add(counts: Mapping[str, int], name: str, amount: int) -> tuple[dict[str, int], str, int]:
    """Add amount under name (matching an existing key by slug); the key used and its total."""
    merged = dict(counts)
    key = next((k for k in merged if slug(k) == slug(name)), name)
    merged[key] = merged.get(key, 0) + amount
    return merged, key, merged[key]


def current_region(state: State, scratch: Scratch) -> str:
    """Where the party is, as the form names it."""
    if state.dungeon.active:
        return str(scratch.table(FILE, "registro", "regiao_masmorra"))
    return terrain_name(scratch, state.travel.terrain)


def _region(state: State, scratch: Scratch) -> str:
    """The region said (a terrain id becomes its display name), else the current one."""
    said = " ".join(str(arg(scratch, "regiao") or "").split())
    if not said:
        return current_region(state, scratch)
    dungeon = str(scratch.table(FILE, "registro", "regiao_masmorra"))
    terrains = {slug(key): str(name) for key, name in scratch.table("viagem", "terrenos").items()}
    known = {**terrains, slug(dungeon): dungeon}
    return known.get(slug(said), said)


@command("derrotados")
def defeated_command(state: State, scratch: Scratch) -> State:
    """Count creatures defeated in a region."""
    amount = _quantity(scratch)
    creature = _label(scratch, "criatura", "derrotados 3 goblins")
    region = _region(state, scratch)
    regions = dict(state.tally.defeated)
    region_key = next((k for k in regions if slug(k) == slug(region)), region)
    counts, key, total = _add(regions.get(region_key, {}), creature, amount)
    regions[region_key] = counts
    scratch.say(f"Derrotados: {amount} {key} em {region_key} (total: {total}).", PUBLIC,
                regiao=region_key, criatura=key, quantidade=amount, total=total)
    state = _off_the_monster_list(state, scratch, creature)
    return replace(state, tally=replace(state.tally, defeated=regions))


def same_creature(a: str, b: str) -> bool:
    """Names match ignoring accents, case and a plural 's' on each word (goblins = Goblin)."""
    def words(name: str) -> list[str]:
        return [w[:-1] if w.endswith("s") and len(w) > 1 else w for w in slug(name).split("-")]
    return words(a) == words(b)


def _off_the_monster_list(state: State, scratch: Scratch, creature: str) -> State:
    """The first monster of the GM's dungeon list with that name is defeated: take it off."""
    monsters = state.dungeon.monsters
    index = next((i for i, m in enumerate(monsters) if same_creature(m.name, creature)), None)
    if index is None:
        return state
    gone = monsters[index]
    left = monsters[:index] + monsters[index + 1:]
    room = f" (sala {gone.room})" if gone.room else ""
    scratch.say(f"{gone.name}{room} sai da lista de monstros da masmorra.", GM,
                monstro=gone.name, monstros=[{"nome": m.name, "sala": m.room,
                                            "alertado": m.alerted} for m in left])
    return replace(state, dungeon=replace(state.dungeon, monsters=left))


def _found(state: State, scratch: Scratch, field: str, label: str, example: str) -> State:
    amount = _quantity(scratch)
    kind = _label(scratch, "tipo", example)
    counts, key, total = _add(getattr(state.tally, field), kind, amount)
    scratch.say(f"{label}: {amount} {key} (total: {total}).", PUBLIC, tipo=key,
                quantidade=amount, total=total)
    return replace(state, tally=replace(state.tally, **{field: counts}))


@command("tesouro")
def treasure_command(state: State, scratch: Scratch) -> State:
    """Count treasure found."""
    return _found(state, scratch, "treasure", "Tesouro", "tesouro 50 moedas de ouro")


@command("item")
def item_command(state: State, scratch: Scratch) -> State:
    """Count items found."""
    return _found(state, scratch, "items", "Itens", "item 2 poções")


# ---------------------------------------------------------------- registro

def _counts_text(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{amount} {name}" for name, amount in counts.items()) or "nada"


def _die_size(kind: str) -> int:
    digits = kind.lstrip("dD")
    return int(digits) if digits.isdigit() else 10 ** 6


def form_lines(state: State, gm: bool) -> list[str]:
    """The session form as lines people read (dice only for the GM)."""
    tally = state.tally
    defeated = [f"  {region}: {_counts_text(counts)}"
                for region, counts in tally.defeated.items()] or ["  nenhuma criatura"]
    lines = ["Derrotados por região:", *defeated,
             f"Tesouro: {_counts_text(tally.treasure)}",
             f"Itens: {_counts_text(tally.items)}"]
    if gm:
        dice = sorted(tally.dice.items(), key=lambda item: _die_size(item[0]))
        lines.append("Dados rolados: " + (", ".join(f"{kind} × {count}" for kind, count in dice)
                                          or "nenhum"))
    return lines


@command("registro")
def form_command(state: State, scratch: Scratch) -> State:
    """The session form, only to whoever asked."""
    player = protocol.character_of(scratch.command.actor)
    visibility = player_visibility(player) if player else GM
    form: dict[str, Any] = {
        "derrotados": {region: dict(counts) for region, counts in state.tally.defeated.items()},
        "tesouro": dict(state.tally.treasure), "itens": dict(state.tally.items)}
    if player is None:
        form["dados"] = dict(state.tally.dice)
    scratch.say("Registro da sessão\n" + "\n".join(form_lines(state, player is None)), visibility,
                registro=form)
    return state
