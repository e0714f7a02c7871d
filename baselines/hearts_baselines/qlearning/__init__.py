"""Paper 002 (Cai et al. 2024) §2.3: tabular Q-learning over 12 hand-designed states × {good, bad}.

See ``docs/qlearning.md``. ``states`` maps a seat's view to one of the paper's 12 states and each
abstract action to a legal card; ``agent`` is the player (spec ``qlearning``) and its learning rule;
``train`` is the training command.
"""
