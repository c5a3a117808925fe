"""Talking to the tools optimisation people already use.

* :mod:`.tsplib` — a Wordsnake as a TSPLIB ``ATSP`` file (for LKH, Concorde after the usual
  ATSP-to-TSP transformation, or any TSPLIB reader) and TSPLIB ``.tour`` files read back.
* :mod:`.model_export` — the exact models as MPS/LP (letter-hub MIP) or CP-SAT protobuf files.
"""
