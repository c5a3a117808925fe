"""The repair index's counts of word nodes, held in a byte a node, read as the whole count."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.wordsnake.primal import node_ranks
from cpwords.wordsnake.primal.node_ranks import NodeRanks


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 700),
    st.data(),
    st.sampled_from([(256, 256 << 12), (256, 256), (4, 8), (1, 3), (16, 16)]),
)
def test_node_ranks_are_the_counts_of_marked_nodes_below(
    size: int, data: st.DataObject, blocks: tuple[int, int]
) -> None:
    # Any marked nodes (none, all, runs longer than a block), blocks and build chunks of any
    # size: each node's count equals the 32-bit count of every node (the old array), the
    # node past the last included.
    marked = data.draw(st.sets(st.integers(0, max(size - 1, 0)), max_size=size))
    if data.draw(st.booleans()) and size:
        marked = set(range(size))
    nodes = np.array(sorted(marked), dtype=np.int64)
    want = np.zeros(size + 1, dtype=np.int32)
    want[nodes + 1] = 1
    np.cumsum(want, out=want)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(node_ranks, "RANK_BLOCK", blocks[0])
        mp.setattr(node_ranks, "BUILD_CHUNK", blocks[1])
        ranks = NodeRanks(size, nodes)
        got = [ranks.before(v) for v in range(size + 1)]
    assert got == want.tolist()
