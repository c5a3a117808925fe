"""What every puzzle wing shares; imports no wing (``lint-imports`` holds it to that).

* :mod:`~cpwords.core.spec` — the seam: :class:`~cpwords.core.spec.PuzzleSpec`,
  :func:`~cpwords.core.spec.solve` (run a method, re-check its answer with the puzzle's
  independent checker), :func:`~cpwords.core.spec.get_spec`;
* :mod:`~cpwords.core.result` — :class:`~cpwords.core.result.SolveResult`,
  :class:`~cpwords.core.result.Status`, the gap;
* :mod:`~cpwords.core.errors` — :class:`~cpwords.core.errors.InputError` (bad input, exit 2),
  :class:`~cpwords.core.errors.CheckError` (a solver's answer failed its checker),
  :class:`~cpwords.core.errors.ModelError`;
* :mod:`~cpwords.core.lexicon` — reading word lists and lexicons (files, ``wordfreq``,
  ``english-words``), word frequencies; :mod:`~cpwords.core.sources` — where word lists come
  from (one resolver for ``--dict`` and the pages, and the benchmark instances);
  :mod:`~cpwords.core.wordlists` — the games' word lists shipped inside the package;
* :mod:`~cpwords.core.cpsat_status`, :mod:`~cpwords.core.cpsat_stop`,
  :mod:`~cpwords.core.native` — living with CP-SAT and HiGHS (status translation, Ctrl-C,
  silenced banners); :mod:`~cpwords.core.interrupts` — which signal interrupted a command;
  :mod:`~cpwords.core.machine` — memory and cores.

Every wing names its checkers alike:

* ``<puzzle>_problems(...)`` -> list of str: every broken rule; empty means valid;
* ``is_valid_<puzzle>(...)`` -> bool: no problems;
* ``verify_<what>(...)`` -> None: raises :class:`~cpwords.core.errors.CheckError` (a bug in a
  solver) when there are problems;
* ``validate_<what>(...)`` -> None: raises :class:`~cpwords.core.errors.InputError` on bad
  input.
"""
