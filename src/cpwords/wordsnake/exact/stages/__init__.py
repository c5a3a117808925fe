"""The default exact method's stages, one module per entry of
:data:`~cpwords.wordsnake.exact.policy.STAGES`, named like it (a test checks the two lists
against each other and against the card's).
"""
