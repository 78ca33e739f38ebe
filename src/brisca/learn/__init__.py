"""Learning players: the self-play trainer of the ``net`` player (``brisca train``).

Playing a trained network needs numpy alone (:mod:`brisca.agents.net`); training needs numpy, and runs
much faster with the optional ``learn`` extra (torch), on a GPU where there is one. The modules, each importing
only those listed after it (the ``learn`` contract in pyproject.toml):

- :mod:`~brisca.learn.command`: ``brisca train``'s options and its errors as one line;
- :mod:`~brisca.learn.run`: a run's folder (state, checkpoints, league, curve) and its loop of updates;
- :mod:`~brisca.learn.evaluation`: the network against the project's players, cut at the time limit;
- :mod:`~brisca.learn.progress`: what a run prints: where it starts and for how long, a line a minute, why it
  stopped;
- :mod:`~brisca.learn.collectors`: the self-play as tasks on a Ray cluster;
- :mod:`~brisca.learn.selfplay`, :mod:`~brisca.learn.demonstrations`: the hands a worker plays and the samples it
  keeps; :mod:`~brisca.learn.learners`: the updates they feed (numpy or torch);
- :mod:`~brisca.learn.network`: the network's arrays; :mod:`~brisca.learn.deadline`: the time limit, on a clock
  passed in.

:mod:`~brisca.learn.bench` measures the self-play (``brisca bench --selfplay``); :mod:`~brisca.learn.train`
keeps the names first published there.
"""
