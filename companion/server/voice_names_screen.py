"""The voice's names on the Regras screen: what the campaign added to the voice lists and what
it learned from typed commands, and the GM forgetting a learned name from the phone.

The names the campaign added (tables/nomes_da_voz.yaml, empty as shipped) are its rules: they
change with `regras {"alterar": {"nomes_da_voz": {…}}}` like any rule (logged, undone by
`desfazer`). A name learned from a typed command (`monstro`, `magia`, `tesouro`, `item`;
companion/voice/learned.py) is forgotten with `regras {"esquecer": ["Nome", …]}` (or POST
/api/regras/esquecer): like `companion voz esquecer`, it is no game command — nothing is
logged and there is nothing to undo; typed again, the name comes back. The live listener hears
the list without it from its next utterance on (it shares the forgotten-names table).
"""
from __future__ import annotations

import threading
from typing import Any, Callable

from companion.rules.form import FormWords
from companion.server.served import ServedSession
from companion.voice.config import CampaignNames, VoiceData, said_name
from companion.voice.learned import SessionNames

MAX_NAMES = 50  # names forgotten in one request
MAX_NAME_CHARS = 100


class VoiceNames:
    """One session's voice names, as the Regras screen shows and prunes them."""

    def __init__(self, session: ServedSession, voice: Callable[[], Any]) -> None:
        self._session = session
        self._voice = voice  # the session's Voice (None when voice is off)
        self._own: SessionNames | None = None
        self._lock = threading.Lock()

    def _names(self) -> SessionNames:
        """The live listener's names when voice is on (one forgotten-names table), else ours."""
        voice = self._voice()
        if voice is not None and getattr(voice, "names", None) is not None:
            return voice.names  # type: ignore[no-any-return]
        with self._lock:
            if self._own is None:
                self._own = SessionNames(self._session, self._session.tables)
            return self._own

    def view(self) -> dict[str, Any]:
        """GET /api/regras `nomes_da_voz`: each list the campaign may add to (its key, label,
        the names it added as typed, how many the shipped list has), the names it learned
        (as typed, as said, the command and the voice lists) and the screen's words."""
        tables = self._session.tables
        words = tables.piece(FormWords).nomes_da_voz
        voice = tables.piece(VoiceData)
        added = tables.piece(CampaignNames).of()
        lists = [{"chave": key, "rotulo": words.get(key, key), "nomes": list(names),
                  "da_lista": len({said_name(str(n)) for n in
                                   voice.listas.get(voice.nomes_da_voz[key][0], ())})}
                 for key, names in added.items()]
        learned = [{"nome": name.shown, "dito": name.said, "comando": name.command,
                    "listas": list(name.lists)} for name in self._names().current(tables)]
        return {"listas": lists, "aprendidos": learned, "textos": dict(words)}

    def forget(self, names: Any) -> dict[str, Any]:
        """`esquecer`: the learned names taken out of the voice lists, or why none was (one
        unknown name and nothing is forgotten)."""
        words = self._session.tables.narration
        if not isinstance(names, list) or not names or len(names) > MAX_NAMES or not all(
                isinstance(n, str) and n.strip() and len(n) <= MAX_NAME_CHARS for n in names):
            return {"ok": False, "erro": words.render(
                "regras.esquecer_invalido", {"maximo": MAX_NAMES})}
        taught = self._names()
        forgotten, unknown = taught.forget(names, self._session.tables)
        if unknown:
            known = [name.shown for name in taught.current(self._session.tables)]
            return {"ok": False, "erro": words.render(
                "regras.nao_aprendido", {"nomes": unknown, "aprendidos": known})}
        return {"ok": True, "erro": None, "esquecidos": [name.shown for name in forgotten]}

    def close(self) -> None:
        with self._lock:
            if self._own is not None:
                self._own.close()
                self._own = None
