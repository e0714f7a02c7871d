"""Paper 004 (Sturtevant & White 2006): TD(λ) over conjunctions of atomic features, played by max^n.

See ``docs/tdlambda.md``. ``features`` names the atoms and their conjunction sets, ``kernels`` is
the compiled hot loop (features, value, search to the end of the trick, TD update), ``plain``
an independent slow implementation the tests compare it with, ``model`` the weights and the
evaluator, ``agent`` the player (spec ``tdlambda``) and ``train`` the training command.
"""
