"""``python -m cpwords`` runs the command line."""

from .cli import main

main()
