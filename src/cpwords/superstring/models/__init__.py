"""The superstring's exact side: the reduction to a substring-free list and the linear
Wordsnake that orders it (:mod:`~cpwords.superstring.models.reduce`,
:mod:`~cpwords.superstring.models.exact`)."""
