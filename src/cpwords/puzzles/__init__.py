"""One module per puzzle: instance type, rules, scorer and independent checker. No solvers here."""
