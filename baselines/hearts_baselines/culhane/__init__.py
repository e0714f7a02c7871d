"""Paper 001 (Culhane): a deep Q-network over the 217-d state-action vector (spec ``culhane``).

Q(s, a) is one scalar from ``culhane217`` with the action block one-hot on the card
(:func:`hearts_env.encoders.culhane217.state_action_rows`); the reward is the per-trick point
differential; training pretrains on ``greedy`` deals, then plays four-seat self-play with a small
replay (:mod:`.train`). See docs/culhane.md.
"""
