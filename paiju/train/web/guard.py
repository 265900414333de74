"""What the trainer answers at all: the checks every request passes before the app sees it,
the headers every response carries, and strict JSON bodies.

- **Host**: only the names the server is reached by — 127.0.0.1, localhost, [::1], the
  address the connection came in on, the ``--host`` it was started with and each
  ``--allow-host`` — with the port it listens on. A DNS-rebinding page (its own name
  pointed at 127.0.0.1) sends its own name and is refused (400).
- **Origin**: a request that changes anything (any method but GET, HEAD, OPTIONS) must
  show it comes from this server's own page: its ``Origin`` (else ``Sec-Fetch-Site:
  same-origin``, else a same-origin ``Referer``). A client that sends none of them (curl,
  a script) may read but not write: it adds ``-H 'Origin: http://127.0.0.1:PORT'``. A
  foreign ``Origin`` is refused on any method (403).
- **Content-Type**: a state change's body is JSON, ``application/json`` (415), which no
  other site can send without a CORS preflight this server never grants.
- **Size**: a body over ``MAX_BODY`` is refused on its Content-Length before it is read,
  and while it streams otherwise (413, and the connection closes).
- **Failures**: any exception becomes a JSON 500 with the security headers and one log
  line, never a traceback.
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect
from starlette.responses import JSONResponse

MAX_BODY = 64 * 1024
MAX_DEPTH = 4
"""Nesting of a request body (the API takes an object holding lists, 2 levels)."""
MAX_DIGITS = 18
"""Digits of a whole number in a request body (ids, counts and seeds need far fewer)."""

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})
WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::", "[::]"})

APP_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
           "frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}

_HOST = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::([0-9]{1,5}))?", re.ASCII)
_log = logging.getLogger("paiju.train.web")


class BodyTooLarge(HTTPException):
    def __init__(self) -> None:
        super().__init__(413, f"request too large (at most {MAX_BODY} bytes)", headers={"Connection": "close"})


class BadJson(ValueError):
    """A request body that is not the strict JSON the API takes, with the reason in words."""


# ---------------------------------------------------------------------------------------------
# Host names


def host_name(text: str) -> str:
    """``text`` as the Host header names it: lower case, an IPv6 address in brackets."""
    name = text.strip().lower()
    if ":" in name and not name.startswith("["):
        name = f"[{name}]"
    return name


def served_names(host: str, allowed: Iterable[str] = ()) -> frozenset[str]:
    """The Host names a server bound to ``host`` answers besides the loopback names and the
    address each connection arrives on: ``host`` itself unless it is a wildcard, and the
    names a deliberate deployment allows (``--allow-host``)."""
    names = {host_name(name) for name in allowed}
    if host_name(host) not in WILDCARD_HOSTS:
        names.add(host_name(host))
    return frozenset(names)


def _default_port(scheme: str) -> int:
    return 443 if scheme in ("https", "wss") else 80


def _split_host(value: str) -> tuple[str, int | None] | None:
    match = _HOST.fullmatch(value.strip().lower())
    if match is None:
        return None
    return match.group(1), int(match.group(2)) if match.group(2) else None


def _origin_of(url: str) -> tuple[str, str, int] | None:
    """(scheme, host name, port) of an Origin or Referer value; None if it is not one."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return parts.scheme, host_name(parts.hostname), port if port is not None else _default_port(parts.scheme)


# ---------------------------------------------------------------------------------------------
# Middleware


REFUSED_ZH = {400: "请求有误", 403: "请求被拒绝", 404: "找不到", 409: "现在不能这样做", 413: "请求过大",
              415: "请求须为 JSON", 500: "服务器无法回答"}
"""A refusal's words in Chinese, by status, when it has none of its own (the English names the detail)."""


def _error(status: int, message: str) -> JSONResponse:
    """A refusal: Chinese first, the English detail beside (``error_zh`` / ``error_en`` alone)."""
    headers = {"Connection": "close"} if status == 413 else None
    zh = REFUSED_ZH.get(status, "请求有误")
    return JSONResponse({"error": f"{zh}（{message}）", "error_zh": zh, "error_en": message}, status_code=status,
                        headers=headers)


