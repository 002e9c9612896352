"""The layout workshop: sight analysis of a map (``analysis``) and balance experiments of AI-vs-AI
games on dask.distributed (``experiment``, ``stats``). dask, matplotlib and tqdm come from the
optional ``workshop`` extra and are imported only by the experiment runner and its plots."""
