"""The shards of a game shared by the workers of one pytest-xdist session, through a folder they share.

The controller makes the folder and tells each worker where it is; each game has a folder of its
own in it, holding, for shard K (1-based, of the N the profile plans):

- ``claim-K``: made with ``O_EXCL`` by the one worker that explores it (its id inside), so a shard is
  explored once however many workers are given its item or wait for the game;
- ``part-K.json``: what it found, a partial certificate (``ruleproof certify --shard K/N``), written
  whole (``write_atomic``) so a reader never sees half of one; ``failed-K``: why it could not be;
- ``claim-merge``: the one worker that merges the N parts (``ruleproof merge``), and ``merged.json``,
  the game's certificate, which every worker's clause items read.

A worker that goes down is named in ``down/ID`` by the controller (``pytest_testnodedown``): a shard
it claimed and never finished is then a ``SharedError`` for whoever waits for it, not a wait forever.
Every step is a file made whole or not at all, so no lock is held and none can be left behind.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ruleproof.model.engine import JSONObject
from ruleproof.output.files import write_atomic


class SharedError(Exception):
    """A shard or a merge that will never be done: a worker went down with it, or it failed."""


class SharedShards:
    """The shared folder ``root`` as worker ``worker`` sees it."""

    def __init__(self, root: Path, worker: str) -> None:
        self.root, self.worker = root, worker

    def _game(self, game: str) -> Path:
        folder = self.root / game
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def _claim(self, path: Path) -> bool:
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            return False
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(self.worker)
        return True

    def claim(self, game: str, shard: int) -> bool:
        """Claim shard ``shard`` (1-based) of ``game``: True for the one worker that gets it."""
        return self._claim(self._game(game) / f"claim-{shard}")

    def claim_next(self, game: str, count: int) -> int | None:
        """The first shard of ``game`` nobody has claimed yet, claimed now; None when every one is."""
        return next((k for k in range(1, count + 1) if self.claim(game, k)), None)

    def owner(self, game: str, shard: int) -> str:
        """The worker that claimed shard ``shard`` of ``game`` ("" before anyone did)."""
        return _read(self._game(game) / f"claim-{shard}")

    def done(self, game: str, shard: int) -> bool:
        return (self._game(game) / f"part-{shard}.json").exists()

    def put(self, game: str, shard: int, part: JSONObject) -> None:
        write_atomic(self._game(game) / f"part-{shard}.json", json.dumps(part))

    def failed(self, game: str, shard: int | str, why: str) -> None:
        """Shard ``shard`` (or ``"merge"``) will not be done: ``why``, for whoever waits for it."""
        write_atomic(self._game(game) / f"failed-{shard}", why)

    def parts(self, game: str, count: int) -> list[Any] | None:
        """The ``count`` parts of ``game`` in their order, once every one is written (else None)."""
        paths = [self._game(game) / f"part-{k}.json" for k in range(1, count + 1)]
        if not all(p.exists() for p in paths):
            return None
        return [json.loads(p.read_text(encoding="utf-8")) for p in paths]

    def claim_merge(self, game: str) -> bool:
        return self._claim(self._game(game) / "claim-merge")

    def put_merged(self, game: str, certificate: JSONObject) -> None:
        write_atomic(self._game(game) / "merged.json", json.dumps(certificate))

    def merged(self, game: str) -> Any | None:
        """The game's certificate once merged (else None)."""
        path = self._game(game) / "merged.json"
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None

    def problem(self, game: str, count: int) -> str | None:
        """Why ``game`` will never be merged (a shard or the merge failed, or its worker went down), if so."""
        folder = self._game(game)
        for what in [*(str(k) for k in range(1, count + 1)), "merge"]:
            failed = folder / f"failed-{what}"
            if failed.exists():
                return failed.read_text(encoding="utf-8")
            done = folder / ("merged.json" if what == "merge" else f"part-{what}.json")
            owner = _read(folder / f"claim-{what}")
            if owner and not done.exists() and (self.root / "down" / owner).exists():
                doing = f"merging {game}'s shards" if what == "merge" else f"exploring {game}::shard[{what}/{count}]"
                return f"worker {owner} went down while {doing}: {_read(self.root / 'down' / owner)}"
        return None


def mark_down(root: Path, worker: str, error: object) -> None:
    """Worker ``worker`` went down (``error``): what it claimed and did not finish fails its waiters."""
    (root / "down").mkdir(parents=True, exist_ok=True)
    write_atomic(root / "down" / worker, str(error).strip().splitlines()[-1] if str(error).strip() else "crashed")


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