class RequestGuard:
    """ASGI middleware: Host, Origin, Content-Type and size checks (see the module doc)."""

    def __init__(self, app: Any, names: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.names = LOOPBACK_NAMES | names

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = self.refusal(scope, Headers(scope=scope))
        if refused is not None:
            await _error(*refused)(scope, receive, send)
            return
        received = 0

        async def limited() -> Any:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > MAX_BODY:
                    raise BodyTooLarge()
            return message

        await self.app(scope, limited, send)

    def refusal(self, scope: Any, headers: Headers) -> tuple[int, str] | None:
        """(status, reason) if the request is refused, else None."""
        scheme = scope.get("scheme", "http")
        host = _split_host(headers.get("host", ""))
        server = scope.get("server")
        if host is None:
            return 400, f"this server does not answer to the host {headers.get('host', '')[:80]!r}"
        name, port = host
        served_port = server[1] if server and server[1] is not None else None
        local = {host_name(server[0])} if server and server[0] else set()
        effective = port if port is not None else _default_port(scheme)
        if name not in self.names | local or (served_port is not None and effective != served_port):
            return 400, (f"this server does not answer to the host {name}{'' if port is None else f':{port}'} "
                         "(start it with --allow-host NAME to serve another name)")
        own = (scheme, name, effective)
        origin = headers.get("origin")
        if origin is not None and _origin_of(origin) != own:
            return 403, f"cross-origin request refused: {origin[:80]!r} is not this server's page"
        if scope["method"] not in SAFE_METHODS:
            if origin is None and not self._same_origin_without_origin(headers, own):
                return 403, ("a request that changes anything must come from this server's page "
                             "(from a script: send the header Origin: "
                             f"{scheme}://{name}{'' if port is None else f':{port}'})")
            length = headers.get("content-length")
            if length is not None and (not length.isascii() or not length.strip().isdigit()):
                return 400, "Content-Length is not a number"
            if length is not None and int(length) > MAX_BODY:
                return 413, f"request too large (at most {MAX_BODY} bytes)"
            media = headers.get("content-type", "").split(";")[0].strip().lower()
            if media != "application/json":
                return 415, "the request body must be JSON (Content-Type: application/json)"
        return None

    @staticmethod
    def _same_origin_without_origin(headers: Headers, own: tuple[str, str, int]) -> bool:
        site = headers.get("sec-fetch-site")
        if site is not None:
            return site.strip().lower() == "same-origin"
        referer = headers.get("referer")
        return referer is not None and _origin_of(referer) == own


class SecurityHeaders:
    """ASGI middleware: the app's CSP (unless a response set its own) and the usual
    hardening on every response; any exception answered with a JSON 500 that carries them
    too, and logged in one line (the request's method and path, the exception's type)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def with_headers(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = MutableHeaders(scope=message)
                if "content-security-policy" not in headers:
                    headers["Content-Security-Policy"] = APP_CSP
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
                if "cache-control" not in headers:
                    headers["Cache-Control"] = "no-store"
            await send(message)

        try:
            await self.app(scope, receive, with_headers)
        except ClientDisconnect:
            return                  # the client went away: nobody to answer
        except Exception as exc:
            first = (str(exc).splitlines() or [""])[0][:200]
            _log.error("internal error answering %s %r: %s%s", scope.get("method"), scope.get("path"),
                       type(exc).__name__, f": {first!r}" if first else "")
            if not started:
                response = _error(500, f"the server could not answer: {type(exc).__name__}")
                await response(scope, receive, with_headers)


# ---------------------------------------------------------------------------------------------
# Strict JSON


def _refuse_constant(name: str) -> Any:
    raise BadJson(f"{name} is not a number JSON allows")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise BadJson(f"number {text[:20]} is out of range")
    return number


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise BadJson(f"number {text[:20]}… has too many digits")
    return int(text)


def nesting(value: Any) -> int:
    """How deep the arrays and objects of a parsed JSON value nest (a scalar: 0)."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth)
            if depth <= MAX_DEPTH:             # deeper is refused anyway: no need to go on
                stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def json_object(raw: bytes) -> dict[str, Any]:
    """A request body as a JSON object, strictly: UTF-8, no NaN or Infinity, no number out
    of a float's range, no whole number over ``MAX_DIGITS`` digits, at most ``MAX_DEPTH``
    levels deep (an empty body is an empty object). Raises BadJson with the reason."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadJson("the body is not UTF-8 text") from None
    if not text.strip():
        return {}
    too_deep = BadJson(f"nested more than {MAX_DEPTH} levels deep")
    try:
        data = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite, parse_int=_whole)
    except BadJson:
        raise
    except RecursionError:             # the C parser's own bound (about a thousand levels)
        raise too_deep from None
    except ValueError:
        raise BadJson("malformed JSON") from None
    if nesting(data) > MAX_DEPTH:
        raise too_deep
    if not isinstance(data, dict):
        raise BadJson("the request must be a JSON object")
    return data
