"""Certificate format 2: each counterexample stored once per game, its states as diffs.

A format 1 certificate gives every failure its whole ``trace`` (the events) and ``states`` (the
engine's state after each event, every one whole).  Format 2 moves both into a table of the game,
``traces: {ID: {"trace": [...], "states": [D0, D1, ...]}}``, and gives each failure the ``trace_id``
of its entry instead; failures with the same trace and states share one entry.  ``ID`` is made of
the entry's content (``trace_id``), so it is the same whichever run, shard or merge wrote it.

Each state is a diff from the one before (``diff``/``patch``), the first from ``null``::

    {}                                 unchanged
    {"is": V}                          V whole (replaced, or of another type)
    {"set": {K: D}, "del": [K, ...]}   an object: key K patched by diff D (a new key: {"is": V}, put
                                       last), the keys in "del" removed; an object whose keys changed
                                       their order is given whole
    {"splice": [[I, N, [V, ...]]], "at": {"J": D}}
                                       a list: at index I of the old list, N items replaced by the Vs
                                       (ascending I, never overlapping); then item J of that list (a
                                       decimal string) patched by D.  Either part may be left out.

``diff`` gives the shortest of the forms that apply (ties: whole first), so the same two values
always give the same diff, and ``patch(a, diff(a, b))`` is ``b`` exactly: types (``1`` is not
``1.0`` or ``true``) and key order included.  ``unpack(pack(c)) == c`` for every certificate, and
``unpack`` leaves a format 1 certificate as it is: every reader of a certificate calls it first.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from difflib import SequenceMatcher
from typing import Any

PACKED_FORMAT = 2  # the certificate format ``pack`` writes (``ruleproof_certificate``)
UNPACKED_FORMAT = 1  # the format ``unpack`` gives: every failure with its trace and states whole
Diff = dict[str, Any]


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def same(a: Any, b: Any) -> bool:
    """``a`` and ``b`` as the same JSON text: of one type, objects' keys in one order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return repr(a) == repr(b)  # 0.0 is not -0.0
    return bool(a == b)


def diff(a: Any, b: Any) -> Diff:
    """The diff that turns ``a`` into ``b`` (the notation above)."""
    if same(a, b):
        return {}
    whole: Diff = {"is": b}
    if isinstance(a, dict) and isinstance(b, dict):
        candidates = [_object_diff(a, b)]
    elif isinstance(a, list) and isinstance(b, list):
        candidates = [_at_diff(a, b), _splice_diff(a, b)]
    else:
        return whole
    best = whole
    for candidate in candidates:
        if candidate is not None and len(_json(candidate)) < len(_json(best)):
            best = candidate
    return best


def _object_diff(a: dict[str, Any], b: dict[str, Any]) -> Diff | None:
    gone = [k for k in a if k not in b]
    kept = [k for k in a if k in b]
    if kept + [k for k in b if k not in a] != list(b):
        return None  # the keys moved: ``patch`` could not put them back in this order
    changed = {k: d for k, v in b.items() for d in [diff(a[k], v) if k in a else {"is": v}] if d}
    out: Diff = {}
    if changed:
        out["set"] = changed
    if gone:
        out["del"] = gone
    return out


def _at_diff(a: list[Any], b: list[Any]) -> Diff | None:
    if len(a) != len(b):
        return None
    return {"at": {str(i): diff(x, y) for i, (x, y) in enumerate(zip(a, b, strict=True)) if not same(x, y)}}


def _splice_diff(a: list[Any], b: list[Any]) -> Diff:
    """The items matched (difflib), the rest spliced; a replaced run's items paired with the new ones are
    patched in place ("at", after the splice) rather than given whole, when that is shorter."""
    keys_a, keys_b = _keys(a, b), _keys(b, a)
    # the common ends first: difflib's matching is quadratic in what is left, and a step changes little
    head = 0
    while head < min(len(a), len(b)) and keys_a[head] == keys_b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and keys_a[-1 - tail] == keys_b[-1 - tail]:
        tail += 1
    matcher = SequenceMatcher(None, keys_a[head : len(a) - tail], keys_b[head : len(b) - tail], autojunk=False)
    edits: list[list[Any]] = []
    at: Diff = {}
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        paired = min(i2 - i1, j2 - j1)
        for k in range(paired):
            at[str(head + j1 + k)] = diff(a[head + i1 + k], b[head + j1 + k])
        if i2 - i1 != j2 - j1:
            edits.append([head + i1 + paired, i2 - i1 - paired, b[head + j1 + paired : head + j2]])
    out: Diff = {}
    if edits:
        out["splice"] = edits
    if at:
        out["at"] = at
    return out


def _keys(items: list[Any], other: list[Any]) -> list[Any]:
    """List items as texts to match: strings as themselves when both lists hold only strings (a drawn
    page's pieces), else their JSON, which tells ``1`` from ``1.0`` and ``true`` as ``same`` does."""
    if all(type(x) is str for x in items) and all(type(x) is str for x in other):
        return items
    return [_json(x) for x in items]


