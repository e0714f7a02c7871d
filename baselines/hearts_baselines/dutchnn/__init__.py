"""Paper 003 (the Groningen thesis, Dutch 32-card Hearts): one MLP per trick over the 107 inputs,
trained by Monte Carlo self-play, and the agent that plays it (spec ``dutchnn``).

The thesis's rollout agent is :class:`~hearts_baselines.search.pimc.PIMCAgent` with this network as
its rollout policy and ranking, e.g.
``pimc(n=200, m=8, policy='dutchnn(brain=strongman)', rank='dutchnn(brain=strongman)')``.
"""
