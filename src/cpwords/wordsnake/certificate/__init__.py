"""Wordsnake optimality certificates: the file format and an independent checker.

One room per part: :mod:`~cpwords.wordsnake.certificate.format` (types, JSON, size caps;
``schema.json`` is the format as a JSON Schema), :mod:`~cpwords.wordsnake.certificate.duals` (the
values and cuts), :mod:`~cpwords.wordsnake.certificate.scores` (an ordering's score),
:mod:`~cpwords.wordsnake.certificate.tree` and
:mod:`~cpwords.wordsnake.certificate.leaves` (proof trees),
:mod:`~cpwords.wordsnake.certificate.check` (:func:`verify_certificate`, the one entry). The checker
shares no code with the models, the rules or any solver (an import-linter contract keeps it so).

A certificate proves an upper bound on the Wordsnake score of a word list with a dual solution
of the *assignment relaxation* strengthened by *connectivity cuts*. Whatever produced the
numbers, any values that satisfy every inequality below prove the bound; this module checks
them from the strings alone and shares no code with the models (nor with the overlap graph).

**Items and pairs.** Every listed word is an item (a word listed ``m`` times is ``m`` items,
its *copies*). A linear snake also has the *depot* ``d`` (its start and end). A solution is a
cycle through all items (and ``d``): ``a -> b`` scores ``ov(a, b)^2``, ``ov`` being the longest
suffix of ``a`` that is a prefix of ``b`` (``--proper``: shorter than both words); arcs into and
out of ``d`` score 0. A certificate of the *linear* score (``variant.score``: ``"linear"``, the
shortest superstring's) reads ``ov(a, b)`` for ``ov(a, b)^2`` everywhere below.

**Values.** Integers in units of ``1 / scale``: ``u(w)`` and ``v(w)`` for every distinct word
``w`` (shared by its copies), ``u(d)`` and ``v(d)`` for a linear snake, and cut sets ``S_k``
(sets of distinct words, standing for all their copies; never the depot; for a cyclic snake,
never every word) with multipliers ``lambda_k >= 0``.

**Valid** when, for every ordered pair of different items ``a -> b`` (two copies of a word are
different items)::

    u(a) + v(b) >= scale * ov(a, b)^2 + sum of lambda_k over the k with b in S_k, a not in S_k

and, for a linear snake, ``u(d) + v(b) >= sum of lambda_k over the k with b in S_k`` for every
``b`` and ``u(a) + v(d) >= 0`` for every ``a``.

**Bound.** Then every snake scores at most ``floor(B / scale)`` with ``B = sum over items of
(u + v) + u(d) + v(d) - sum of lambda_k``: each item has one successor and one predecessor,
so a snake's score is at most the sum of its arcs' right-hand sides less the cut terms, and it
enters every ``S_k`` at least once (the depot, or for a cyclic snake a word, lies outside).
A cyclic snake of one item has no joint and no inequality: its bound is 0 whatever the values.

**Checking every pair without enumerating pairs.** Let ``C`` be the words in some cut and
``L(b)`` the sum of the multipliers of the cuts holding ``b``. For ``a`` outside ``C`` the
right-hand side is ``scale * ov^2 + L(b)``, so ``v'(b) = v(b) - L(b)`` turns it into a plain
overlap inequality; for ``a`` in ``C`` and ``b`` outside it, there is no cut term. The checker
keeps, for every prefix ``s`` of a word, the two smallest ``v'`` (and, when ``C`` is not empty,
the two smallest ``v`` of words outside ``C``) over the distinct words that start with ``s`` and,
for every word ``a`` and every suffix ``s`` of ``a``, checks ``u(a)`` against the smallest value
of a word other than ``a`` (or of a copy of ``a``). The ``|s|^2`` of a shorter common string is
at most ``ov^2``, so checking every common string is exactly checking the longest. For pairs
inside ``C``, the words of ``C`` are grouped by the cuts of two words or more that hold them (their
*signature*): ``a`` shares the same multipliers ``M`` with every word of a class, so the right-hand
side is ``scale * ov^2 + L(b) - M`` and the class's own table of the two smallest ``v'``, queried
with ``u(a) + M``, checks them all. Time ``O(total letters + letters of C * classes)``: linear
for one cut or a few, whatever their size, and never more than checking the pairs of ``C`` one by
one; memory O(total letters).

**The file** is one JSON object, gzip-compressed when its name ends in ``.gz``; see
:func:`certificate_to_json` for its keys and ``models/wordsnake.md`` (section "Certificates")
for the exact meaning, enough to write another checker from the text alone.
"""

from cpwords.wordsnake.certificate.check import verify_certificate, verify_pairwise
from cpwords.wordsnake.certificate.columns import IntColumn
from cpwords.wordsnake.certificate.format import (
    CORE_CHECK_MAX,
    FORMAT,
    INT_LIMIT,
    SCORES,
    TREE_MODELS,
    VERSION,
    VERSIONS,
    Certificate,
    CertificateCheck,
    CertificateError,
    CoreSet,
    TreeNode,
    carries_values,
    certificate_cap,
    certificate_from_json,
    certificate_to_json,
    read_certificate,
    word_fingerprint,
    write_certificate,
)
from cpwords.wordsnake.certificate.tree import RootCore, RootCoreTooLarge, no_snake, root_core

__all__ = [
    "CORE_CHECK_MAX",
    "FORMAT",
    "INT_LIMIT",
    "SCORES",
    "TREE_MODELS",
    "VERSION",
    "VERSIONS",
    "Certificate",
    "CertificateCheck",
    "CertificateError",
    "CoreSet",
    "IntColumn",
    "RootCore",
    "RootCoreTooLarge",
    "TreeNode",
    "carries_values",
    "certificate_cap",
    "certificate_from_json",
    "certificate_to_json",
    "no_snake",
    "read_certificate",
    "root_core",
    "verify_certificate",
    "verify_pairwise",
    "word_fingerprint",
    "write_certificate",
]
