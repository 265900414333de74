"""`paiju train serve`: run the training web app (needs the `web` extra)."""

from __future__ import annotations

import argparse
import ipaddress
import sys
from collections.abc import Callable
from typing import Any

from paiju.arguments import examples, input_path, output_path, port_number
from tabletop.errors import OptionError

DEFAULT_PORT = 8765


def add_parser(actions: Any, seed: Callable[[str], int]) -> None:
    serve = actions.add_parser(
        "serve", help="the training web app in your browser (pip install 'paiju[web]')",
        description="Serve the referee-training web app: practice, exams, live deals, progress.",
        epilog=examples("paiju train serve", "paiju train serve --from pack/ --db class.sqlite3 --port 8080"))
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=port_number, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    serve.add_argument("--db", type=output_path("--db"), metavar="FILE", help="the progress database (default: paiju/training.sqlite3 "
                                                    "in your data directory)")
    serve.add_argument("--from", dest="serve_source", type=input_path("--from"), metavar="DIR",
                       help="train on the scenarios of a pack or of the logs in DIR (default: generated)")
    serve.add_argument("--seed", dest="serve_seed", type=seed, default=0, metavar="S",
                       help="seed of the generated scenarios (default 0)")


def serve_command(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from paiju.train.web.app import create_app
    except ImportError as exc:
        raise OptionError(f"paiju train serve needs the web extra: pip install 'paiju[web]' ({exc.name} is missing)") from None
    from paiju.train.web.bank import ScenarioBank
    from paiju.train.web.store import Store, default_db_path

    bank = ScenarioBank(seed=args.serve_seed, source=args.serve_source)
    path = args.db or default_db_path()
    try:
        store = Store(path)
    except Exception as exc:  # sqlite3 and OS errors alike: one line, no traceback
        raise OptionError(f"--db {path}: cannot open it as a training database ({exc})") from None
    if not _loopback(args.host):
        print(f"WARNING: serving on {args.host}: anyone who can reach this address can use the trainer "
              f"and read every trainee's progress", file=sys.stderr)
    print(f"paiju training at http://{args.host}:{args.port}/  (progress in {path}; Ctrl-C stops)", file=sys.stderr)
    uvicorn.run(create_app(bank, store), host=args.host, port=args.port, log_level="warning")
    return 0


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
