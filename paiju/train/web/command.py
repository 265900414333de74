"""`paiju train serve`: run the training web app (needs the `web` extra)."""

from __future__ import annotations

import argparse
import errno
import ipaddress
import os
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from paiju.arguments import examples, input_path, output_path, port_number, seconds_in
from paiju.train.web.limits import READ_TIMEOUT
from tabletop.errors import OptionError

if TYPE_CHECKING:   # socket and secrets are imported when serving: every `paiju` process builds this parser
    import socket

DEFAULT_PORT = 8765


def host_to_allow(text: str) -> str:
    """An --allow-host NAME: a host name, an IPv4 address or an IPv6 one (brackets optional)."""
    name = text.strip().lower()
    try:
        return str(ipaddress.ip_address(name.strip("[]")))
    except ValueError:
        pass
    if not re.fullmatch(r"[a-z0-9]([a-z0-9._-]*[a-z0-9])?", name, flags=re.ASCII):
        raise argparse.ArgumentTypeError(f"{text!r} is not a host name (the name alone: no scheme, no port)")
    return name


def add_parser(actions: Any, seed: Callable[[str], int]) -> None:
    serve = actions.add_parser(
        "serve", help="the training web app in your browser (pip install 'paiju[web]')",
        description="Serve the referee-training web app: practice, exams, live deals, progress.",
        epilog=examples("paiju train serve", "paiju train serve --from pack/ --db class.sqlite3 --port 8080"))
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=port_number, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    serve.add_argument("--allow-host", dest="allow_hosts", action="append", default=[], metavar="NAME",
                       type=host_to_allow,
                       help="also answer requests addressed to this host name (a deliberate LAN deployment: "
                            "the name others type; repeatable). Always answered: 127.0.0.1, localhost, [::1], "
                            "--host and the address a request arrives on")
    serve.add_argument("--read-timeout", type=seconds_in(0.1, 3600), default=READ_TIMEOUT, metavar="SECONDS",
                       help=f"time a client has to send a whole request (default {READ_TIMEOUT:g})")
    serve.add_argument("--db", type=output_path("--db"), metavar="FILE", help="the progress database (default: paiju/training.sqlite3 "
                                                    "in your data directory)")
    serve.add_argument("--from", dest="serve_source", type=input_path("--from"), metavar="DIR",
                       help="train on the scenarios of a pack or of the logs in DIR (default: generated)")
    serve.add_argument("--instructor-key", metavar="KEY",
                       help="the key the instructor's views (every trainee's records, the CSV export) ask for "
                            "(default: a new random key, printed at start)")
    serve.add_argument("--seed", dest="serve_seed", type=seed, default=0, metavar="S",
                       help="seed of the generated scenarios (default 0)")


def serve_command(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from paiju.train.web.app import create_app
        from paiju.train.web.guard import served_names
        from paiju.train.web.server import server_config
    except ImportError as exc:
        raise OptionError(f"paiju train serve needs the web extra: pip install 'paiju[web]' ({exc.name} is missing)") from None
    from paiju.train.web.bank import ScenarioBank
    from paiju.train.web.store import Store, default_db_path

    bank = ScenarioBank(seed=args.serve_seed, source=args.serve_source)
    path = args.db or default_db_path()
    try:
        if args.db is None:   # the default's directory is paiju's to make; a --db FILE's is the user's
            os.makedirs(os.path.dirname(path), exist_ok=True)
        store = Store(path)
    except Exception as exc:  # sqlite3 and OS errors alike: one line, no traceback
        raise OptionError(f"--db {path}: cannot open it as a training database ({exc})") from None
    listening = _listen(args.host, args.port)   # a port in use is refused before serving is announced
    if not _loopback(args.host):
        print(f"WARNING: serving on {args.host}: anyone who can reach this address can use the trainer "
              f"and read every trainee's progress", file=sys.stderr)
    import secrets

    key = args.instructor_key or secrets.token_urlsafe(9)
    print(f"paiju training at http://{args.host}:{args.port}/  (progress in {path}; Ctrl-C stops)", file=sys.stderr)
    print(f"instructor key: {key}  (for the 教练 tab and the CSV export; keep it from trainees)", file=sys.stderr)
    config = server_config(create_app(bank, store, served_names(args.host, args.allow_hosts), key), args.host,
                           args.port, args.read_timeout)
    uvicorn.Server(config).run(sockets=[listening])
    return 0


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port`` (for the server to serve on), or a one-line error."""
    import socket

    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        listening = socket.socket(family, socket.SOCK_STREAM)
    except OSError as exc:
        raise OptionError(f"--host {host!r}: cannot listen there ({exc.strerror or exc})") from None
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host, port))
        listening.listen(128)
    except OSError as exc:
        listening.close()
        reason = "the port is in use" if exc.errno == errno.EADDRINUSE else exc.strerror or str(exc)
        raise OptionError(f"cannot serve on {host}:{port}: {reason}") from None
    listening.set_inheritable(True)
    return listening


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
