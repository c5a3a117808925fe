"""Stage "neighbourhood search": re-order the pieces around each family of the path cover.

Runs after the additive bound when it leaves a gap. The families are searched once
(:data:`FAMILY_RADIUS`), the local search on reduced costs (segment moves and ejection chains,
:mod:`~cpwords.wordsnake.primal.local_search`) and the wider bound come after that, every
family's words at once, the local search and Hall steps again last; the card's section
"Additive bound and neighbourhood search (large lists)" (``models/wordsnake.md``) gives the
measurements that set this order and the steps it dropped.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import numpy as np

from cpwords.wordsnake.bounds.hall_step import hall_step
from cpwords.wordsnake.bounds.path_cover import path_cover_bound
from cpwords.wordsnake.exact.stages.certificate import HALL_SECONDS_PER_WORD
from cpwords.wordsnake.exact.state import AdditiveBound, ProofState, publish
from cpwords.wordsnake.primal.lns import reorder_pieces, separator
from cpwords.wordsnake.primal.local_search import reduced_cost_search
from cpwords.wordsnake.primal.repair import PairScore, overlap
from cpwords.wordsnake.relaxation.residual import ResidualPaths
from cpwords.wordsnake.relaxation.sparse_flow import dense_flows
from cpwords.wordsnake.relaxation.string_hub import DeadlineReached
from cpwords.wordsnake.rules import WordsnakeInstance

#: Most seconds the neighbourhood search's exact solve of the pieces may take.
LNS_TIME = 60.0

#: The items beside each focus item in the ordering that join a family's pieces. Passes with
#: 2 and 4 were dropped on 2026-12-07: in the suites' records they ran on 8 lists and never
#: raised an ordering (the local search and every family's words at once do).
FAMILY_RADIUS = 1

#: Rounds of the wider growth of the additive bound's set when the search leaves a gap (each
#: round takes every partner of the cover's paths and the words they displace; F roughly
#: doubles a round: 3,451 -> 16,339 words in 4 rounds on the Dutch list).
WIDE_GROWTH = 4

#: Most seconds for the pieces around one family of the path cover (they take well under one:
#: 25-100 pieces on the Spanish list).
FAMILY_TIME = 10.0

#: The gap (score points) under which a Hall step on the incumbent is tried right after the
#: first family pass: the Chinese wordfreq list's first pass found its optimum 964,427 one point
#: under the cover's bound, which the wider bound never lowered and the Hall step did (8-16 s).
#: After every family's words at once it is tried at any gap.
HALL_PROBE_GAP = 2

#: Seconds a word the first try of Hall steps may take, 1 s at least (the try after the first
#: family pass). The Chinese list's step takes 6.3-7.0 s on a quiet machine (332,191 words: 10 s
#: allowed), 29 s under a load of 4; on the Japanese list (209,187 words), whose last point is
#: the ordering's, the steps found no Hall set after 41 s under load. A try cut short is made
#: again at the end, with the time left.
HALL_PROBE_SECONDS_PER_WORD = 3.0e-5

#: Seconds per network arc the first augmenting-path searches take at most (the residual
#: network and two Dijkstra searches, which cannot be interrupted; measured 2026-11-28 on the
#: union of three wordfreq lists, 16.1 million arcs: 10.4 s on a quiet machine, 12.3 s under
#: load; the search does not start without this time left, as they come first).
JOINT_PATHS_SECONDS_PER_ARC = 1.0e-6


def neighbourhood_wanted(state: ProofState) -> bool:
    """When the additive bound leaves a gap and the time left holds the first augmenting-path
    searches (:data:`JOINT_PATHS_SECONDS_PER_ARC`) and a second more: they come first and
    cannot be interrupted."""
    add, f = state.additive, state.flow
    if add is None or f is None:
        return False
    remaining = None if f.deadline is None else f.deadline - time.perf_counter()
    need = 1.0 + JOINT_PATHS_SECONDS_PER_ARC * f.net.m
    return add.value < add.cover.bound and (remaining is None or remaining > need)


def neighbourhood_search(state: ProofState) -> None:
    """Stage "neighbourhood search": the family pass, the wider bound, every family at once
    (in this order, card: "the order of the sets"); Ctrl-C keeps what was found.
    """
    assert state.flow is not None
    state.flow.drop_index()  # the search's residual network is the peak; no repair before it
    with state.flow.plain_cost_released():  # the residual network reads -weight in chunks
        search = FamilySearch(state)
        search.run()
    add = search.add
    add.cover = search.best
    if search.cur > add.value:
        publish(state, search.cur_seq, search.cur)
    else:
        publish(state, None, None)


def _share(most: float, left: float | None) -> float:
    """Seconds for a solve of the pieces: at most ``most`` and three quarters of what is left
    (measured: a 970-piece solve given the 24 s left ended 5 s late, its MIP past its limit)."""
    return most if left is None else max(0.1, min(most, 0.75 * left))


class FamilySearch:
    """The neighbourhood search's state: the current ordering, the best cover, the families'
    focus words and the counters reported in ``solver_info["refinement"]``.

    Parameters
    ----------
    state : ProofState
        After the additive bound (``state.additive`` set).
    """

    def __init__(self, state: ProofState) -> None:
        f, add = state.flow, state.additive
        assert f is not None and add is not None
        self.instance: WordsnakeInstance = state.instance
        self.flow = f
        self.net = f.net
        self.deadline = f.deadline
        assert state.piece_solver is not None
        self.piece_solver = state.piece_solver
        self.dual = f.dual
        self.add: AdditiveBound = add
        self.cover = add.cover  # the first cover: the search keeps its families
        self.best = add.cover  # the bound proven so far (a wider cover may replace it)
        self.pair = PairScore(self.net)
        self.cur_seq, self.cur = list(add.seq), add.value
        self.searched: dict[str, Any] = {"families": 0, "family_gain": 0}
        # Each word's items (CSR by word, items ascending): arrays, where a dictionary of lists
        # took about 0.6 GB on the whole Polish dictionary (4 million words).
        item_word = self.net.item_word[: self.instance.n]
        self._items = np.argsort(item_word, kind="stable")
        self._items_at = np.zeros(self.net.num_words + 1, dtype=np.int64)
        np.cumsum(np.bincount(item_word, minlength=self.net.num_words), out=self._items_at[1:])
        self.in_f = {int(w): i for i, w in enumerate(add.cover.neighbourhood.tolist())}
        self.focus_of: dict[int, set[int]] = {}
        self.local_optimum: list[int] | None = None  # where the last local search ended
        self.sep = separator(self.instance.words)  # the pieces' separator, found once
        self._pos: tuple[list[int], np.ndarray] | None = None  # cur_seq and its positions
        self._hall_tried: list[int] | None = None  # the ordering a Hall step last started from
        self._t0 = time.perf_counter()  # the search's start: its steps' ends count from it
        self._prices()

    def _prices(self) -> None:
        """The certificate's dual values as the cover counts them (cut multipliers held)."""
        cert = self.add.cert
        self.u_cert = np.asarray(cert.u, dtype=np.int64)
        self.v_cert = np.asarray(cert.v, dtype=np.int64)
        for cut_ids, lam in cert.cuts:
            self.v_cert[list(cut_ids)] -= lam
        depot = cert.depot if cert.depot is not None else (0, 0)
        self.depot_u, self.depot_v = int(depot[0]), int(depot[1])
        self.family_slack = self.cover.info.get("family_slack", [])

    def run(self) -> None:
        """The passes in order while a gap and time are left; Ctrl-C stops them. Each step's
        end (seconds from the start), score and bound go to ``searched["steps"]``."""
        try:
            self.family_pass()
            self._mark("families")
            # Segment moves and ejection chains on the reduced costs: the joints between two
            # families that the pieces cannot reach (Japanese: 25 points, after 600 s of
            # pieces had found none).
            self.local_search()
            self._mark("local search")
            if self.best.bound - self.cur <= HALL_PROBE_GAP:
                self.hall_bound(max(1.0, HALL_PROBE_SECONDS_PER_WORD * self.instance.n))
                self._mark("hall steps")
            # The wider bound when the first pass leaves a gap (the Dutch list's first pass
            # found the optimum, which only the wider bound proves).
            if self.time_for(2.0):
                self.wider_bound()
                self._mark("wider bound")
            self.all_families()  # unproven it takes its 60 s, so it comes last
            self._mark("all families")
            self.local_search()  # from where the pieces left it
            self._mark("local search")
            self.hall_bound()
            self._mark("hall steps")
        except KeyboardInterrupt:
            self.add.info["interrupted"] = True
        self.searched["gain"] = self.cur - self.add.value
        self.searched["time"] = time.perf_counter() - self._t0
        self.add.info["neighbourhood_search"] = self.searched

    def _mark(self, step: str) -> None:
        """Record where a step of :meth:`run` ended: seconds from the start, score, bound."""
        end = round(time.perf_counter() - self._t0, 3)
        mark = {"step": step, "end": end, "score": self.cur, "bound": self.best.bound}
        self.searched.setdefault("steps", []).append(mark)

    def items_of(self, w: int) -> list[int]:
        """The items of distinct word ``w``, ascending."""
        return self._items[self._items_at[w] : self._items_at[w + 1]].tolist()

    def left(self) -> float | None:
        """Seconds left before the flow stages' deadline."""
        return None if self.deadline is None else self.deadline - time.perf_counter()

    def time_for(self, seconds: float) -> bool:
        """Whether a gap is left and more than ``seconds`` of the time limit."""
        left = self.left()
        return self.cur < self.best.bound and (left is None or left > seconds)

    def solve_pieces(
        self, sub: WordsnakeInstance, limit: float | None
    ) -> tuple[list[str] | None, bool]:
        """The pieces' own exact solve (the default method without this search:
        ``state.piece_solver``)."""
        found = self.piece_solver(sub, limit)
        if found.solver_info.get("interrupted"):
            raise KeyboardInterrupt  # Ctrl-C reached the pieces' solve: stop searching
        return (list(found.solution) if found.solution else None), found.is_optimal

    def positions(self) -> np.ndarray:
        """Each item's position in the current ordering, found again only when the ordering
        changed (``reorder`` and ``family_open`` read it once a family).

        Returns
        -------
        numpy.ndarray of int64, shape (items,)
            ``positions()[x]`` is the index of item ``x`` in ``cur_seq``.
        """
        if self._pos is None or self._pos[0] is not self.cur_seq:
            pos = np.empty(len(self.cur_seq), dtype=np.int64)
            pos[np.asarray(self.cur_seq, dtype=np.int64)] = np.arange(len(self.cur_seq))
            self._pos = (self.cur_seq, pos)
        return self._pos[1]

    def reorder(self, focus: set[int], seconds: float) -> Any:
        """Re-order the pieces of the current ordering around ``focus`` exactly."""
        return reorder_pieces(
            self.instance,
            self.cur_seq,
            focus,
            self.pair,
            self.solve_pieces,
            time_limit=seconds,
            current=self.cur,
            positions=self.positions(),
            sep=self.sep,
        )

    def family_pass(self) -> None:
        """Each open family's words with :data:`FAMILY_RADIUS` neighbours in the ordering,
        re-ordered."""
        for k in range(len(self.cover.families)):
            left = self.left()
            if self.cur >= self.best.bound or (left is not None and left <= 2.0):
                return
            pos = self.positions()
            if not self.family_open(k, pos):
                self.searched["closed"] = self.searched.get("closed", 0) + 1
                continue
            focus = {x for w in self.family_words(k) for x in self.items_of(w)}
            for x in list(focus):
                p = int(pos[x])
                focus.update(self.cur_seq[max(0, p - FAMILY_RADIUS) : p + FAMILY_RADIUS + 1])
            left = self.left()  # the paths cannot be interrupted: what they left
            if left is not None and left <= 2.0:
                return
            done = self.reorder(focus, _share(FAMILY_TIME, left))
            self.searched["families"] += 1
            if done.objective > self.cur:
                self.searched["family_gain"] += done.objective - self.cur
                self.cur_seq, self.cur = done.order, done.objective

    def local_search(self) -> None:
        """Segment moves and ejection chains priced by the certificate's reduced costs
        (:func:`~cpwords.wordsnake.primal.local_search.reduced_cost_search`), until the bound, the
        deadline less 2 s or a local optimum; linear snakes without the ``proper`` rule."""
        if self.instance.cyclic or self.instance.proper or not self.time_for(2.0):
            return
        if self.cur_seq is self.local_optimum:  # nothing moved since the last local search
            return
        left = self.left()
        done = reduced_cost_search(
            self.pair,
            self.net.words,
            self.cur_seq,
            self.u_cert,
            self.v_cert,
            (self.depot_u, self.depot_v),
            self.add.cert.scale,
            deadline=None if left is None else time.perf_counter() + left - 2.0,
            target=self.best.bound - self.cur,
        )
        runs = self.searched.setdefault("local_search", [])
        runs.append({"gain": done.gain, **done.info})
        if done.gain > 0:
            self.cur_seq, self.cur = done.order, self.cur + done.gain
        if done.info["stopped"] == "local optimum":
            self.local_optimum = self.cur_seq
        if done.info["stopped"] == "interrupted":
            raise KeyboardInterrupt  # its moves kept: Ctrl-C stops the search as elsewhere

    def all_families(self) -> None:
        """Every family's words at once: changes that need two families together."""
        left = self.left()
        if self.cur >= self.best.bound or (left is not None and left <= 2.0):
            return
        words_f: set[int] = set()
        for k in range(len(self.cover.families)):
            words_f |= self.family_words(k)
        focus = {x for w in words_f for x in self.items_of(w)}
        left = self.left()  # what the paths left, when they were searched here
        if left is not None and left <= 2.0:
            return
        done = self.reorder(focus, _share(LNS_TIME, left))
        self.searched.update(done.info)
        self.searched["items"] = len(focus)
        self.searched["pieces_gain"] = (
            self.searched.get("pieces_gain", 0) + done.objective - (self.cur)
        )
        if done.objective > self.cur:
            self.cur_seq, self.cur = done.order, done.objective

    def wider_bound(self) -> None:
        """F grows by every partner of the cover's paths and the words they displace, in
        :data:`WIDE_GROWTH` rounds at most, until the bound meets the incumbent (card: the
        Dutch list's bound fell to its incumbent so in 4)."""
        t_wide = time.perf_counter()
        add = self.add
        try:
            wide = path_cover_bound(
                add.cert,
                self.net.words,
                self.net.mult,
                add.seeds,
                deadline=self.deadline,
                relaxed=add.relaxed,
                every_partner=True,
                grow=WIDE_GROWTH,
                target=self.cur,
                cache=add.cache,
            )
        except DeadlineReached:
            return
        add.info["wider_bound"] = {
            "bound": wide.bound,
            "lp_bound": wide.lp_bound,
            "words": wide.info["words"],
            "time": time.perf_counter() - t_wide,
            "cached": [add.cache.hits, add.cache.misses],
        }
        if wide.bound < self.best.bound:
            self.best = wide
            add.info["bound"] = wide.bound
            add.info["lp_bound"] = wide.lp_bound

    def hall_bound(self, seconds: float | None = None) -> None:
        """Hungarian dual steps on Hall sets of the incumbent's zero-slack joints
        (:func:`~cpwords.wordsnake.bounds.hall_step.hall_step`) on the best cover's certificate:
        when they lower its values' bound below the cover's, that certificate becomes the bound
        (the independent checker verifies it at the end like any other). At most ``seconds``
        (else the time left less 2 s); tried again on the same ordering only when a try ran out
        of its seconds; linear snakes only (the step refuses cyclic and ``proper`` ones)."""
        need = 2.0 + HALL_SECONDS_PER_WORD * self.instance.n
        if self.cur_seq is self._hall_tried or not self.time_for(need):
            return
        if self.instance.cyclic or self.instance.proper:
            return
        t_hall = time.perf_counter()
        left = self.left()
        until = None if left is None else t_hall + left - 2.0
        if seconds is not None:
            until = t_hall + seconds if until is None else min(until, t_hall + seconds)
        ids = self.net.item_word[np.asarray(self.cur_seq, dtype=np.int64)]
        best = self.best
        cert = replace(
            best.certificate,
            order=tuple(ids.tolist()),
            objective=self.cur,
            bound=best.bound,
            core_pairs=None,
        )
        stepped = hall_step(cert, self.net.words, deadline=until)
        done = time.perf_counter()
        if until is None or done < until:
            self._hall_tried = self.cur_seq
        runs = self.searched.setdefault("hall_steps", [])
        cut = until is not None and done >= until
        runs.append({"steps": 0, "time": done - t_hall, "cut": cut})
        self.add.hall_done = None if stepped is not None or cut else (best.certificate, ids)
        if stepped is None:
            return
        runs[-1]["steps"] = stepped.producer["hall_steps"]
        value = stepped.dual_value(self.net.mult.tolist()) // stepped.scale
        runs[-1]["bound"] = value
        if value < best.bound:
            self.best = replace(best, bound=value, lp_bound=value, certificate=stepped, data=None)
            self.add.info["bound"] = value
            self.add.info["lp_bound"] = value
            self.add.info["hall_bound"] = value

    def family_open(self, k: int, pos: np.ndarray) -> bool:
        """Whether the ordering's joints at family ``k``'s words cost more slack (reduced cost
        of the certificate) than the cover's paths of the family (if not, the family is as good
        as the bound lets it be: card, "skip the families whose joints cost no more")."""
        at: set[int] = set()  # positions p of the joints (cur_seq[p-1], cur_seq[p])
        for w in self.cover.families[k].tolist():
            for x in self.items_of(int(w)):
                at.update((int(pos[x]), int(pos[x]) + 1))
        total = sum(self._joint_slack(p) for p in at)
        return total > self.add.cert.scale * self.family_slack[k] + 1e-9

    def _joint_slack(self, p: int) -> int:
        """The certificate's slack of the joint at position ``p`` of the ordering."""
        seq, N = self.cur_seq, self.instance.n
        if self.instance.cyclic:
            a, b = seq[(p - 1) % N], seq[p % N]
        elif p == 0 or p == N:
            a, b = (-1, seq[0]) if p == 0 else (seq[-1], -1)
        else:
            a, b = seq[p - 1], seq[p]
        item_word = self.net.item_word
        wa = -1 if a < 0 else int(item_word[a])
        wb = -1 if b < 0 else int(item_word[b])
        if wa < 0:
            return int(self.depot_u + int(self.v_cert[wb]))
        if wb < 0:
            return int(int(self.u_cert[wa]) + self.depot_v)
        ov = overlap(self.net.words[wa], self.net.words[wb], self.instance.proper)
        scale = self.add.cert.scale
        gain = self.instance.weight(ov)
        return int(int(self.u_cert[wa]) + int(self.v_cert[wb]) - scale * gain)

    def family_words(self, k: int) -> set[int]:
        """The words family ``k``'s change touches: its cover's paths' words and partners, and
        the words on the augmenting paths that carry its change through the rest of the
        relaxation's flow."""
        if not self.focus_of:
            self._augmenting_paths()
        return self.focus_of[k]

    def _augmenting_paths(self) -> None:
        """Every family's focus words, and the augmenting paths of all the families found in one
        pair of shortest-path searches (card: "one Dijkstra on the residual network, one on its
        transpose"); a path's words go to the families whose imbalance it was searched for."""
        t_paths = time.perf_counter()
        assert self.dual is not None
        # The plain costs (``-weight``) when the search let them go: read from the network.
        cost = None if self.flow.plain_released else self.dual.cost
        paths = ResidualPaths(self.net, cost, dense_flows(self.dual.flows), self.add.pi)
        owners: dict[int, set[int]] = {}  # imbalanced node -> the families there
        total: dict[int, int] = {}
        for j, fam in enumerate(self.cover.families):
            self.focus_of[j], excess = self._family_focus(fam, paths)
            for v, units in excess.items():
                owners.setdefault(v, set()).add(j)
                total[v] = total.get(v, 0) + units
        before = sum(len(f) for f in self.focus_of.values())
        into, out_of = paths.paths_by_end({v: u for v, u in total.items() if u})
        for path, end in [(p, p[-1]) for p in into] + [(p, p[0]) for p in out_of]:
            on_path = paths.words_on(path)
            for j in owners.get(end, set()):
                self.focus_of[j] |= on_path
        self.searched["path_words"] = sum(len(f) for f in self.focus_of.values()) - before
        self.searched["paths_time"] = time.perf_counter() - t_paths

    def _family_focus(
        self, fam: np.ndarray, paths: ResidualPaths
    ) -> tuple[set[int], dict[int, int]]:
        """A family's words and its cover's partners, and its imbalance on the network
        (:meth:`~cpwords.wordsnake.relaxation.residual.ResidualPaths.excess`)."""
        cover, plain, proper = self.cover, self.net.words, self.instance.proper
        chosen = {int(w) for w in fam.tolist()}
        moves = []
        for w in fam.tolist():
            i = self.in_f[int(w)]
            nxt, prv = int(cover.cover_next[i]), int(cover.cover_prev[i])
            d_out = 0 if nxt < 0 else overlap(plain[w], plain[nxt], proper)
            d_in = 0 if prv < 0 else overlap(plain[prv], plain[w], proper)
            moves.append((int(w), d_out, d_in))
            chosen.update(x for x in (nxt, prv) if x >= 0)
        return chosen, paths.excess(moves)
