"""What the pages show on their buttons and titles (tables/paginas.yaml), checked at load.

The server sends `page_data(tables)` to every page in `boas_vindas` (key "paginas"): each
mode's name and quick buttons, the player's dice, the prompt cards' titles and the option
buttons' labels. The pages keep none of these texts themselves.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.errors import TableError
from companion.tables import Tables, register_schema

FILE = "paginas"
DEFAULT_TITLE = "padrao"

register_schema(FILE, {
    "modos": {"*": str},
    "botoes": {"*": [{"rotulo": str, "comando": str}]},
    "dados_jogador": [str],
    "titulos_pedidos": {DEFAULT_TITLE: str, "*": str},
    "opcoes": {"*": str},
})


@dataclass(frozen=True)
class Button:
    label: str
    command: str


@dataclass(frozen=True)
class Pages:
    modes: dict[str, str]
    buttons: dict[str, tuple[Button, ...]]
    dice: tuple[str, ...]
    prompt_titles: dict[str, str]
    options: dict[str, str]

    def to_json(self) -> dict[str, Any]:
        """The `paginas` of boas_vindas."""
        return {
            "modos": dict(self.modes),
            "botoes": {mode: [{"rotulo": b.label, "comando": b.command} for b in buttons]
                       for mode, buttons in self.buttons.items()},
            "dados_jogador": list(self.dice),
            "titulos_pedidos": dict(self.prompt_titles),
            "opcoes": dict(self.options),
        }


def _known(file: str, where: str, keys: Any, known: Any, what: str) -> None:
    for key in keys:
        if key not in known:
            raise TableError(f"tables/{file}.yaml: '{where}.{key}' não é {what}; use "
                             + ", ".join(str(k) for k in known))


def load(tables: Tables) -> Pages:
    """The pages' data of this load of the rules: built (and checked) once, then kept with
    the rules' typed pieces, so every boas_vindas and API call reuses it."""
    found = tables.pieces.get(Pages)
    if found is None:
        found = tables.pieces[Pages] = _build(tables)
    return found


def _build(tables: Tables) -> Pages:
    """tables/paginas.yaml as typed values; modes, prompt kinds and options it names must
    exist (comandos.yaml `modos`, panico.yaml `nomes_pedidos` and `nomes_opcoes`), and every
    mode has its name and its buttons."""
    raw = tables[FILE]
    modes = tables.get("comandos", "modos")
    _known(FILE, "modos", raw["modos"], modes, "um modo")
    _known(FILE, "botoes", raw["botoes"], modes, "um modo")
    for mode in modes:
        for key in ("modos", "botoes"):
            if mode not in raw[key]:
                raise TableError(f"tables/{FILE}.yaml: falta a chave '{key}.{mode}'")
    kinds = [k for k in raw["titulos_pedidos"] if k != DEFAULT_TITLE]
    _known(FILE, "titulos_pedidos", kinds, tables.get("panico", "nomes_pedidos"),
           "um tipo de pedido")
    _known(FILE, "opcoes", raw["opcoes"], tables.get("panico", "nomes_opcoes"),
           "uma opção de pedido")
    for index, die in enumerate(raw["dados_jogador"]):
        if not (die.startswith("d") and die[1:].isdigit() and int(die[1:]) > 1):
            raise TableError(f"tables/{FILE}.yaml: 'dados_jogador[{index}]' deveria ser um "
                             f"dado como d20, não '{die}'")
    return Pages(
        modes={str(k): str(v) for k, v in raw["modos"].items()},
        buttons={str(mode): tuple(Button(str(b["rotulo"]), str(b["comando"])) for b in buttons)
                 for mode, buttons in raw["botoes"].items()},
        dice=tuple(str(d) for d in raw["dados_jogador"]),
        prompt_titles={str(k): str(v) for k, v in raw["titulos_pedidos"].items()},
        options={str(k): str(v) for k, v in raw["opcoes"].items()},
    )


def page_data(tables: Tables) -> dict[str, Any]:
    """The `paginas` of boas_vindas (from the data built once per load)."""
    return load(tables).to_json()
