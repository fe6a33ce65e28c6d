"""The server's Socket.IO packet (companion.server.wire_packet) and the views' comparison
(companion.server.fanout._differs): the same bytes and answers as what they replace."""
from __future__ import annotations

import math

import pytest
from socketio import packet
from socketio.packet import Packet

from companion.server.fanout import _differs
from companion.server.wire_packet import WirePacket

EVENT = {"seq": 12, "command": "rolar", "kind": "rolagem", "visibility": "public",
         "text": "Rolagem 1d20: 13 — ação", "data": {"resultados": [13], "peso": 1,
                                                     "x": {"a": [1, 2.5, None, True]}}}


@pytest.mark.parametrize("fields", [
    {"data": ["evento", EVENT], "namespace": "/"},
    {"data": ["evento", EVENT], "namespace": "/mesa", "id": 7},
    {"packet_type": packet.ACK, "data": [{"ok": True, "events": [EVENT]}], "id": 3},
    {"data": ["audio", b"\x00\x01", {"pedaco": bytearray(b"x")}], "namespace": "/"},
    {"packet_type": packet.CONNECT, "data": {"sid": "abc"}, "namespace": "/"},
    {"packet_type": packet.CONNECT_ERROR, "data": "Unable to connect", "namespace": "/"},
    {"packet_type": packet.DISCONNECT, "namespace": "/mesa"},
    {"data": ["tupla", (1, 2)]},
])
def test_same_packet_as_python_socketio(fields: dict) -> None:
    theirs, ours = Packet(**fields), WirePacket(**fields)
    assert ours.packet_type == theirs.packet_type
    assert ours.encode() == theirs.encode()


def test_binary_data_found_where_python_socketio_finds_it() -> None:
    for data in (["a", {"x": [b"1"]}], ["a", {"x": [1, (b"1",)]}], [], None, bytearray(),
                 {"k": {"j": [[[]], {"z": bytearray(b"x")}]}}, "texto", 5):
        assert WirePacket.data_is_binary(data) == Packet.data_is_binary(data)


def test_data_json_cannot_say_fails_the_same_way() -> None:
    with pytest.raises(TypeError):
        Packet(data=["x", {1, 2}]).encode()
    with pytest.raises(TypeError):
        WirePacket(data=["x", {1, 2}]).encode()


def test_views_compared_as_by_equality() -> None:
    shared = {"nome": "Lia", "pv": 3}
    pairs = [(1, 1), (1, 2), (1, 1.0), (None, []), ([1], [1, 2]), ({"a": [1]}, {"a": [2]}),
             ([shared, {"b": 1}], [dict(shared), {"b": 1}]), ([[1, 2], [3]], [[1, 2], [4]]),
             ([math.nan], [math.nan])]
    compared: dict = {}
    for old, new in pairs:
        assert _differs(old, new, compared) == (old != new), (old, new)
    nan = [float("nan")]
    assert _differs(nan, list(nan), {}) == (nan != list(nan))
