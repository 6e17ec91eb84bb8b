"""The engine's named façade: enums, named columns, deal states, and the simulate_deals / trace / analyse
entry points over the compiled kernel.

* :mod:`.codes`: what the kernel's integers mean (End, Act, DealEnd, PolicyId, Records, the columns);
* :mod:`.api`: :func:`~.api.simulate_deals` a batch of deals into named columns, timing, kernel loading;
* :mod:`.state`: :class:`~.state.DealState`, one deal move by move, and :func:`~.state.trace`;
* :mod:`.matches`: matches (docs/rules.md 12) in batches and as traces;
* :mod:`.analysis`: rollouts of a position's moves over re-dealt hidden tiles;
* :mod:`.decisions`: the first-double decision table of a batch.

Everything numba compiles, and every integer layout, is in :mod:`._kernel`; nothing outside
simdom/engine/ imports it (tests/test_architecture.py derives the boundary from the folder).
"""
