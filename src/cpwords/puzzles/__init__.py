"""One module per puzzle: instance type, rules, scorer and independent checker. No solvers here.

Names of the checkers say what they give back:

* ``<puzzle>_problems(...)`` -> list of str: every broken rule; empty means valid;
* ``is_valid_<puzzle>(...)`` -> bool: no problems;
* ``verify_<what>(...)`` -> None: raises :class:`~cpwords.errors.CheckError` (a bug in a solver)
  when there are problems;
* ``validate_<what>(...)`` -> None: raises :class:`~cpwords.errors.InputError` on bad input.
"""
