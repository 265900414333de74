"""The trainer's HTTP server: uvicorn with h11, and deadlines so that no connection is held
open by a client that sends nothing or sends a request slowly.

uvicorn closes a keep-alive connection idle after a response (``KEEP_ALIVE`` seconds), but
not a new connection that sends nothing, nor one that sends half a request: a few such
sockets would hold the server's connections for ever. ``DeadlineProtocol`` gives each
request ``read_timeout`` seconds to arrive whole (its head and its body), counted from the
connection opening or from the first byte after an idle keep-alive; past it the client gets
a 408 (or, if it sent nothing, just the close). h11 refuses a request head still unfinished
past ``MAX_HEAD`` bytes at once (400); the body is bounded by the app (``guard.MAX_BODY``).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from paiju.train.web.command import READ_TIMEOUT
from paiju.train.web.guard import SECURITY_HEADERS

KEEP_ALIVE = 5
MAX_HEAD = 16 * 1024
"""Bytes of an unfinished request line and headers h11 holds (its own default, said here)."""

_WAITING = (h11.IDLE, h11.SEND_BODY)
"""The client's h11 states in which a request is still being received."""


class DeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on receiving each request (see the module doc)."""

    read_timeout = READ_TIMEOUT
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._deadline is None and self.conn.their_state is h11.IDLE:
            self._arm()                   # the first bytes after an idle keep-alive
        super().data_received(data)
        self._settle()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # a pipelined request already begun: uvicorn's keep-alive timer does not cover it
        if self.conn.their_state is h11.SEND_BODY and self._deadline is None:
            self._arm()
        self._settle()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _settle(self) -> None:
        if self.conn.their_state not in _WAITING:
            self._disarm()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.read_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or self.conn.their_state not in _WAITING:
            return
        if self.conn.their_state is h11.IDLE:
            answer = bool(self.conn.trailing_data[0])          # half a request head
        else:
            answer = self.cycle is not None and not self.cycle.response_started   # half a body
        if answer:
            self.transport.write(_timeout_response(self.read_timeout))
        self.transport.close()


def _timeout_response(seconds: float) -> bytes:
    body = json.dumps({"error": f"the request did not arrive whole within {seconds:g} s"}).encode()
    headers = {"Content-Type": "application/json", "Content-Length": str(len(body)), "Connection": "close",
               "Content-Security-Policy": "default-src 'none'", "Cache-Control": "no-store", **SECURITY_HEADERS}
    head = "HTTP/1.1 408 Request Timeout\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
    return head.encode("ascii") + body


def protocol_with(read_timeout: float) -> type[DeadlineProtocol]:
    """The protocol class with a ``read_timeout`` of that many seconds."""

    class Configured(DeadlineProtocol):
        pass

    Configured.read_timeout = read_timeout
    return Configured


def server_config(app: Any, host: str, port: int, read_timeout: float = READ_TIMEOUT) -> uvicorn.Config:
    """uvicorn's configuration for the trainer: h11 with the read deadline, the keep-alive
    timeout and the head limit set here rather than left to defaults."""
    return uvicorn.Config(app, host=host, port=port, log_level="warning", http=protocol_with(read_timeout),
                          timeout_keep_alive=KEEP_ALIVE, h11_max_incomplete_event_size=MAX_HEAD)
