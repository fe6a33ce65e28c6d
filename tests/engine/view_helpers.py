"""What the view tests share: Hypothesis scripts of commands that put a GM secret (MARK) in
every GM-only text, to check it never reaches another viewer."""
from __future__ import annotations

from hypothesis import strategies as st

MARK = "XSEGREDOX"  # put in every GM-only text; must never reach another viewer

names = st.text(alphabet="abcdefghij", min_size=1, max_size=6)
COMMANDS = st.one_of(
    st.builds(lambda n: ("personagem", {"nome": n}), names),
    st.builds(lambda n: ("panico", {"personagem": n}), names),
    st.builds(lambda n: ("monstro", {"nome": f"{MARK} {n}"}), names),
    st.builds(lambda n: ("segredo", {"motivo": f"{MARK} {n}"}), names),
    st.builds(lambda v: ("responder", {"valor": v}), st.integers(-2, 25)),
    st.just(("responder", {})),
    st.just(("avancar", {})),
    st.just(("explorar", {})),
    st.just(("masmorra", {})),
    st.just(("turno", {})),
    st.just(("viagem", {})),
    st.just(("fugir", {})),
    st.sampled_from([("fuga", {"resultado": "sucesso"}), ("fuga", {"resultado": "falha"})]),
    st.builds(lambda n: ("estado", {}), names),
    st.builds(lambda n: ("derrotados", {"quantidade": 1, "criatura": n}), names),
)
