"""What one device may cost the table: commands per token and per address, connections per
address.

A connection's commands are counted against its token (the GM's, a player's) and against the
address it came from, so neither many connections with one token nor many tokens from one
address get past the limit (a per-connection count alone was bypassed by opening more
connections). The refusals are in Portuguese: access.rate_limited for a token, and
tables/narracao/limites.yaml for an address.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from companion.server import access
from companion.server.rooms import Client
from companion.tables.files import Tables

CONNECTIONS_PER_ADDRESS = 32  # live or being welcomed, from one address (a phone, a laptop)
# Socket.IO connections (each a welcome) one address may open per RECONNECT_WINDOW seconds: a
# device may open all its connections at once, then one every second or so (the laptop's own
# are not counted: companion.server.hosts.on_laptop)
RECONNECTS_PER_ADDRESS = CONNECTIONS_PER_ADDRESS
RECONNECT_WINDOW = 30.0
ADDRESS_FACTOR = 3  # an address may send this many times one token's budget (a shared phone)


def token_key(client: Client) -> str:
    """What a connection's commands are counted against: its token (the table screen has
    none and runs no command: its sid then)."""
    return f"token:{client.token}" if client.token else f"sid:{client.sid}"


def address_key(client: Client) -> str:
    return f"addr:{client.address}"


@dataclass(frozen=True)
class Budget:
    """One role's commands: `per_token` and `per_address` limiters (both must allow)."""

    per_token: access.Limiter
    per_address: access.Limiter

    @property
    def capacity(self) -> float:
        return self.per_token.capacity

    def refusal(self, client: Client, tables: Tables) -> str | None:
        """Spend one command of the client's token and of its address; the Portuguese
        refusal when either is exhausted (None: go ahead)."""
        if not self.per_token.allow(token_key(client)):
            return access.rate_limited(int(self.per_token.capacity), tables.narration)
        if not self.per_address.allow(address_key(client)):
            return tables.narration.render("limites.comandos_endereco", {
                "capacidade": int(self.per_address.capacity),
                "segundos": f"{access.WINDOW_SECONDS:g}"})
        return None


def budget(per_token: access.Limiter | None, capacity: int, limits: bool) -> Budget:
    """A role's budget: `per_token` (a test's limiter with a frozen clock) or `capacity` per
    window, and ADDRESS_FACTOR times that per address, on the same clock; `limits=False`:
    none (`--sem-limites`, loopback only)."""
    if not limits:
        return Budget(access.NoLimit(), access.NoLimit())
    token = per_token or access.RateLimiter(capacity, access.WINDOW_SECONDS)
    clock = token.clock if isinstance(token, access.RateLimiter) else time.monotonic
    return Budget(token, access.RateLimiter(token.capacity * ADDRESS_FACTOR,
                                            access.WINDOW_SECONDS, clock=clock))


def too_many_connections(tables: Tables, cap: int) -> str:
    """The refusal of a connection over the per-address cap."""
    return tables.narration.render("limites.conexoes", {"limite": cap})


def too_many_reconnects(tables: Tables, capacity: float, window: float) -> str:
    """The refusal of a connection past the per-address reconnection rate."""
    return tables.narration.render("limites.reconexoes", {"capacidade": int(capacity),
                                                          "segundos": f"{window:g}"})
