"""One ply ahead: the Letterpress move that leaves the opponent the weakest best reply.

The value of a move is its swing minus the opponent's best reply swing on the board it leaves,
both in the game's score, tiles owned (the change of mine minus the opponent's, as in
:func:`~cpwords.letterpress.rules.move_scores`). The reply is any playable word but the move's
word and its prefixes (the game refuses them), or none (a pass, 0) when the move colours the
last neutral tile (the game ends). Moves are ranked by value, then swing, then defence (my
defended tiles minus the opponent's after the move).

Exhaustive, with a bound that proves it:

* a move is a word and its tiles; the tiles of a letter that gain nothing (mine, or the
  opponent's defended ones) are interchangeable (using one changes no tile), so a candidate
  is a word's letter multiset and the set of gaining tiles it takes, every such set tried;
* the best reply swing on a board is separable by letter (each letter of a word takes the
  tiles of that letter that gain most), so one reply is a scan of every word's letter counts
  against the board's per-letter gains (NumPy), exact;
* a reply's swing is never negative, so a move's value is at most its swing: the candidates are
  tried by swing, largest first, and the search stops at the first candidate whose swing is
  below the best value found, which proves every later candidate worse (OPTIMAL). A search
  stopped by the time limit or Ctrl-C is the best of the candidates tried (FEASIBLE), with the
  bound that the next untried candidate's swing gives.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cpwords.core.result import SolveResult, Status
from cpwords.letterpress.models.board import (
    _gains,
    _playable,
    _ranked_gains,
    _tile_gains,
    _tiles_by_letter,
)
from cpwords.letterpress.models.index import LetterpressIndex
from cpwords.letterpress.rules import ME, NEUTRAL, LetterpressBoard, move_scores

__all__ = ["LookaheadMove", "lookahead_move"]


@dataclass(frozen=True)
class LookaheadMove:
    """A move and the opponent's best reply to it.

    Attributes
    ----------
    word : str
    tiles : tuple of int
        The tiles spelling ``word``, in order (row-major indices).
    swing, defence : int
        The move's swing and defence (:func:`~cpwords.letterpress.rules.move_scores`).
    reply_word : str or None
        The opponent's best reply (None: no reply, the game is over or no word is left).
    reply_tiles : tuple of int
    reply_swing : int
        The reply's swing from the opponent's side (0 without a reply).
    game_over : bool
        The move colours the last neutral tile: the game ends, there is no reply.
    """

    word: str
    tiles: tuple[int, ...]
    swing: int
    defence: int
    reply_word: str | None
    reply_tiles: tuple[int, ...]
    reply_swing: int
    game_over: bool = False

    @property
    def net(self) -> int:
        """The move's value: its swing minus the best reply's."""
        return self.swing - self.reply_swing

    def to_dict(self) -> dict[str, object]:
        """JSON-friendly rendering (tiles as row-major indices)."""
        return {
            "word": self.word,
            "tiles": list(self.tiles),
            "swing": self.swing,
            "defence": self.defence,
            "net": self.net,
            "reply": {
                "word": self.reply_word,
                "tiles": list(self.reply_tiles),
                "swing": self.reply_swing,
                "game_over": self.game_over,
            },
        }


class _Replies:
    """Every word's best swing on a board at once: the words' letter counts against the board's
    per-letter gains, sorted (a word takes the tiles of each letter that gain most).

    Only the words whose letters no other word's letters contain are scored first (a word
    with more of every letter swings at least as much, gains being non-negative); when every
    best one is refused (a prefix of the move's word), all words are scored again with the
    refused ones left out, so the answer is exact either way.
    """

    def __init__(self, board: LetterpressBoard, words: Sequence[str]) -> None:
        self.words = list(words)
        self.letters = sorted(set(board.letters))
        col = {c: i for i, c in enumerate(self.letters)}
        self.counts = np.zeros((len(words), len(self.letters)), dtype=np.int16)
        for i, w in enumerate(words):
            for c, k in Counter(w).items():
                self.counts[i, col[c]] = k
        self.by_letter = _tiles_by_letter(board)
        self.tiles = [self.by_letter[c] for c in self.letters]
        self.neighbours = [board.neighbours(t) for t in range(len(board.letters))]
        self.width = max(len(ts) for ts in self.tiles) + 1
        self.index = {w: i for i, w in enumerate(words)}
        self.top = _undominated(self.counts)
        self.cache: dict[bytes, tuple[int, list[int]]] = {}

    def table(self, owners: Sequence[int]) -> np.ndarray:
        """Per letter, the best gain of taking 0, 1, 2, ... of its tiles, when the owners are
        ``owners`` (from the side of the player to move)."""
        ranked = _ranked_gains(self.by_letter, _gains(owners, self.neighbours))
        table = np.zeros((len(self.letters), self.width), dtype=np.int16)
        for i, c in enumerate(self.letters):
            table[i, 1 : len(ranked[c]) + 1] = list(itertools.accumulate(ranked[c]))
        return table

    def _values(self, table: np.ndarray, rows: np.ndarray) -> np.ndarray:
        cols = np.arange(len(self.letters))[None, :]
        values: np.ndarray = table[cols, self.counts[rows]].sum(axis=1)
        return values

    def best(self, owners: Sequence[int], word: str) -> tuple[str | None, int]:
        """The best reply word and its swing, ``word`` and its prefixes refused."""
        table = self.table(owners)
        key = table.tobytes()
        if key not in self.cache:
            values = self._values(table, self.top)
            top = int(values.max()) if len(values) else -1
            self.cache[key] = top, [int(self.top[i]) for i in np.flatnonzero(values == top)]
        top, argmax = self.cache[key]
        banned = {self.index[word[:k]] for k in range(1, len(word) + 1) if word[:k] in self.index}
        free = [i for i in argmax if i not in banned]
        if free:
            return self.words[free[0]], top
        values = self._values(table, np.arange(len(self.words)))
        values[sorted(banned)] = -1
        i = int(np.argmax(values))
        return (self.words[i], int(values[i])) if values[i] >= 0 else (None, 0)

    def tiles_for(self, owners: Sequence[int], word: str) -> tuple[int, ...]:
        """The tiles that give ``word`` its best swing (per letter, the largest gains first)."""
        gains = _gains(owners, self.neighbours)
        pool = {c: sorted(ts, key=lambda t: (-gains[t], t)) for c, ts in self.by_letter.items()}
        return tuple(pool[c].pop(0) for c in word)


def _undominated(counts: np.ndarray) -> np.ndarray:
    """The rows that no other row covers (>= in every column; of equal rows, one).

    Rows are taken by their sum, largest first: a row can be covered only by one of at least
    its sum, and a covered row's cover is covered by a kept one, so each row is compared with
    the kept rows only.
    """
    order = np.argsort(-counts.sum(axis=1), kind="stable")
    kept = np.zeros((0, counts.shape[1]), dtype=counts.dtype)
    keep: list[int] = []
    for i in order:
        if not (kept >= counts[i]).all(axis=1).any():
            keep.append(int(i))
            kept = np.vstack([kept, counts[i]])
    return np.array(sorted(keep), dtype=np.int64)


@dataclass(frozen=True)
class _Candidate:
    """A word's letter multiset with the gaining tiles it takes."""

    swing: int
    key: tuple[tuple[str, int], ...]
    gaining: tuple[int, ...]


def _candidates(
    board: LetterpressBoard, keys: Iterable[tuple[tuple[str, int], ...]]
) -> list[_Candidate]:
    """Every (letter multiset, set of gaining tiles) a move can take, by swing, largest first."""
    gains = _tile_gains(board)
    gaining: dict[str, list[int]] = {}
    null: Counter[str] = Counter()
    for t, ch in enumerate(board.letters):
        if gains[t]:
            gaining.setdefault(ch, []).append(t)
        else:
            null[ch] += 1
    out = []
    for key in keys:
        options = []
        for c, k in key:
            g = gaining.get(c, [])
            sizes = range(max(0, k - null[c]), min(k, len(g)) + 1)
            options.append([s for j in sizes for s in itertools.combinations(g, j)])
        for pick in itertools.product(*options):
            tiles = tuple(sorted(t for part in pick for t in part))
            out.append(_Candidate(sum(gains[t] for t in tiles), key, tiles))
    out.sort(key=lambda c: (-c.swing, c.key, c.gaining))
    return out


def _spell(board: LetterpressBoard, word: str, gaining: Sequence[int]) -> tuple[int, ...]:
    """Tiles spelling ``word`` that take exactly the ``gaining`` tiles (and tiles that gain
    nothing for its other letters), in the word's order."""
    gains = _tile_gains(board)
    chosen = set(gaining)
    pool: dict[str, list[int]] = {}
    for t, ch in enumerate(board.letters):
        if t in chosen or not gains[t]:
            pool.setdefault(ch, []).append(t)
    for ts in pool.values():
        ts.sort(key=lambda t: (t not in chosen, t))  # the chosen gaining tiles first
    return tuple(pool[c].pop(0) for c in word)


def _ranked(move: LookaheadMove) -> tuple[int, int, int]:
    return move.net, move.swing, move.defence


def lookahead_move(
    board: LetterpressBoard,
    index: LetterpressIndex,
    played: Iterable[str] = (),
    time_limit: float | None = 20.0,
) -> SolveResult:
    """The move maximising its swing minus the opponent's best reply swing (one ply ahead).

    Parameters
    ----------
    board : LetterpressBoard
        The position, from the mover's point of view.
    index : LetterpressIndex
        The dictionary's index.
    played : iterable of str
        Words already played; they and their prefixes are playable by neither player.
    time_limit : float, optional
        Seconds (None: no limit); a stopped search returns the best move of the candidates
        tried, FEASIBLE.

    Returns
    -------
    SolveResult
        ``objective`` = the value (swing - best reply swing), ``bound`` an upper bound on it
        (equal when OPTIMAL: every candidate move was tried or proven worse), ``solution`` a
        :class:`LookaheadMove`; INFEASIBLE when no playable word can be spelled, UNKNOWN when
        stopped before any move was scored. ``solver_info``: ``candidates`` (spellable words),
        ``moves`` (candidate moves: letter multisets with their gaining tiles), ``examined``,
        ``stopped``.
    """
    t0 = time.perf_counter()
    words = _playable(index.query(board.letters)[0], played)
    info: dict[str, Any] = {"candidates": len(words), "lookahead": 1}
    if not words:
        return SolveResult(
            Status.INFEASIBLE, None, None, 0.0, None, "lookahead-1", solver_info=info
        )
    by_key: dict[tuple[tuple[str, int], ...], list[str]] = {}
    for w in sorted(words):
        by_key.setdefault(tuple(sorted(Counter(w).items())), []).append(w)
    cands = _candidates(board, by_key)
    info["moves"] = len(cands)
    replies = _Replies(board, words)
    best, examined, stopped = None, 0, None
    try:
        for cand in cands:
            if best is not None and cand.swing < best.net:
                break  # value <= swing < best: this and every later candidate is worse
            if time_limit is not None and time.perf_counter() - t0 > time_limit:
                stopped = "time_limit"
                break
            best = _improve(board, replies, cand, by_key[cand.key], best)
            examined += 1
    except KeyboardInterrupt:
        stopped = "interrupted"
    info |= {"examined": examined, "stopped": stopped}
    if stopped:
        info["interrupted"] = stopped == "interrupted"
    return _result(best, cands, examined, stopped, time.perf_counter() - t0, info)


def _improve(
    board: LetterpressBoard,
    replies: _Replies,
    cand: _Candidate,
    words: Sequence[str],
    best: LookaheadMove | None,
) -> LookaheadMove | None:
    """The best of ``best`` and the words of one candidate, each with the opponent's best
    reply (a move's tiles and defence are worked out only when it can rank first)."""
    after = list(board.owners)
    for t in cand.gaining:  # a gaining tile is never the opponent's defended one
        after[t] = ME
    over = NEUTRAL not in after  # the last neutral tile coloured: the game ends
    theirs = [-o for o in after]
    for word in words:
        reply, reply_swing = (None, 0) if over else replies.best(theirs, word)
        if best is not None and (cand.swing - reply_swing, cand.swing) < (best.net, best.swing):
            continue
        tiles = _spell(board, word, cand.gaining)
        swing, defence = move_scores(board, tiles)
        reply_tiles = replies.tiles_for(theirs, reply) if reply else ()
        move = LookaheadMove(word, tiles, swing, defence, reply, reply_tiles, reply_swing, over)
        if best is None or _ranked(move) > _ranked(best):
            best = move
    return best


def _result(
    best: LookaheadMove | None,
    cands: Sequence[_Candidate],
    examined: int,
    stopped: str | None,
    wall: float,
    info: dict[str, Any],
) -> SolveResult:
    """The search's answer: OPTIMAL when it finished (the bound closed), else FEASIBLE or
    UNKNOWN with the bound of the candidates left."""
    if stopped is None and best is not None:
        net = float(best.net)
        return SolveResult(Status.OPTIMAL, net, net, wall, best, "lookahead-1", solver_info=info)
    left = cands[examined].swing if examined < len(cands) else None
    bound = max(x for x in (left, best.net if best else None) if x is not None)
    if best is None:
        return SolveResult(
            Status.UNKNOWN, None, float(bound), wall, None, "lookahead-1", solver_info=info
        )
    net = float(best.net)
    return SolveResult(
        Status.FEASIBLE, net, float(bound), wall, best, "lookahead-1", solver_info=info
    )
