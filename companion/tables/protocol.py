"""Who is who at the table and who may do what: actors, viewers, "may see" and "may run".

One place for the keys every layer passes around:

- an **actor** is who gives a command: `"gm"` or `"player:<character id>"`;
- a **viewer** is who looks: `"gm"`, `"player:<character id>"`, or `"public"` (the shared table
  screen, and what every player sees); a connection's role ("mestre", "jogador", "mesa") maps
  to one (`viewer_for_role`);
- an event's **visibility** is `"public"`, `"gm"` or `"player:<character id>"` — the same key as
  the viewer it is meant for.

`may_see(visibility, viewer)` is the one routing rule: the GM sees all; a player sees public
events and their own; the table screen sees public events. `may_run(actor, command, tables)`
says which commands a player may give (comandos.yaml `jogador: true`: rolling dice, answering
a prompt, `estado`, `ajuda`); `may_answer(actor, owner)` whether an actor may answer a prompt
of that character (the GM answers any; a player only their own).

The commands' rules (tables/comandos.yaml) are the typed piece `CommandRules`, declared here
so that this module and the engine read the same one.

This module imports only the standard library, companion.tables.errors, companion.tables.rulebook and
companion.tables.files: the engine, the session, the server and the shell all import it, never the
reverse.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Mapping, get_args

from companion.tables.errors import CommandRejected
from companion.tables.rulebook import InvalidValue, piece, require_at_least
from companion.tables.files import Tables

GM = "gm"
PUBLIC = "public"
PLAYER_PREFIX = "player:"

Role = Literal["mestre", "jogador", "mesa"]

# Who sees something, in the data's words (tables/*.yaml `visibilidade`): the GM or everyone.
Seen = Literal["mestre", "publico"]
SEEN: dict[str, str] = {"mestre": GM, "publico": PUBLIC}
ROLE_VIEWERS: dict[str, str] = {"mestre": GM, "mesa": PUBLIC}


# ---------------------------------------------------------------- the commands' rules

Mode = Literal["viagem", "masmorra", "perseguicao"]


@dataclass(frozen=True)
class ModeNames:
    """How each mode is named (comandos.yaml `modos`)."""

    viagem: str
    masmorra: str
    perseguicao: str

    def of(self, mode: str) -> str:
        return str(getattr(self, mode))


@dataclass(frozen=True)
class ModePhrase:
    """How a refusal out of mode speaks of a mode: 'só vale <onde> (agora: <nome>)…
    os comandos <de>'."""

    onde: str
    nome: str
    de: str


@dataclass(frozen=True)
class ModePhrases:
    viagem: ModePhrase
    masmorra: ModePhrase
    perseguicao: ModePhrase

    def of(self, mode: str) -> ModePhrase:
        phrase: ModePhrase = getattr(self, mode)
        return phrase


@dataclass(frozen=True)
class CommandSpec:
    """One command of comandos.yaml `comandos`: where it runs, who may run it, how people call
    it (spoken_name) and its help."""

    modos: tuple[str, ...]  # "todos" or some of Mode (checked here, so errors name the command)
    nome: str
    ajuda: str
    repete: bool = False  # 'avançar duas vezes' (core._repeated)
    jogador: bool = False  # a player may run it (may_run)

    def validate(self) -> None:
        accepted = ("todos", *get_args(Mode))
        if not self.modos or any(mode not in accepted for mode in self.modos):
            raise InvalidValue("modos", "validacao.lista_de_modos", {"modos": list(accepted)})
        if not self.nome.strip():
            raise InvalidValue("nome", "validacao.nome_do_comando")


# A renamed key ('modas:') is said as the missing one ('falta a chave modos'): the rulebook
# names a missing key before an unknown one.
@piece("comandos")  # strict: a typo in an optional key ('jogadr: true') is a load error
@dataclass(frozen=True)
class CommandRules:
    """tables/comandos.yaml: the prompt kinds that hold the group (while one waits, no group
    activity runs), how many times a command may be repeated at once, the modes' names and
    phrases, and every command's modes, help and who may run it (core.require_mode,
    spoken_name, may_run)."""

    pedidos_que_seguram: tuple[str, ...]
    repeticoes_maximas: int
    modos: ModeNames
    modos_frases: ModePhrases
    comandos: Mapping[str, CommandSpec]

    def validate(self) -> None:
        if not self.pedidos_que_seguram:
            raise InvalidValue("pedidos_que_seguram", "validacao.lista_de_pedidos")
        require_at_least(self, 1, "repeticoes_maximas")


def spoken_name(tables: Tables, name: str) -> str:
    """How people say a command (comandos.yaml `nome`); a name that is no command, as it is."""
    spec = tables.piece(CommandRules).comandos.get(name)
    return spec.nome if spec is not None else name


