"""Shortest common superstring: the shortest string that contains every word of a list.

The Wordsnake's cousin (issue 32): once the words contained in others drop out, a shortest
superstring is the kept words in the order that maximises the sum of their overlaps, the
Wordsnake with the linear score. This wing stands on the Wordsnake's (the contract in
``pyproject.toml`` puts it above the wings); the same rooms inside (lint-imports checks the
order: a module may import only those below it):

* ``draw.py`` — the superstring drawn, each word underlined where it sits;
* ``spec.py`` — the methods registry, how an instance is read, how an answer is re-checked,
  and the Python entry points :func:`cpwords.superstring.spec.solve_superstring`,
  :func:`~cpwords.superstring.spec.compare_superstring` and
  :func:`~cpwords.superstring.spec.verify_superstring_certificate`;
* ``models/`` — the reduction (contained words drop out, every word placed) and the exact
  method (the linear Wordsnake of the kept words, proven by its certificate);
* ``heuristics.py`` — greedy merging;
* ``rules.py`` — the instance type, the rules and the independent checkers (every word in
  the superstring; the kept words substring-free), sharing no code with the models.
* ``genomes.py`` — the k-mers of a real genome (a FASTA file, read with dnaio), beside the
  rules: it imports no other room.
"""