def patch(a: Any, d: Mapping[str, Any]) -> Any:
    """``a`` changed by the diff ``d`` (``patch(a, diff(a, b))`` is ``b``)."""
    if "is" in d:
        return d["is"]
    if "set" in d or "del" in d:
        gone = set(d.get("del") or ())
        changes = d.get("set") or {}
        out = {k: patch(v, changes[k]) if k in changes else v for k, v in a.items() if k not in gone}
        out.update({k: patch(None, c) for k, c in changes.items() if k not in a})
        return out
    if "splice" in d or "at" in d:
        items = list(a)
        if "splice" in d:
            items, start = [], 0
            for index, removed, added in d["splice"]:
                items += a[start:index]
                items += added
                start = index + removed
            items += a[start:]
        changes = d.get("at") or {}
        return [patch(x, changes[str(i)]) if str(i) in changes else x for i, x in enumerate(items)]
    return a


def pack_states(states: Sequence[Any]) -> list[Diff]:
    """Each state as its diff from the one before (the first from ``null``: whole)."""
    return [diff(before, after) for before, after in zip([None, *states], states, strict=False)]


def unpack_states(diffs: Sequence[Mapping[str, Any]]) -> list[Any]:
    states: list[Any] = []
    state: Any = None
    for d in diffs:
        state = patch(state, d)
        states.append(state)
    return states


def trace_id(entry: Mapping[str, Any]) -> str:
    """A trace table's key: made of its content, so every writer gives one trace the same key."""
    return hashlib.sha256(_json(entry).encode("utf-8")).hexdigest()[:16]


def _packable(failure: Any) -> bool:
    """A failure whose trace and states ``unpack`` puts back where they were: ``states`` right after
    ``trace``, both lists (a hand-made failure otherwise keeps them inline, which format 2 allows)."""
    if not isinstance(failure, dict) or "trace_id" in failure:
        return False
    keys = list(failure)
    return (
        "trace" in failure
        and keys[keys.index("trace") + 1 : keys.index("trace") + 2] == ["states"]
        and isinstance(failure["trace"], list)
        and isinstance(failure["states"], list)
    )


def _pack_game(game: Any) -> Any:
    if not isinstance(game, dict) or "traces" in game or not isinstance(game.get("failures"), list):
        return game
    traces: dict[str, Any] = {}
    whole: dict[str, Any] = {}
    failures = []
    for failure in game["failures"]:
        if not _packable(failure):
            failures.append(failure)
            continue
        entry = {"trace": failure["trace"], "states": failure["states"]}
        key = trace_id(entry)
        if key in whole and not same(whole[key], entry):
            raise ValueError(f"two traces of one key {key}")  # 64 bits of SHA-256: never seen, but never wrong
        if key not in whole:
            whole[key] = entry
            traces[key] = {"trace": failure["trace"], "states": pack_states(failure["states"])}
        out = {}
        for k, v in failure.items():
            if k == "trace":
                out["trace_id"] = key
            elif k != "states":
                out[k] = v
        failures.append(out)
    return {**game, "failures": failures, **({"traces": traces} if traces else {})}


def _unpack_game(game: Any) -> Any:
    if not isinstance(game, dict) or not isinstance(game.get("traces"), dict):
        return game
    traces = game["traces"]
    failures = []
    for failure in game.get("failures") or []:
        key = failure.get("trace_id") if isinstance(failure, dict) else None
        entry = traces.get(key) if isinstance(key, str) else None
        if entry is None:
            failures.append(failure)
            continue
        out = {}
        for k, v in failure.items():
            if k == "trace_id":
                out["trace"] = list(entry["trace"])
                out["states"] = unpack_states(entry["states"])
            else:
                out[k] = v
        failures.append(out)
    return {k: failures if k == "failures" else v for k, v in game.items() if k != "traces"}


def _with_games(certificate: Mapping[str, Any], fmt: int, each: Any) -> dict[str, Any]:
    out = dict(certificate)
    if "ruleproof_certificate" in out:
        out["ruleproof_certificate"] = fmt
    if isinstance(out.get("games"), dict):
        out["games"] = {name: each(game) for name, game in out["games"].items()}
    return out


def pack(certificate: Mapping[str, Any]) -> dict[str, Any]:
    """A format 1 certificate (``Certificate.plain_json``) as format 2: traces once, states as diffs."""
    if certificate.get("ruleproof_certificate") != UNPACKED_FORMAT:
        return dict(certificate)  # already packed, or no format number to say it was (hand-made)
    return _with_games(certificate, PACKED_FORMAT, _pack_game)


def unpack(certificate: Mapping[str, Any]) -> dict[str, Any]:
    """Any certificate as format 1: every failure with its ``trace`` and ``states`` whole (a format 1
    certificate, or anything else, is given back as it is)."""
    if certificate.get("ruleproof_certificate") != PACKED_FORMAT:
        return dict(certificate)
    return _with_games(certificate, UNPACKED_FORMAT, _unpack_game)
