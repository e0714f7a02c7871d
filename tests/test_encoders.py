"""Observation encoders: exact layouts on hand-built positions, spaces, and leak tests.

The leak tests are generic over every registered encoding: an encoding may depend only on what
the observing seat knows, so two deals that the seat cannot tell apart must encode the same.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hearts_env.cards import card_id
from hearts_env.encoders import EncoderError, encoder_names, make_encoder
from hearts_env.engine import Deal, IllegalActionError, Phase
from hearts_env.rules import make_rules
from hearts_env.views import SeatView

RULE_SPECS = [
    "standard",
    "openspiel",
    "sturtevant",
    "dutch",
    "standard(jd_bonus=true, avoid_all_tricks_bonus=true, passing=across, pass_count=2)",
    "dutch(passing=left)",
]
DTYPES = ["float32", "uint8"]


def supported(name: str) -> list[str]:
    """Rule specs (of RULE_SPECS) that encoding ``name`` accepts."""
    out = []
    for spec in RULE_SPECS:
        try:
            make_encoder(name, spec)
        except EncoderError:
            continue
        out.append(spec)
    return out


ENCODER_RULES = [(name, spec) for name in encoder_names() for spec in supported(name)]


def random_positions(rules, seed: int, game_scores=(0, 0, 0, 0)):
    """Every position of one random deal (a deal per position, each a replay-able history)."""
    rng = np.random.default_rng(seed)
    deal = Deal.random(rules, rng, game_scores=game_scores)
    yield deal.clone()
    while not deal.is_over:
        legal = deal.legal_cards()
        deal.apply(legal[int(rng.integers(len(legal)))])
        yield deal.clone()


def replay(rules, hands, direction, history, game_scores=(0, 0, 0, 0), dealer=3) -> Deal:
    deal = Deal.from_hands(rules, list(hands), pass_direction=direction, dealer=dealer, game_scores=game_scores)
    for card in history:
        deal.apply(card)
    return deal


def ids(*names: str, deck: str = "standard") -> list[int]:
    return [card_id(n, deck) for n in names]


def ones(vec: np.ndarray) -> set[int]:
    return set(np.flatnonzero(vec).tolist())


# --- generic: spaces ------------------------------------------------------------------------


def test_registry_lists_the_builtin_encodings():
    names = encoder_names()
    assert "rich" in names
    with pytest.raises(EncoderError, match="valid names"):
        make_encoder("no-such-encoding")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("name", "spec"), ENCODER_RULES)
def test_observations_lie_in_the_declared_space(name, spec, dtype):
    rules = make_rules(spec)
    enc = make_encoder(name, rules, dtype)
    space = enc.space()
    assert space.shape == (enc.size,)
    assert space.dtype == np.dtype(dtype)
    scores = (37, -26, 250, 0) if rules.game == "match" else (0, 0, 0, 0)
    for seed in range(3):
        for deal in random_positions(rules, seed, scores):
            for seat in range(4):
                obs = enc.encode(SeatView.of(deal, seat))
                assert obs.shape == (enc.size,) and obs.dtype == np.dtype(dtype)
                assert space.contains(obs), (name, spec, dtype, deal, seat)


@pytest.mark.parametrize(("name", "spec"), ENCODER_RULES)
def test_encode_into_out_and_dtypes_agree(name, spec):
    rules = make_rules(spec)
    enc = make_encoder(name, rules)
    enc8 = make_encoder(name, rules, "uint8")
    deal = list(random_positions(rules, 5))[30]
    view = SeatView.of(deal, deal.current)
    out = np.full(enc.size, 7.0, dtype=np.float32)
    res = enc.encode(view, out=out)
    assert res is out
    np.testing.assert_array_equal(out, enc.encode(view))
    # uint8 and float32 carry the same binary slots
    f = enc.encode(view)
    u = enc8.encode(view)
    binary = enc8.space().high == 1
    np.testing.assert_array_equal(f[binary], u[binary])
    # non-binary slots: uint8 holds round(255 * x) of the float32 value x
    diff = np.abs(u[~binary].astype(np.int64) - np.round(255 * f[~binary].astype(np.float64)))
    assert diff.max(initial=0) <= 1


# --- generic: leak tests --------------------------------------------------------------------


def _alternative_hands(deal: Deal, observer: int, rng: np.random.Generator) -> list[int] | None:
    """Dealt hands the observer cannot tell from the real ones: per suit, the opponents'
    unplayed cards that no seat passed are shuffled among the same opponents' slots (so every
    opponent keeps its number of cards of each suit, and its shown voids stay true).

    The lowest club stays put under ``opening_lead="lowest_club"``: its holder is public once
    play starts (that seat is asked to lead)."""
    passed_any = deal.passed[0] | deal.passed[1] | deal.passed[2] | deal.passed[3]
    played = deal.played | (1 if deal.rules.opening_lead == "lowest_club" else 0)
    free = [deal.dealt[s] & ~played & ~passed_any if s != observer else 0 for s in range(4)]
    hands = list(deal.dealt)
    for suit in range(4):
        sm = deal.deck.suit_mask(suit)
        slots = []  # (seat, card) of every free card of this suit
        for s in range(4):
            m = free[s] & sm
            while m:
                low = m & -m
                slots.append((s, low.bit_length() - 1))
                m ^= low
        cards = [c for _, c in slots]
        perm = rng.permutation(len(cards))
        for (s, old), k in zip(slots, perm):
            new = cards[k]
            if new != old:
                hands[s] &= ~(1 << old)
        for (s, _), k in zip(slots, perm):
            hands[s] |= 1 << cards[k]
    return hands if hands != list(deal.dealt) else None


def _indistinguishable_pair(enc, rules, seed: int, cut: float, observer: int):
    """Encodings of a random position and of a reshuffled twin the observer cannot tell apart,
    or None when no valid twin was found."""
    positions = list(random_positions(rules, seed, (12, 40, 3, 77) if rules.game == "match" else (0,) * 4))
    deal = positions[int(cut * (len(positions) - 1))]
    hands = _alternative_hands(deal, observer, np.random.default_rng(seed ^ 0x5EED))
    if hands is None:
        return None
    try:
        other = replay(rules, hands, deal.pass_direction, deal.history, deal.game_scores, deal.dealer)
    except IllegalActionError:
        return None  # a shuffle the history rules out (e.g. a first-trick point-card exception)
    assert other.hands != deal.hands
    return enc.encode(SeatView.of(deal, observer)).copy(), enc.encode(SeatView.of(other, observer)).copy()


@pytest.mark.parametrize(("name", "spec"), ENCODER_RULES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1), observer=st.integers(0, 3))
def test_no_leak_of_unseen_cards(name, spec, seed, cut, observer):
    rules = make_rules(spec)
    pair = _indistinguishable_pair(make_encoder(name, rules), rules, seed, cut, observer)
    assume(pair is not None)
    np.testing.assert_array_equal(*pair)


class _LeakyEncoder:
    """A deliberately wrong encoding: the left opponent's current hand, taken from the deal
    behind the view (a SeatView has no such field, so it needs a side channel)."""

    def __init__(self, rules):
        self.rules = rules
        self.deal_of = {}

    def encode(self, view):
        deal = self.deal_of[id(view)]
        left = deal.hands[(view.seat + 1) & 3]
        return np.array([left >> c & 1 for c in range(deal.deck.size)], dtype=np.float32)


def test_leak_check_catches_a_leaky_encoding(monkeypatch):
    rules = make_rules("standard")
    leaky = _LeakyEncoder(rules)
    real_of = SeatView.of

    def spying_of(deal, seat, *args):
        view = real_of(deal, seat, *args)
        leaky.deal_of[id(view)] = deal
        return view

    monkeypatch.setattr(SeatView, "of", spying_of)
    caught = 0
    for seed in range(10):
        pair = _indistinguishable_pair(leaky, rules, seed, 0.3, 0)
        caught += pair is not None and not np.array_equal(*pair)
    assert caught >= 5


@pytest.mark.parametrize("name", encoder_names())
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), observer=st.integers(0, 3), direction=st.integers(1, 3))
def test_received_cards_invisible_until_every_pass_is_chosen(name, seed, observer, direction):
    specs = [s for s in supported(name) if make_rules(s).has_passing]
    assume(specs)
    rules = make_rules(specs[seed % len(specs)])
    rng = np.random.default_rng(seed)
    deal = Deal.random(rules, rng, pass_direction=direction)
    pc = rules.pass_count
    # two pass histories that agree on the observer's own passes only
    histories = []
    for _ in range(2):
        hist = []
        for s in range(4):
            cards = np.flatnonzero([(deal.hands[s] >> c) & 1 for c in range(deal.deck.size)])
            if s == observer and histories:
                hist += histories[0][s * pc:(s + 1) * pc]
            else:
                hist += rng.choice(cards, pc, replace=False).tolist()
        histories.append(hist)
    assume(histories[0] != histories[1])
    enc = make_encoder(name, rules)
    last = 4 * pc - 1
    obs = []
    for hist in histories:
        d = deal.clone()
        for card in hist[:last]:
            d.apply(int(card))
        assert d.phase == Phase.PASS
        obs.append(enc.encode(SeatView.of(d, observer)).copy())
    np.testing.assert_array_equal(obs[0], obs[1])


# --- rich: exact layout ---------------------------------------------------------------------

N = 52
R = 11 * N  # start of the flag/scalar tail of "rich"
SUIT_HANDS = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
              "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"]
PASSES = ["AC", "KC", "QC", "AD", "KD", "QD", "AH", "KH", "QH", "AS", "KS", "QS"]


def test_rich_sizes():
    assert make_encoder("rich", "standard").size == 620
    assert make_encoder("rich", "dutch").size == 400


def test_rich_layout_while_passing():
    rules = make_rules("standard")
    deal = Deal.from_hands(rules, SUIT_HANDS, pass_direction="left", game_scores=(10, 20, 30, 120))
    deal.apply_all(["AC", "KC"])
    enc = make_encoder("rich", rules)
    v0 = enc.encode(SeatView.of(deal, 0)).copy()
    expected_bits = (set(range(0, 11))  # hand: 2C..JC (AC, KC chosen to pass)
                     | {N + 11, N + 12}  # passed KC, AC
                     | {R + 33, R + 34, R + 37, R + 40})  # Q♠ out, passing, left, I act
    scalars = {R + 20: 0.1, R + 21: 0.2, R + 22: 0.3, R + 23: 1.0}  # scores /100, clipped
    assert ones(v0) == expected_bits | set(scalars)
    for i, x in scalars.items():
        assert v0[i] == pytest.approx(x)

    v2 = enc.encode(SeatView.of(deal, 2)).copy()
    expected_bits = set(range(26, 39)) | {R + 33, R + 34, R + 37, R + 42}  # seat 0 (across) acts
    scalars = {R + 20: 0.3, R + 21: 1.0, R + 22: 0.1, R + 23: 0.2}
    assert ones(v2) == expected_bits | set(scalars)
    for i, x in scalars.items():
        assert v2[i] == pytest.approx(x)

    v2u = make_encoder("rich", rules, "uint8").encode(SeatView.of(deal, 2))
    assert [int(v2u[i]) for i in scalars] == [round(255 * x) for x in scalars.values()]


def test_rich_layout_while_playing():
    rules = make_rules("standard")
    deal = Deal.from_hands(rules, SUIT_HANDS, pass_direction="left")
    deal.apply_all(PASSES)
    # trick 1: 2C (0), QC (1), QD (2), 2S (3) -> seat 1 wins; trick 2: 2D (1), KD (2), QH (3), ...
    deal.apply_all(["2C", "QC", "QD", "2S", "2D", "KD", "QH"])
    enc = make_encoder("rich", rules)
    v = enc.encode(SeatView.of(deal, 0)).copy()
    qc, d2, qd, kd, s2, qh = ids("QC", "2D", "QD", "KD", "2S", "QH")
    expected = (set(range(1, 10)) | set(ids("QS", "KS", "AS"))  # hand: 3C..JC + received spades
                | {N + c for c in ids("QC", "KC", "AC")}  # passed
                | {2 * N + c for c in ids("QS", "KS", "AS")}  # received
                | {3 * N + 0, 4 * N + qc, 4 * N + d2, 5 * N + qd, 5 * N + kd, 6 * N + s2, 6 * N + qh}  # played
                | {8 * N + d2, 9 * N + kd, 10 * N + qh}  # current trick by left, across, right
                | {R + 2 * 4 + 0, R + 3 * 4 + 0, R + 3 * 4 + 1}  # voids: across clubs; right clubs, diamonds
                | {R + 29}  # left won a trick
                | {R + 32, R + 33, R + 35, R + 37, R + 40, R + 45})  # broken, Q♠ out, play, left, I act, left led
    assert ones(v) == expected

    deal.apply_all(["QS"])  # seat 2 wins KD trick: QH + QS = 14 points
    v3 = enc.encode(SeatView.of(deal, 3)).copy()
    assert v3[R + 16: R + 20].tolist() == pytest.approx([0, 0, 0, 14 / 26])  # me=3, left=0, across=1, right=2
    assert v3[R + 33] == 0  # Q♠ played
    assert v3[R + 40 + 3] == 1 and v3[R + 44 + 3] == 1  # seat 2 (right) leads and acts
    assert ones(v3[R + 28:R + 32]) == {2, 3}  # across (seat 1) and right (seat 2) won tricks
    u3 = make_encoder("rich", rules, "uint8").encode(SeatView.of(deal, 3))
    assert int(u3[R + 19]) == round(255 * 14 / 26)


def test_rich_jd_bonus_slots_and_done_phase():
    rules = make_rules("standard(jd_bonus=true, passing=none)")
    deal = Deal.from_hands(rules, SUIT_HANDS)
    enc = make_encoder("rich", rules)
    while not deal.is_over:
        deal.apply(deal.legal_cards()[-1])
    taker = next(s for s in range(4) if deal.taken[s] >> card_id("JD") & 1)
    for seat in range(4):
        v = enc.encode(SeatView.of(deal, seat))
        assert ones(v[R + 24:R + 28]) == {(taker - seat) & 3}
        assert ones(v[R + 34:R + 36]) == set()  # deal over: neither phase
        assert ones(v[R + 40:R + 48]) == set()  # nobody to act, no leader
        assert ones(v[R + 36:R + 40]) == {0}  # hold
        pts = [deal.penalty_points((seat + r) & 3) / 26 for r in range(4)]
        assert v[R + 16:R + 20].tolist() == pytest.approx(pts)


def test_rich_dutch_deck_layout():
    rules = make_rules("dutch")
    n = 32
    hands = ["7C 8C 9C TC JC QC KC AC", "7D 8D 9D TD JD QD KD AD", "7H 8H 9H TH JH QH KH AH",
             "7S 8S 9S TS JS QS KS AS"]
    deal = Deal.from_hands(rules, hands, dealer=3)  # seat 0 leads anything
    deal.apply_all(["JC", "7D"])
    v = make_encoder("rich", rules).encode(SeatView.of(deal, 1))
    jc, d7 = ids("JC", "7D", deck="dutch")
    r = 11 * n
    assert ones(v) == (set(range(8, 16)) - {d7} | {3 * n + d7, 6 * n + jc, 7 * n + d7, 10 * n + jc}
                       | {r + 0 * 4 + 0}  # I (seat 1) showed a club void
                       | {r + 32, r + 33, r + 35, r + 36, r + 41, r + 47})


# --- openspiel: equal to pyspiel's information_state_tensor ---------------------------------

OPENSPIEL_SPECS = ["openspiel", "openspiel(jd_bonus=true, avoid_all_tricks_bonus=true)",
                   "openspiel(qs_breaks_hearts=false, no_pts_on_first_trick=false, can_lead_any_club=true, "
                   "can_lead_hearts_instead_of_qs=true)", "openspiel(passing=none)"]


def _pyspiel_state(pyspiel, rules, deal: Deal):
    """The OpenSpiel state of ``deal``'s start (chance: pass direction, then card k to seat k % 4)."""
    from hearts_env.cards import to_openspiel

    try:  # the bridge another module provides, if present
        from hearts_env.openspiel_bridge import mirror_deal  # type: ignore[import-not-found]
    except ImportError:
        mirror_deal = None
    params = {"pass_cards": rules.has_passing, "no_pts_on_first_trick": rules.no_pts_on_first_trick,
              "can_lead_any_club": rules.can_lead_any_club, "jd_bonus": rules.jd_bonus,
              "avoid_all_tricks_bonus": rules.avoid_all_tricks_bonus, "must_break_hearts": rules.must_break_hearts,
              "qs_breaks_hearts": rules.qs_breaks_hearts,
              "can_lead_hearts_instead_of_qs": rules.can_lead_hearts_instead_of_qs}
    game = pyspiel.load_game("hearts", params)
    if mirror_deal is not None:
        try:
            return mirror_deal(game, deal)
        except Exception:  # a bridge with another signature: fall back to the local mirror
            pass
    state = game.new_initial_state()
    state.apply_action(deal.pass_direction)
    hands = [[c for c in range(52) if deal.dealt[s] >> c & 1] for s in range(4)]
    for k in range(52):
        state.apply_action(to_openspiel(hands[k % 4][k // 4]))
    return state


@pytest.mark.parametrize("spec", OPENSPIEL_SPECS)
def test_openspiel_encoding_equals_pyspiel_tensor(spec):
    import pyspiel  # open-spiel is in the test extra: a missing oracle must fail, not skip

    from hearts_env.cards import to_openspiel

    rules = make_rules(spec)
    enc = make_encoder("openspiel", rules)
    assert enc.size == 5088
    seen_terminal_moon = False
    for seed in range(4):
        rng = np.random.default_rng(seed)
        direction = seed % 4 if rules.has_passing else 0
        deal = Deal.random(rules, rng, pass_direction=direction)
        state = _pyspiel_state(pyspiel, rules, deal)
        while True:
            for seat in range(4):
                ours = enc.encode(SeatView.of(deal, seat))
                theirs = np.asarray(state.information_state_tensor(seat), dtype=np.float32)
                np.testing.assert_array_equal(ours, theirs, err_msg=f"{spec} seed {seed} seat {seat} {deal}")
            if deal.is_over:
                seen_terminal_moon |= deal.moon_shooter is not None
                break
            legal = deal.legal_cards()
            card = legal[int(rng.integers(len(legal)))]
            deal.apply(card)
            state.apply_action(to_openspiel(card))
        assert state.is_terminal()


def test_openspiel_encoding_terminal_moon_thermometer():
    """A moon deal (seed 25: seat 3 shoots when seat 0 plays its highest legal card and the others
    their lowest): the terminal thermometers include the moon, as OpenSpiel's ComputeScore does."""
    import pyspiel  # open-spiel is in the test extra: a missing oracle must fail, not skip

    from hearts_env.cards import to_openspiel

    rules = make_rules("openspiel(passing=none, avoid_all_tricks_bonus=true)")
    deal = Deal.random(rules, seed=25, pass_direction=0)
    state = _pyspiel_state(pyspiel, rules, deal)
    while not deal.is_over:
        legal = deal.legal_cards()
        card = legal[-1] if deal.current == 0 else legal[0]
        deal.apply(card)
        state.apply_action(to_openspiel(card))
    assert deal.moon_shooter == 3
    enc = make_encoder("openspiel", rules)
    for seat in range(4):
        ours = enc.encode(SeatView.of(deal, seat))
        np.testing.assert_array_equal(ours, np.asarray(state.information_state_tensor(seat), dtype=np.float32))
    therm = enc.encode(SeatView.of(deal, 0))[212:356].reshape(4, 36).sum(axis=1)
    assert therm.tolist() == [36, 36, 36, 10]  # others 26 + 10, shooter 0 + 10 (no avoid bonus on a moon)


def test_openspiel_encoding_terminal_avoid_all_tricks_and_jd():
    """Seed 2, seat 0 playing its lowest legal card and the others their highest: seat 0 takes no
    trick (-5) and seat 3 takes J♦ (-10 + 6 points): thermometers of 5 and 6 ones."""
    import pyspiel  # open-spiel is in the test extra: a missing oracle must fail, not skip

    from hearts_env.cards import to_openspiel

    rules = make_rules("openspiel(passing=none, avoid_all_tricks_bonus=true, jd_bonus=true)")
    deal = Deal.random(rules, seed=2, pass_direction=0)
    state = _pyspiel_state(pyspiel, rules, deal)
    while not deal.is_over:
        legal = deal.legal_cards()
        card = legal[0] if deal.current == 0 else legal[-1]
        deal.apply(card)
        state.apply_action(to_openspiel(card))
    assert deal.points == [-5, 0, 20, -4]
    enc = make_encoder("openspiel", rules)
    for seat in range(4):
        ours = enc.encode(SeatView.of(deal, seat))
        np.testing.assert_array_equal(ours, np.asarray(state.information_state_tensor(seat), dtype=np.float32))
    therm = enc.encode(SeatView.of(deal, 1))[212:356].reshape(4, 36).sum(axis=1)
    assert therm.tolist() == [5, 10, 30, 6]


def test_openspiel_encoding_rejects_rules_it_cannot_express():
    with pytest.raises(EncoderError, match="needs 'standard'"):
        make_encoder("openspiel", "dutch")
    with pytest.raises(EncoderError, match="pass_count"):
        make_encoder("openspiel", "openspiel(pass_count=2)")
    with pytest.raises(EncoderError, match="moon"):
        make_encoder("openspiel", "openspiel(moon=subtract_from_shooter)")
    make_encoder("openspiel", "standard")  # standard scoring and play rules are expressible


# --- paper 000: paper260, paper104, paper --------------------------------------------------

PLAY_PREFIX = [*PASSES, "2C", "QC", "QD", "2S", "2D", "KD", "QH"]


def _card_major(positions: dict[int, int], n: int = 52) -> set[int]:
    """Slots of a card-major N x 5 one-hot given {card: position}."""
    return {5 * c + k for c, k in positions.items()}


def test_paper260_layout_during_play():
    rules = make_rules("standard")
    deal = Deal.from_hands(rules, SUIT_HANDS, pass_direction="left").apply_all(PLAY_PREFIX)
    enc = make_encoder("paper260", rules)
    assert enc.size == 260
    pos = dict.fromkeys(range(52), 1)  # default: in another player's hand (incl. the clubs I passed)
    pos.update(dict.fromkeys(list(range(1, 10)) + ids("QS", "KS", "AS"), 0))  # my hand
    pos.update(dict.fromkeys(ids("2D", "KD", "QH"), 3))  # others' cards on the table
    pos.update(dict.fromkeys(ids("2C", "QC", "QD", "2S"), 4))  # earlier trick
    v = enc.encode(SeatView.of(deal, 0))
    assert ones(v) == _card_major(pos)
    # seat 1 led 2D: that card is "on the table, thrown by me"
    v1 = enc.encode(SeatView.of(deal, 1))
    assert v1[5 * card_id("2D") + 2] == 1 and v1[5 * card_id("KD") + 3] == 1
    assert v1[5 * card_id("AC") + 0] == 1  # received from seat 0
    assert v.reshape(52, 5).sum(axis=1).tolist() == [1] * 52


def test_paper104_and_paper_layout_while_passing():
    rules = make_rules("standard")
    deal = Deal.from_hands(rules, SUIT_HANDS, pass_direction="left").apply_all(["AC", "KC"])
    view = SeatView.of(deal, 0)
    v = make_encoder("paper104", rules).encode(view)
    assert ones(v) == set(range(13)) | {52 + 11, 52 + 12}  # dealt clubs; KC, AC selected
    p = make_encoder("paper", rules)
    assert p.size == 365
    assert ones(p.encode(view)) == {260 + i for i in range(13)} | {260 + 52 + 11, 260 + 52 + 12, 364}


def test_paper_layout_during_play_is_paper260_then_zeros():
    rules = make_rules("standard")
    deal = Deal.from_hands(rules, SUIT_HANDS, pass_direction="left").apply_all(PLAY_PREFIX)
    view = SeatView.of(deal, 2)
    p = make_encoder("paper", rules).encode(view).copy()
    np.testing.assert_array_equal(p[:260], make_encoder("paper260", rules).encode(view))
    assert not p[260:].any()
    v = make_encoder("paper104", rules).encode(view)  # during play: current hand + passed
    # 2H..JH + AD (received QD KD AD; QD and KD played), and the passed QH KH AH
    assert ones(v) == set(range(26, 36)) | {card_id("AD")} | {52 + c for c in ids("QH", "KH", "AH")}


# --- culhane217 -----------------------------------------------------------------------------


def test_culhane217_layout_and_state_action_rows():
    from hearts_env.encoders.culhane217 import state_action_rows

    rules = make_rules("standard")
    deal = Deal.from_hands(rules, SUIT_HANDS, pass_direction="left").apply_all(PLAY_PREFIX)
    enc = make_encoder("culhane217", rules)
    assert enc.size == 217
    v = enc.encode(SeatView.of(deal, 0)).copy()
    hand = list(range(1, 10)) + ids("QS", "KS", "AS")
    expected = (set(ids("2C", "QC", "QD", "2S"))  # completed tricks
                | {52 + c for c in ids("2D", "KD", "QH")}  # current trick
                | {104 + 0, 108 + 1}  # seat 0 to act; diamonds led
                | {112 + c for c in hand})  # hand; cannot follow diamonds; action block 0
    assert ones(v) == expected
    v1 = enc.encode(SeatView.of(deal, 1))
    assert v1[164] == 1 and v1[104] == 1  # seat 1 holds diamonds; seat 0 still to act

    rows = state_action_rows(v, deal.legal_mask())
    assert rows.shape == (12, 217) and rows.dtype == v.dtype
    for row, card in zip(rows, hand):
        assert ones(row) == expected | {165 + card}
    mask = np.zeros(52, dtype=np.int8)
    mask[hand] = 1
    np.testing.assert_array_equal(state_action_rows(v, mask), rows)


def test_culhane217_while_passing_shows_hand_and_current_player_only():
    rules = make_rules("standard")
    deal = Deal.from_hands(rules, SUIT_HANDS, pass_direction="left").apply_all(["AC", "KC", "QC", "AD"])
    v = make_encoder("culhane217", rules).encode(SeatView.of(deal, 1))
    assert ones(v) == {104 + 1} | {112 + c for c in range(13, 25)}  # 2D..KD, AD chosen


# --- dutch107 -------------------------------------------------------------------------------

DUTCH_HANDS = ["7C 8C 9C TC JC QC KC AC", "7D 8D 9D TD JD QD KD AD", "7H 8H 9H TH JH QH KH AH",
               "7S 8S 9S TS JS QS KS AS"]


def test_dutch107_layout():
    rules = make_rules("dutch")
    deal = Deal.from_hands(rules, DUTCH_HANDS, dealer=3, game_scores=(10, 20, 30, 120)).apply_all(["JC", "7D"])
    enc = make_encoder("dutch107", rules)
    v = enc.encode(SeatView.of(deal, 2)).copy()
    jc, d7 = ids("JC", "7D", deck="dutch")
    assert ones(v[:96]) == set(range(16, 24)) | {64 + jc, 64 + d7}
    assert v[96] == pytest.approx(2 / 3)  # I play third
    assert v[97:101].tolist() == pytest.approx([0.3, 1.0, 0.1, 0.2])  # me, left, across, right
    assert v[101:105].tolist() == pytest.approx([7 / 8, 7 / 8, 1, 1])
    assert v[105] == 1
    assert v[106] == pytest.approx(8 / 15)  # eight hearts in hand
    u = make_encoder("dutch107", rules, "uint8").encode(SeatView.of(deal, 2))
    assert [int(u[i]) for i in (96, 97, 98, 105, 106)] == [170, 76, 255, 1, 136]

    deal.apply_all(["7H", "7S"])  # seat 0 takes JC + 7H
    v0 = enc.encode(SeatView.of(deal, 0))
    assert ones(v0[:96]) == set(range(8)) - {jc} | {32 + c for c in ids("JC", "7D", "7H", "7S", deck="dutch")}
    assert v0[96] == 0 and v0[105] == 1 and v0[106] == 0
    assert v0[101:105].tolist() == pytest.approx([7 / 8] * 4)


def test_dutch107_moon_bit_and_counts_match_the_engine():
    rules = make_rules("dutch")
    enc = make_encoder("dutch107", rules)
    for seed in range(3):
        for deal in random_positions(rules, seed):
            for seat in range(4):
                v = enc.encode(SeatView.of(deal, seat))
                assert v[105] == deal.moon_possible()
                left = [8 - (deal.played & deal.deck.suit_mask(s)).bit_count() for s in range(4)]
                assert (v[101:105] * 8).round().tolist() == left
    no_moon = make_rules("dutch(moon=off)")
    assert make_encoder("dutch107", no_moon).encode(SeatView.of(Deal.random(no_moon, 0), 0))[105] == 0


def test_dutch107_rejects_the_52_card_deck():
    with pytest.raises(EncoderError, match="32-card Dutch deck"):
        make_encoder("dutch107", "standard")
