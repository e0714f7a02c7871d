"""``"culhane217"``: the state part of Culhane's state-action vector (paper 001, §1 and §3).

Size ``4 * N + 9`` (217 standard, 137 Dutch). Card blocks in action-id order (2♣ … A♠).

==================  ============================================================================
index               meaning
==================  ============================================================================
``[0, N)``          cards played this deal in completed tricks
``[N, 2N)``         cards of the current trick
``2N + p``          current player one-hot: the **absolute** seat ``p`` (0..3) to act, as in the
                    paper ("who the current player is"); all 0 once the deal is over
``2N + 4 + s``      led suit one-hot (clubs, diamonds, hearts, spades); all 0 when no card of the
                    current trick has been played
``[2N+8, 3N+8)``    my hand (cards held and not chosen to pass)
``3N + 8``          can follow suit: a suit is led and my hand holds it
``[3N+9, 4N+9)``    the action being evaluated: **all 0** in an observation; fill it with
                    :func:`state_action_rows` to get one row per legal card for a Q(s, a) network
==================  ============================================================================

"Played this deal" excludes the current trick so that every card sits in at most one of the two
blocks (the paper's wording does not say; this keeps them disjoint).

Passing (the paper has none): while passing, only the hand block (cards not yet chosen to pass)
and the current-player one-hot are set; the action block then holds a candidate *pass* in
:func:`state_action_rows`. A passing state with no card chosen yet reads like the opening-lead
state of the same 13 cards; under ``opening_lead="lowest_club"`` that lead is forced (one legal
row, 2♣), so a Q-network is not asked to tell the two apart where it matters. Prefer ``"rich"``
or ``"paper"`` if passing is learned seriously. All slots binary.
"""

from __future__ import annotations

import numpy as np

from hearts_env.encoders import BinaryEncoder, register_encoder
from hearts_env.rules import Rules
from hearts_env.tables import tables_of
from hearts_env.views import SeatView


def state_action_rows(obs: np.ndarray, mask: np.ndarray | int) -> np.ndarray:
    """One ``(4N + 9)``-row per legal card: ``obs`` with the action block one-hot on that card.

    ``mask`` is an action mask (array of length N, nonzero = legal, e.g. PettingZoo's
    ``action_mask``) or an int bitmask of card ids. Rows are in ascending card order and have
    ``obs``'s dtype; returns shape ``(n_legal, 4N + 9)``.
    """
    obs = np.asarray(obs)
    size = obs.shape[-1]
    n = (size - 9) // 4
    if obs.ndim != 1 or 4 * n + 9 != size:
        raise ValueError(f"obs must be one culhane217 vector of size 4*N+9 (217 or 137), got shape {obs.shape}")
    if isinstance(mask, (int, np.integer)):
        m = int(mask)
        cards = []
        while m:
            low = m & -m
            cards.append(low.bit_length() - 1)
            m ^= low
        legal = np.array(cards, dtype=np.intp)
    else:
        legal = np.flatnonzero(np.asarray(mask)[:n])
    rows = np.repeat(obs[None, :], len(legal), axis=0)
    rows[:, 3 * n + 9:] = 0
    rows[np.arange(len(legal)), 3 * n + 9 + legal] = 1
    return rows


class Culhane217Encoder(BinaryEncoder):
    """Culhane's 217-d state (action block zero); see the module docstring."""

    name = "culhane217"

    @classmethod
    def vector_size(cls, rules: Rules) -> int:
        return 4 * rules.deck_obj.size + 9

    def __init__(self, rules: Rules | str | None = None, dtype: str | type = "float32"):
        super().__init__(rules, dtype)
        t = tables_of(self.rules)
        self.n = t.size
        self.rps = t.ranks_per_suit
        self.suit_masks = t.suits

    def bits(self, view: SeatView) -> int:
        n = self.n
        pb = view.played_by
        table = view.trick_mask
        hand = view.hand & ~view.passed
        bits = ((pb[0] | pb[1] | pb[2] | pb[3]) & ~table) | table << n | hand << 2 * n + 8
        if view.current >= 0:
            bits |= 1 << 2 * n + view.current
        if view.trick:
            led = view.trick[0] // self.rps
            bits |= 1 << 2 * n + 4 + led
            if hand & self.suit_masks[led]:
                bits |= 1 << 3 * n + 8
        return bits



register_encoder("culhane217", Culhane217Encoder)
