"""The Socket.IO packet the server sends: python-socketio's own, its JSON written once.

Every message the server builds asks whether its data holds bytes (a binary packet is sent
differently), then encodes it. python-socketio answers the first by a recursion that builds a
list at every level and never stops early: it cost the fan-out more than encoding the JSON
itself (issue 33's profile). Here the data is encoded first: JSON has no bytes, so data that
encodes holds none, and that text is the packet's (the same call python-socketio makes: the
same bytes). Data that does not encode is asked the old way.
"""
from __future__ import annotations

from typing import Any

from socketio import packet
from socketio.packet import Packet

SEPARATORS = (",", ":")  # python-socketio's own (Packet.encode)


class WirePacket(Packet):
    """python-socketio's packet, its data encoded once and checked for bytes by encoding it."""

    def __init__(self, packet_type: int = packet.EVENT, data: Any = None,
                 namespace: str | None = None, id: int | None = None,
                 binary: bool | None = None, encoded_packet: Any = None) -> None:
        self.text: str | None = None  # the data's JSON, once encoded
        if binary is None and encoded_packet is None and data is not None:
            try:
                self.text = self.json.dumps(data, separators=SEPARATORS)
                binary = False
            except TypeError:  # bytes (a binary packet), or a value JSON cannot say
                self.text = None
        super().__init__(packet_type, data, namespace, id, binary, encoded_packet)

    def encode(self) -> Any:
        """The packet as python-socketio encodes it, reusing the data's JSON."""
        if self.text is None or self.packet_type not in (packet.EVENT, packet.ACK):
            return super().encode()
        encoded = str(self.packet_type)
        if self.namespace is not None and self.namespace != "/":
            encoded += self.namespace + ","
        if self.id is not None:
            encoded += str(self.id)
        return encoded + self.text

    @classmethod
    def data_is_binary(cls, data: Any) -> bool:
        """Whether `data` holds bytes anywhere in its lists and dicts (a flat scan)."""
        waiting = [data]
        while waiting:
            item = waiting.pop()
            if isinstance(item, (bytes, bytearray)):
                return True
            if isinstance(item, list):
                waiting.extend(item)
            elif isinstance(item, dict):
                waiting.extend(item.values())
        return False