# ---------------------------------------------------------------- keys

def player_key(character_id: str) -> str:
    """The actor, viewer and visibility key of one character's player: 'player:<id>'."""
    return f"{PLAYER_PREFIX}{character_id}"


def character_of(key: str) -> str | None:
    """The character id of a 'player:<id>' key; None for the GM, the table or anything else."""
    if isinstance(key, str) and key.startswith(PLAYER_PREFIX) and len(key) > len(PLAYER_PREFIX):
        return key[len(PLAYER_PREFIX):]
    return None


def is_player(key: str) -> bool:
    return character_of(key) is not None


def is_gm(key: str) -> bool:
    return key == GM


def viewer_key(viewer: str) -> str:
    """A viewer key as the views know it: 'gm', 'player:<id>', and anything else 'public'."""
    return viewer if is_gm(viewer) or is_player(viewer) else PUBLIC


def viewer_for_role(role: str, character_id: str | None = None) -> str:
    """The viewer a connection of that role is: the GM, a player's own key, or the table."""
    if role == "jogador":
        if not character_id:
            raise ValueError("a player connection needs its character id")
        return player_key(character_id)
    return ROLE_VIEWERS.get(role, PUBLIC)


def actor_for_viewer(viewer: str) -> str | None:
    """Who a viewer's commands run as: the GM as 'gm', a player as themselves; the table
    screen runs none (None)."""
    if is_gm(viewer) or is_player(viewer):
        return viewer
    return None


# ---------------------------------------------------------------- may see

def seen_by(word: str) -> str:
    """The visibility key of a data word (`visibilidade: mestre` → 'gm', `publico` →
    'public')."""
    return SEEN[word]


def may_see(visibility: str, viewer: str) -> bool:
    """Whether an event (or anything) of this visibility may reach this viewer."""
    if is_gm(viewer) or visibility == PUBLIC:
        return True
    return is_player(viewer) and visibility == viewer


# ---------------------------------------------------------------- may run

def may_run(actor: str, command: str, tables: Tables) -> bool:
    """The GM runs every command; a player only those comandos.yaml marks `jogador: true`."""
    if is_gm(actor):
        return True
    spec = tables.piece(CommandRules).comandos.get(command)
    return is_player(actor) and spec is not None and spec.jogador


def refusal_to_run(command: str, tables: Tables) -> str:
    """What a player hears when a command is not theirs to give
    (tables/narracao/comandos.yaml `so_mestre`)."""
    return tables.narration.render("comandos.so_mestre", {"comando": command})


def require_may_run(actor: str, command: str, tables: Tables) -> None:
    """Raise CommandRejected (the table's message) when `actor` may not run `command`."""
    if not may_run(actor, command, tables):
        raise CommandRejected(refusal_to_run(command, tables), code="so_mestre",
                              params={"comando": command})


def may_answer(actor: str, owner: str | None, party: bool = False) -> bool:
    """Whether `actor` may answer (or address) a prompt of character `owner` (None: the GM's
    own prompt): the GM any; a player their own character's, and the whole party's (`party`)."""
    if is_gm(actor):
        return True
    mine = character_of(actor)
    return mine is not None and (party or owner == mine)


# ---------------------------------------------------------------- refusals

# Why a command was refused, in a word a page decides on (the `codigo` of a refused
# acknowledgement); the Portuguese `error` is what people read.
REFUSAL_CODES = frozenset({
    "sem_pedido",          # no prompt is pending (for this player)
    "pedido_encerrado",    # the prompt named is no longer pending (answered, cancelled, undone)
    "pedido_desconhecido",  # a player named a prompt number they never had
    "pedido_alheio",       # the prompt is another player's
    "valor_fora_do_dado",  # a physical die value the prompt's dice cannot give
    "pedido_pendente",     # a prompt that holds the group waits for its answer
    "so_mestre",           # only the GM may run this command
    "disco_cheio",         # the laptop's disk is full: nothing was recorded; the same again later
})


def refusal(message: str, code: str | None = None) -> dict[str, Any]:
    """A refused acknowledgement: `{"ok": false, "error": …}`, plus `codigo` when known."""
    shown: dict[str, Any] = {"ok": False, "error": message}
    word = page_code(code)
    if word is not None:
        shown["codigo"] = word
    return shown


def page_code(code: str | None) -> str | None:
    """The word a page decides on for a refusal's code: a narration code
    ('pedidos.sem_pedido', rendered from tables/narracao/) gives the part after the file when
    that part is one of REFUSAL_CODES, and nothing otherwise (the pages need no word for it);
    any other code is sent as it is."""
    if code is None or "." not in code:
        return code
    word = code.split(".", 1)[1]
    return word if word in REFUSAL_CODES else None
