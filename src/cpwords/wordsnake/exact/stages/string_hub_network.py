"""Stage "string-hub network": the overlap graph as O(total letters) hubs and arcs."""

from __future__ import annotations

from dataclasses import replace

from cpwords.wordsnake.exact.state import ProofState
from cpwords.wordsnake.relaxation.string_hub import build_string_network


def build_network(state: ProofState) -> None:
    """Stage "string-hub network": the overlap graph as O(total letters) hubs and arcs
    (:func:`~cpwords.wordsnake.relaxation.string_hub.build_string_network`)."""
    state.report(state.elapsed(), None, None, "building the string-hub network")
    net = build_string_network(state.instance, first_deadline(state))
    # The trie's table of children only builds the network: no later stage reads it.
    state.net = replace(net, trie=net.trie.without_children())


#: Seconds per letter kept at the end of the limit, after the first incumbent, for scoring it
#: and, when the greedy matching was cut short, the input order it is weighed against: about
#: 1.3 times the two scorings measured (977,555 31-mers of C. elegans, 30.3 million letters:
#: 2.5 s and 2.0 s, with no time kept ``cpwords superstring --time-limit 25`` ended at 28-30
#: s; the French wordfreq list's input order, 2.3 million letters: 0.17 s). Kept a word at a
#: time (5 us), it took 1.5 s of that list's ``--time-limit 3``.
ANSWER_SECONDS_PER_LETTER = 0.2e-6


def first_deadline(state: ProofState) -> float | None:
    """The end of the network and of the first incumbent (the greedy assignment): the end of
    the whole limit, past the flow stages' deadline, less the time to score the incumbent
    (:data:`ANSWER_SECONDS_PER_LETTER`). A limit that ends them before the first flow bound
    leaves no certificate to write, so its reserve goes to the ordering (issue 34, item 22: the
    French wordfreq list at ``--time-limit 10`` returned its input order, 4,868,119, where the
    greedy assignment reaches the optimum, 7,375,786, in 4.3 s). Small lists keep the flow
    stages' deadline (the rest of the limit is the exact search's)."""
    if state.small or state.end is None:
        return state.flow_deadline
    letters = sum(len(w) for w in state.instance.words)
    return state.end - ANSWER_SECONDS_PER_LETTER * letters
