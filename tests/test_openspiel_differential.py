"""Our engine against OpenSpiel's hearts, decision by decision.

3,200 deals under random combinations of all seven OpenSpiel flags, with passing on (every
direction, cycling by seed) or off. At every decision the seat to act and the legal set must
agree (so every trick winner of tricks 1..12 agrees: the winner acts next); at the end, every
seat's points (moons, J♦ bonus, avoid-all-tricks bonus). A third of the deals use a policy that
makes one seat grab every trick, so moons are checked often, not by luck.
"""

import random

import pytest

from hearts_env.cards import to_openspiel
from hearts_env.engine import Deal
from hearts_env.openspiel_bridge import (
    OPENSPIEL_FLAGS,
    OpenSpielUnsupported,
    legal_cards,
    load_game,
    mirror_deal,
    openspiel_params,
    points,
)
from hearts_env.rules import make_rules

CHUNKS = 8
DEALS_PER_CHUNK = 400


def _random_rules(rnd: random.Random):
    flags = {flag: rnd.random() < 0.5 for flag in OPENSPIEL_FLAGS}
    passing = "random" if rnd.random() < 0.8 else "none"
    if not flags["must_break_hearts"] and flags["can_lead_hearts_instead_of_qs"] and rnd.random() < 0.5:
        flags["can_lead_hearts_instead_of_qs"] = False
    return make_rules("openspiel", passing=passing, **flags)


def _choose(deal: Deal, rnd: random.Random, grabber: int | None) -> int:
    legal = deal.legal_cards()
    if grabber is None or deal.phase.name == "PASS":
        return rnd.choice(legal)
    # one seat plays its highest legal card, the others their lowest, discarding penalty
    # cards when void: moons become common
    if deal.current == grabber:
        return legal[-1]
    penalties = [c for c in legal if c >= 26 and (c < 39 or c == 49)]
    off_suit = deal.trick and not deal.legal_mask() & deal.hands[deal.current] & deal.led_mask
    return penalties[-1] if off_suit and penalties else legal[0]


def _stacked_hands(grabber: int, rnd: random.Random) -> list[list[int]]:
    """The grabber holds A, K, Q of every suit and one random card; the rest is shuffled."""
    top = [suit * 13 + rank for suit in range(4) for rank in (10, 11, 12)]
    rest = [c for c in range(52) if c not in top]
    rnd.shuffle(rest)
    hands = [rest[13 * i:13 * i + 13] for i in range(3)]
    hands.insert(grabber, [*top, rest[39]])
    return hands


def _describe(deal: Deal) -> str:
    return f"rules={deal.rules.spec()} pass={deal.pass_direction_name} hands={deal.dealt} history={deal.history}"


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_engine_matches_openspiel_decision_by_decision(chunk):
    moons = decisions = 0
    directions = set()
    for seed in range(chunk * DEALS_PER_CHUNK, (chunk + 1) * DEALS_PER_CHUNK):
        rnd = random.Random(seed)
        rules = _random_rules(rnd)
        direction = seed % 4 if rules.has_passing else 0
        directions.add(direction)
        grabber = seed % 4 if seed % 3 == 0 else None
        if grabber is None:
            deal = Deal.random(rules, seed, pass_direction=direction)
        else:
            deal = Deal.from_hands(rules, _stacked_hands(grabber, rnd), pass_direction=direction)
        state = mirror_deal(load_game(rules), deal)
        while not deal.is_over:
            assert state.current_player() == deal.current, _describe(deal)
            assert legal_cards(state) == deal.legal_cards(), _describe(deal)
            card = _choose(deal, rnd, grabber)
            deal.apply(card)
            state.apply_action(to_openspiel(card))
            decisions += 1
        assert state.is_terminal(), _describe(deal)
        assert points(state) == deal.points, _describe(deal)
        moons += deal.moon_shooter is not None
    assert directions == ({0, 1, 2, 3})  # every pass direction appears in every chunk
    assert moons >= 10, f"only {moons} moons in chunk {chunk}"
    assert decisions > DEALS_PER_CHUNK * 52


def test_forced_moon_with_jd_bonus_and_avoid_all_tricks_matches_openspiel():
    hands = ["AC KC QC JC TC 9C AH KH QH JH TH 9H QS", "2C 3C 4C 5C 6C 7C 8C 2H 3H 4H 5H 6H 7H",
             "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD", "2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS 8H"]
    for jd_bonus in (False, True):
        for avoid in (False, True):
            rules = make_rules("openspiel", passing="none", jd_bonus=jd_bonus, avoid_all_tricks_bonus=avoid)
            deal = Deal.from_hands(rules, hands)
            state = mirror_deal(load_game(rules), deal)
            while not deal.is_over:
                assert legal_cards(state) == deal.legal_cards()
                legal = deal.legal_cards()
                card = legal[-1] if deal.current == 0 else legal[0]
                deal.apply(card)
                state.apply_action(to_openspiel(card))
            assert points(state) == deal.points


@pytest.mark.parametrize("change", [{"deck": "dutch", "queen_of_spades_points": 5}, {"pass_count": 2},
                                    {"moon": "off"}, {"opening_lead": "left_of_dealer"}, {"jd_bonus_points": 5}])
def test_rules_openspiel_cannot_express_are_named(change):
    rules = make_rules("openspiel", **change)
    with pytest.raises(OpenSpielUnsupported, match=next(iter(change))):
        openspiel_params(rules)


def test_params_mirror_the_flags():
    rules = make_rules("openspiel", jd_bonus=True, qs_breaks_hearts=False, passing="none")
    params = openspiel_params(rules)
    assert params["jd_bonus"] is True and params["qs_breaks_hearts"] is False and params["pass_cards"] is False
    assert set(params) == {*OPENSPIEL_FLAGS, "pass_cards"}
