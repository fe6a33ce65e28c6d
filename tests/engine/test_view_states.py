"""view_states (every connected viewer's view at once) equals view_state for each viewer."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import Command, apply
from companion.engine.model import State, Travel
from companion.engine.view import view_state, view_states
from companion.tables.errors import CommandRejected

from tests.engine.view_helpers import COMMANDS, names
from tests.rules_helpers import new_character


@settings(max_examples=60, deadline=None)
@given(script=st.lists(COMMANDS, max_size=15), seed=st.integers(0, 10**6),
       lost=st.booleans(), characters=st.lists(names, min_size=1, max_size=4, unique=True),
       extra=st.lists(st.sampled_from(["gm", "public", "mesa", "player:", "player:ninguem"]),
                      max_size=3))
def test_view_states_equals_one_view_state_per_viewer(tables, script, seed, lost, characters,
                                                      extra):
    state = State(travel=Travel(lost=lost), party=tuple(
        new_character(id=n, name=n) for n in characters))
    for number, (name, args) in enumerate(script):
        try:
            state, _ = apply(state, Command(name, args), random.Random(f"{seed}:{number}"),
                             tables)
        except CommandRejected:
            continue
    viewers = [f"player:{n}" for n in characters] + extra
    together = view_states(state, viewers, tables)
    assert list(together) == list(dict.fromkeys(viewers))
    for viewer in viewers:
        alone = view_state(state, viewer, tables)
        assert together[viewer] == alone
        assert list(together[viewer]) == list(alone)  # same keys, same order
