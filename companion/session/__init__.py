"""A table session: the imperative shell around the pure engine.

Every input — typed, spoken, tapped or sent over HTTP — goes the same way through `Session.run`:
parse → engine.apply(state, command, Random(dice), tables) → one SQLite transaction (the
command, its events, the state after it) → subscribers → the caller. A rejected command stores
and changes nothing.

History is kept, not recomputed (docs/design.md): reopening reads the newest stored state, and
`desfazer` marks the last state-changing command undone and goes back to the state stored before
it. `repetir` reads the history too: the last result the asker could see, chosen as the GM
page's last-result box chooses (companion.history.outcome), given back to the asker alone and
never stored. Dice: a command's RNG is derived from the campaign's secret (keyed:
companion.history.dice_keys; `--seed N` for tests) and its place among the standing commands
that change the state (`Session.dice_key`), so the same command given again after `desfazer`
rolls the same dice — undo corrects, it does not re-roll. The rules in force
are part of the campaign: each command names the rules version it ran under, and opening a
campaign whose last rules differ from these tables records, for the GM, what changed
(`regras_mudaram`) before anything else runs. A log written before stored history is migrated
once (companion.history.replay); a stored state that cannot be read back is rebuilt from the
newest readable one by replaying what follows, and the GM is told.

The session is in pieces, one job each, put together as `Session`: core (its state, its lock,
the one write path `_commit`, the disk-full guard), opening, notices (what opening tells the
GM), reading (the log read back, the subscribers told), parsing (the parse cache), running,
repeat, undo, rule_changes (the GM's rules), seats; each piece is a mixin over the core that
keeps no state of its own and reaches the others through `self` (each names the ones it
calls). campaign_files reads a campaign file offline, apart from any session.
"""
from __future__ import annotations

from companion.session.campaign_files import campaign_rules, campaign_state, verify_campaign
from companion.session.core import START_NUMBER, Core, quoted
from companion.session.notices import Notices
from companion.session.opening import Opening
from companion.session.parsing import PARSE_CACHE, Parsing, reading_context
from companion.session.reading import Reading
from companion.session.repeat import Repeat
from companion.session.rule_changes import RuleChanges
from companion.session.running import Running, describe, place_of
from companion.session.seats import Player, Seat, Seats
from companion.session.shapes import EventDict, RunResult, SessionError, Subscriber
from companion.session.undo import NOT_UNDOABLE, Undo

__all__ = ["EventDict", "NOT_UNDOABLE", "PARSE_CACHE", "Player", "RunResult", "START_NUMBER",
           "Seat", "Session", "SessionError", "Subscriber", "campaign_rules", "campaign_state",
           "describe", "place_of", "quoted", "reading_context", "verify_campaign"]


class Session(Opening, Notices, Reading, Parsing, Running, Repeat, Undo, RuleChanges, Seats,
              Core):
    """One table's session. Thread-safe: every read and write takes the session's lock."""
