"""``apprentice``: a network trained on ``pimc``'s decisions (search data → warm start → PPO); docs/learned.md."""
