"""The server's small pure parts: payload checks, token buckets, addresses and links."""
from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.tables.errors import AccessDenied
from companion.tables.files import Tables
from companion.server import access, qr
from companion.server.rooms import rooms_for
from tests.clock_helpers import Clock


def test_bucket_allows_capacity_then_refills_over_the_window() -> None:
    clock = Clock()
    bucket = access.TokenBucket(10, 5.0, clock)
    assert [bucket.take() for _ in range(12)] == [True] * 10 + [False] * 2
    clock.now = 0.5  # 2 tokens per second
    assert [bucket.take() for _ in range(2)] == [True, False]
    clock.now = 100.0
    assert sum(bucket.take() for _ in range(20)) == 10  # never more than the capacity


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(min_value=0, max_value=3, allow_nan=False), max_size=60))
def test_bucket_never_allows_more_than_the_rate(gaps: list[float]) -> None:
    """Over any run, accepted ≤ capacity + elapsed × capacity / window."""
    clock = Clock()
    bucket = access.TokenBucket(10, 5.0, clock)
    accepted = 0
    for gap in gaps:
        clock.now += gap
        accepted += bucket.take()
    assert accepted <= 10 + clock.now * 2 + 1e-9


def test_limiter_keys_are_independent() -> None:
    limiter = access.RateLimiter(2, 60.0, clock=Clock())
    assert [limiter.allow("a") for _ in range(3)] == [True, True, False]
    assert limiter.allow("b")
    limiter.forget("a")
    assert limiter.allow("a")


@given(payload=st.one_of(
    st.none(), st.integers(), st.floats(), st.lists(st.text()), st.text(),
    st.dictionaries(st.text(), st.one_of(st.none(), st.integers(), st.text()))))
def test_command_text_accepts_only_short_nonempty_strings(payload, tables: Tables) -> None:
    try:
        text = access.command_text(payload, tables.narration)
    except AccessDenied as refused:
        assert refused.message  # always a reason
        return
    assert isinstance(payload, dict) and isinstance(payload["text"], str)
    assert text == payload["text"].strip() and 0 < len(text) <= access.MAX_TEXT


@pytest.mark.parametrize("name, expected", [("  Ana  ", "Ana"), ("Ana   Clara", "Ana Clara"),
                                            ("João", "João")])
def test_player_names_are_tidied(name: str, expected: str, tables: Tables) -> None:
    assert access.player_name(name, tables.narration) == expected


@pytest.mark.parametrize("name", ["", "   ", "!!!", "x" * (access.MAX_NAME + 1), None, 3])
def test_bad_player_names(name, tables: Tables) -> None:
    with pytest.raises(AccessDenied):
        access.player_name(name, tables.narration)


@pytest.mark.parametrize("value, expected", [(None, 0), (0, 0), (17, 17)])
def test_since_values(value, expected: int, tables: Tables) -> None:
    assert access.since_value(value, tables.narration) == expected


@pytest.mark.parametrize("value", [-1, "3", 2.5, True, [1]])
def test_bad_since_values(value, tables: Tables) -> None:
    with pytest.raises(AccessDenied, match="desde"):
        access.since_value(value, tables.narration)


def test_tokens_compare_exactly() -> None:
    assert access.same_token("abc", "abc")
    assert not access.same_token("abd", "abc")
    assert not access.same_token("", "")
    assert not access.same_token(None, "abc")
    assert not access.same_token(["abc"], "abc")
    assert access.bearer_token("Bearer abc ") == "abc"
    assert access.bearer_token("bearer abc") == "abc"
    assert access.bearer_token("Basic abc") is None
    assert access.bearer_token(None) is None


def test_security_headers_never_allow_other_origins() -> None:
    policy = access.security_headers("192.168.0.5:5000")["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "ws://192.168.0.5:5000" in policy
    assert "*" not in policy and "unsafe" not in policy
    hostile = access.security_headers("x; script-src *")["Content-Security-Policy"]
    assert "script-src *" not in hostile and "*" not in hostile


@pytest.mark.parametrize("visibility, rooms", [
    ("public", ["public"]), ("gm", ["gm"]), ("player:ana", ["player:ana", "gm"]),
])
def test_rooms_for_each_visibility(visibility: str, rooms: list[str]) -> None:
    assert rooms_for(visibility) == rooms


def test_lan_address_prefers_private_ipv4() -> None:
    assert qr._pick(["127.0.0.1", "169.254.3.3", "8.8.8.8", "192.168.1.20"]) == "192.168.1.20"
    assert qr._pick(["127.0.0.1", "fe80::1", "not an ip"]) is None
    assert qr._pick(["127.0.0.1", "203.0.113.9"]) == "203.0.113.9"
    found = ipaddress.IPv4Address(qr.lan_ip())  # whatever this machine has, a real IPv4
    assert not found.is_link_local and not found.is_unspecified


def test_links_and_banner(tables: Tables) -> None:
    links = qr.Links("http://192.168.1.20:5000", "a b/c")
    assert links.player == "http://192.168.1.20:5000/jogador"
    assert links.table == "http://192.168.1.20:5000/mesa"
    assert links.gm == "http://192.168.1.20:5000/mestre#token=a%20b%2Fc"  # never sent
    text = qr.banner(links, tables.narration)
    assert links.player in text and links.gm in text and links.table in text
    assert "█" not in text and "▀" not in text  # the QR code is on the pages, not drawn here
    assert "QR code" in text
    assert qr.base_url("10.1.2.3", 8000) == "http://10.1.2.3:8000"
    assert qr.base_url("0.0.0.0", 5000).startswith("http://")
    assert ":5000" in qr.base_url("0.0.0.0", 5000)
