"""What a command's dice derive from: the campaign's secret and the command's place.

A campaign keeps a 128-bit secret (the meta row of its log). Each command's RNG is seeded with
its dice key, `HMAC-SHA256(secret, place)` followed by `:place`: nobody who sees the public rolls
can find the secret and predict the GM's next secret roll, while the same place gives the same
key, so `desfazer` and the same command again roll the same dice. The key is stored with each
command (history is kept, not recomputed): a campaign that changes its secret keeps the keys its
past commands ran with.

`--seed N` is for tests only: the key is then `N:place`, predictable on purpose (the golden
files depend on it). A campaign created before secrets kept a small random seed the same way;
opened without `--seed`, it gets a secret for its commands from then on (the session tells the
GM).
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import Iterable

SECRET_BYTES = 16  # 128 bits
KEYED_LENGTH = 2 * hashlib.sha256().digest_size + 2  # the shortest keyed key: digest, ':', place
ON_PURPOSE = "semente"  # the meta's secret of a campaign made with --seed N: no secret, by choice
_SECRET = re.compile(r"[0-9a-f]{32}")


def new_secret() -> str:
    """A fresh campaign secret, as stored (hex)."""
    return secrets.token_hex(SECRET_BYTES)


def is_secret(value: str | None) -> bool:
    """Whether a meta's secret is a real one (not absent, not the --seed marker)."""
    return value is not None and _SECRET.fullmatch(value) is not None


def dice_key(seed: str, secret: str | None, place: int) -> str:
    """The dice key of the command at `place`: keyed by the secret when the campaign has one,
    `seed:place` when it runs on a seed (--seed N, or an old campaign's small seed)."""
    if not is_secret(secret):
        return f"{seed}:{place}"
    assert secret is not None
    digest = hmac.new(bytes.fromhex(secret), f"lugar:{place}".encode(), hashlib.sha256)
    return f"{digest.hexdigest()}:{place}"


def must_rekey(seed_given: bool, secret: str | None) -> bool:
    """Whether an opened campaign moves to a new secret now: it has a small seed from before
    secrets and nobody asked for that seed (--seed) to go on."""
    return secret is None and not seed_given


def seeded_places(keys: Iterable[str]) -> dict[int, str]:
    """Place → the newest seed key stored for it (keys oldest first): the keys a campaign's
    commands ran with before it had a secret."""
    places: dict[int, str] = {}
    for key in keys:
        tail = key.rsplit(":", 1)[-1]
        if ":" in key and tail.isdigit() and len(key) < KEYED_LENGTH:
            places[int(tail)] = key
    return places
