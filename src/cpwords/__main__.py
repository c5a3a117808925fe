"""``python -m cpwords`` runs the command line."""

from cpwords.cli import main

main()
