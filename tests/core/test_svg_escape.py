"""core.svg's own escape and quoteattr write what xml.sax.saxutils writes."""

from __future__ import annotations

from xml.sax import saxutils

from hypothesis import given
from hypothesis import strategies as st

from cpwords.core.svg import escape, quoteattr

_TEXT = st.text(alphabet=st.sampled_from("ab&<>\"'\n\r\t;é語 "), max_size=12) | st.text(max_size=12)


@given(_TEXT)
def test_escape_is_saxutils_escape(text: str) -> None:
    assert escape(text) == saxutils.escape(text)


@given(_TEXT)
def test_quoteattr_is_saxutils_quoteattr(text: str) -> None:
    assert quoteattr(text) == saxutils.quoteattr(text)
