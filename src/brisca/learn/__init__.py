"""Learning players: the self-play trainer of the ``net`` player (:mod:`brisca.learn.train`).

Playing a trained network needs numpy alone (:mod:`brisca.agents.net`); training needs numpy, and runs
much faster with the optional ``learn`` extra (torch), on a GPU where there is one.
"""
