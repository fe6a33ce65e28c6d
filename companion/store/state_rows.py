"""The state after each command, packed (companion/store/packing.py): one whole every
KEYFRAME_EVERY commands or more, only what changed in between; and the one-time filling of a
log written before stored history (its dice keys, rules versions, states and narrations)."""
from __future__ import annotations

import sqlite3
from typing import Any, Mapping, Sequence

from companion.store import file_format
from companion.store.connection import transaction
from companion.store.event_json import pack as pack_json
from companion.store.packing import ChangedState, PackedStates, StateDamaged, StoredState
from companion.store.packing import delta, pack
from companion.store.packing import pack_delta
from companion.store.packing import loads as unpack_json
from companion.store.records import Last, words_json

KEYFRAME_EVERY = 64  # fewest commands between two states stored whole (store/packing.py)
KEYFRAME_MOST = 512  # most commands between two (reading a state applies at most this many)
KEYFRAME_WEIGHT = 2  # a keyframe once the deltas since the last weigh this many times it


class StateRows:
    """The `states` table: read back, and each new state packed against the newest."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        # the newest stored state, to pack the next one against; None before it is read (or
        # when there is none)
        self._last: Last | None = None
        self._last_read = False
        self._appended: int | None = None  # the command whose state `_last` is, stored by append

    def stored(self, last: Last) -> None:
        """The state `pack` made was stored (by the log's append): the next is packed against
        it."""
        self._last = last
        self._appended = last.n

    def states(self, first: int = -1, last: int | None = None) -> PackedStates:
        """The stored states of the commands numbered first..last (and those before them in
        their chains, from their keyframes), packed as stored."""
        upper = last if last is not None else 1 << 62
        row = self._db.execute("SELECT MIN(COALESCE(base, n)) FROM states WHERE n BETWEEN ? "
                               "AND ?", (first, upper)).fetchone()
        start = row[0] if row and row[0] is not None else first
        rows = {n: (f, b, bytes(blob)) for n, f, b, blob in self._db.execute(
            "SELECT n, format, base, state FROM states WHERE n BETWEEN ? AND ?",
            (min(start, first), upper))}
        return PackedStates(rows)

    def state_after(self, n: int) -> StoredState:
        """The state stored after command n (StateDamaged when it cannot be unpacked)."""
        return self.states(n, n).get(n)

    def state_numbers(self, below: int | None = None) -> list[int]:
        """The commands with a stored state (those numbered below `below`), newest first."""
        upper = below if below is not None else 1 << 62
        return [n for (n,) in self._db.execute(
            "SELECT n FROM states WHERE n < ? ORDER BY n DESC", (upper,))]

    def keyframes(self) -> list[int]:
        """The commands whose state is stored whole."""
        return [n for (n,) in self._db.execute(
            "SELECT n FROM states WHERE base IS NULL ORDER BY n")]

    def pack(self, n: int, state: StoredState | ChangedState
             ) -> tuple[int | None, bytes, Last]:
        """(keyframe number or None, bytes, what becomes the last state) of a state about to
        be stored after command n: whole after a change of format, when the state before
        cannot be read, or once KEYFRAME_EVERY commands have passed since the last keyframe
        and their deltas weigh KEYFRAME_WEIGHT times as much as it (a large state — thousands
        of secret notes — is kept whole less often; never more than KEYFRAME_MOST commands
        apart); else what changed since the last. A ChangedState relative to the newest
        state stored is packed from its changed fields alone (the same bytes)."""
        last = self._newest()
        if last is not None and last.format == state.format and n > last.n:
            since = n - last.keyframe
            if since < KEYFRAME_EVERY or (since < KEYFRAME_MOST and last.deltas
                                          < KEYFRAME_WEIGHT * last.keyframe_bytes):
                value, change = self._changed(last, state)
                blob = pack_delta(change)
                return last.keyframe, blob, Last(n, state.format, last.keyframe, value,
                                                 last.keyframe_bytes, last.deltas + len(blob))
        value = unpack_json(_whole(state))
        blob = pack(value)
        return None, blob, Last(n, state.format, n, value, len(blob), 0)

    def _changed(self, last: Last, state: StoredState | ChangedState
                 ) -> tuple[dict[str, Any], dict[str, Any]]:
        """(the state as a JSON object, its delta from `last`): from a ChangedState's fields
        when it is relative to `last` (the newest state, stored by this log's append), else
        from the whole state."""
        if isinstance(state, ChangedState) and state.since == last.n == self._appended \
                and all(key in last.value for key in state.fields):
            fields = {key: unpack_json(raw) for key, raw in state.fields.items()}
            value = {**last.value, **fields}
            return value, delta({key: last.value[key] for key in fields}, fields)
        value = unpack_json(_whole(state))
        return value, delta(last.value, value)

    def _newest(self) -> Last | None:
        """The newest stored state (read once; None when there is none or it is damaged)."""
        if not self._last_read:
            self._last_read = True
            row = self._db.execute("SELECT n, format, base FROM states ORDER BY n DESC "
                                   "LIMIT 1").fetchone()
            if row is not None:
                try:
                    self._last = self._chain_of(row[0], row[1], row[2])
                except StateDamaged:
                    self._last = None  # the next state starts a new keyframe
        return self._last

    def _chain_of(self, n: int, format: int, base: int | None) -> Last:
        """The stored state after command n as the last one to pack against: its value, its
        keyframe and the bytes of that keyframe and of the deltas after it."""
        key = base if base is not None else n
        whole, deltas = self._db.execute(
            "SELECT SUM(CASE WHEN n = ? THEN length(state) ELSE 0 END), "
            "SUM(CASE WHEN n = ? THEN 0 ELSE length(state) END) FROM states "
            "WHERE n BETWEEN ? AND ? AND (n = ? OR base = ?)",
            (key, key, key, n, key, key)).fetchone()
        return Last(n, format, key, self.states(n, n).value(n), int(whole or 0),
                    int(deltas or 0))

    def fill(self, filled: Sequence[tuple[int, str, int, StoredState]],
             narrations: Mapping[int, tuple[str, Mapping[str, Any]]],
             migration: bool = False) -> None:
        """Store, in ONE transaction, each command's dice key, rules version and state after
        it (n, dice, rules, state) and the narration of events that had none (seq → code,
        words). With `migration` (a log written before stored history), also drop the old
        snapshots and mark the log as keeping history. States are packed from the one stored
        before the first of them; any failure stores nothing (and forgets the packing)."""
        first = min((n for n, *_ in filled), default=0)
        below = self.state_numbers(below=first)
        try:
            if below:
                row = self._db.execute("SELECT format, base FROM states WHERE n = ?",
                                       (below[0],)).fetchone()
                before: Last | None = self._chain_of(below[0], row[0], row[1])
            else:
                before = None
        except StateDamaged:
            before = None
        self._last, self._last_read, self._appended = before, True, None
        packed = []
        for n, dice, rules, state in filled:
            base, blob, self._last = self.pack(n, state)
            packed.append((n, dice, rules, state.format, base, blob))
        try:
            self._store_filled(packed, narrations, migration)
        except BaseException:
            self._last, self._last_read = None, False  # read again from what was stored
            self._appended = None
            raise

    def _store_filled(self, packed: Sequence[tuple[int, str, int, int, int | None, bytes]],
                      narrations: Mapping[int, tuple[str, Mapping[str, Any]]],
                      migration: bool) -> None:
        with transaction(self._db) as db:
            for n, dice, rules, format, base, blob in packed:
                db.execute("UPDATE commands SET dice = ?, rules = ? WHERE n = ?",
                           (dice, rules, n))
                db.execute("INSERT OR REPLACE INTO states (n, format, base, state) "
                           "VALUES (?, ?, ?, ?)", (n, format, base, blob))
            for seq, (code, words) in narrations.items():
                db.execute("UPDATE events SET code = ?, words = ? WHERE seq = ? AND code IS NULL",
                           (code, pack_json(words_json(words)), seq))
            if migration:
                db.execute("DROP TABLE IF EXISTS snapshots")
                file_format.record(db)


def _whole(state: StoredState | ChangedState) -> bytes:
    """The whole state's JSON."""
    return state.whole() if isinstance(state, ChangedState) else state.raw
