"""The training web app's latencies on this machine: the page and its table frame loading, a
graded answer, and "apply my ruling" (the scenario's unit played again to the end of its
deal with the trainee's ruling carried out), through Starlette's test client (no network).

    python benchmarks/bench_trainer_web.py [--rounds 5]

Needs the web extra and httpx2: pip install -e '.[test]'."""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from starlette.testclient import TestClient

from paiju.train.web.app import create_app
from paiju.train.web.bank import ScenarioBank
from paiju.train.web.store import Store


def timed(call, rounds):
    out = []
    for _ in range(rounds):
        start = time.perf_counter()
        call()
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    start = time.perf_counter()
    bank = ScenarioBank(seed=0, per_clause=1)
    sizes = {game: len(bank.ids(game)) for game in bank.games}
    print(f"scenario bank: {sizes} generated in {time.perf_counter() - start:.2f} s")
    with tempfile.TemporaryDirectory() as tmp, TestClient(
            create_app(bank, Store(f"{tmp}/p.sqlite3")), headers={"Origin": "http://testserver"}) as client:
        rows = []
        for game in bank.games:
            ids = bank.ids(game)
            samples: dict[str, list[float]] = {"page (/, app.js, style.css)": [], "table frame": [], "graded answer": [],
                                               "apply my ruling": []}
            for sid in ids[:args.rounds]:
                e = bank.get(sid).expected
                body = {"trainee": "bench", "clause": e.clause, "effects": list(e.rectification),
                        "sanctions": list(e.sanctions)}
                samples["page (/, app.js, style.css)"] += timed(
                    lambda: [client.get(p) for p in ("/", "/static/app.js", "/static/style.css")], 1)
                samples["table frame"] += timed(lambda: client.get(f"/scenario/{sid}/table"), 1)
                samples["graded answer"] += timed(
                    lambda: client.post(f"/api/scenario/{sid}/answer", json=body).raise_for_status(), 1)
                samples["apply my ruling"] += timed(lambda: client.post(
                    f"/api/scenario/{sid}/apply", json={**body, "sanctions": ["ForcedLast"]}).raise_for_status(), 1)
            for what, values in samples.items():
                rows.append((game, what, statistics.median(values), min(values), max(values)))
    print("| game | request | median ms | min–max ms |")
    print("|---|---|---|---|")
    for game, what, median, low, high in rows:
        print(f"| {game} | {what} | {median:.1f} | {low:.1f}–{high:.1f} |")


if __name__ == "__main__":
    main()
