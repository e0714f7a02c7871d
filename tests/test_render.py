"""Text rendering: pure functions over a Deal, and the environment's render modes."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

import hearts_env.render as render_module
from hearts_env import hearts_v0
from hearts_env.engine import Deal
from hearts_env.render import format_cards_line, format_hand, render_deal, render_trick, seat_name
from hearts_env.rules import make_rules

SUIT_HANDS = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
]


def play_lowest(deal: Deal, n: int) -> Deal:
    for _ in range(n):
        deal.apply(deal.legal_cards()[0])
    return deal


def test_module_doctests():
    assert doctest.testmod(render_module).failed == 0


def test_format_hand_groups_by_suit_in_both_decks():
    assert format_hand(0) == "♣ -  ♦ -  ♥ -  ♠ -"
    assert format_hand((1 << 0) | (1 << 12) | (1 << 49)) == "♣ 2 A  ♦ -  ♥ -  ♠ Q"
    assert format_hand((1 << 0) | (1 << 29), "dutch") == "♣ 7  ♦ -  ♥ -  ♠ Q"
    assert format_hand(1 << 29, "dutch", symbols=False) == "C -  D -  H -  S Q"


def test_format_cards_line_and_seat_names():
    assert format_cards_line([49, 0]) == "Q♠ 2♣"
    assert format_cards_line((1 << 49) | 1) == "2♣ Q♠"
    assert format_cards_line(0) == "-"
    assert format_cards_line([49], symbols=False) == "QS"
    assert seat_name(2) == "player_2"
    assert seat_name(2, ["N", "E", "S", "W"]) == "S"


def test_render_while_passing_shows_every_hand_and_the_passes():
    deal = Deal.from_hands("standard", SUIT_HANDS, pass_direction="left", game_scores=(10, 0, 5, 0))
    play_lowest(deal, 4)  # seat 0 chose 3 cards, seat 1 one
    text = render_deal(deal, deal_index=0)
    lines = text.splitlines()
    assert "god view" in lines[0] and "pass left" in lines[0] and "passing" in lines[0] and "deal 1" in lines[0]
    assert lines[1].startswith("  player_0") and "passing to player_1: 2♣ 3♣ 4♣" in lines[1]
    assert "♣ 5 6 7 8 9 T J Q K A" in lines[1]  # the hand without the cards chosen to pass
    assert lines[2].startswith("> player_1") and "passing to player_2: 2♦" in lines[2]
    assert "passing to player_3: -" in lines[3]
    assert "♠ 2 3 4 5 6 7 8 9 T J Q K A" in lines[4]
    assert "game scores before this deal (game to 100): player_0 10  player_1 0  player_2 5  player_3 0" in text
    assert render_trick(deal) == "trick 1: -"


def test_render_during_play_shows_the_trick_received_cards_and_the_last_trick():
    deal = Deal.from_hands("standard", SUIT_HANDS, pass_direction="left")
    play_lowest(deal, 12)  # every pass
    text = render_deal(deal)
    assert "received 2♠ 3♠ 4♠" in text.splitlines()[1]  # seat 0 receives from seat 3
    assert render_trick(deal).endswith("to lead")
    play_lowest(deal, 2)
    # seat 1 received 2♣ 3♣ 4♣ from seat 0 and leads 2♣; seat 2 holds 2♦ 3♦ 4♦ and hearts
    assert render_trick(deal) == "trick 1, led by player_1: player_1 2♣, player_2 2♦"
    play_lowest(deal, 2)
    text = render_deal(deal)
    assert "last trick (1): " in text and "-> won by player_" in text
    assert "hearts not broken" in text
    assert "trick 2: " in text


def test_render_after_a_moon_deal():
    deal = Deal.from_hands("standard(game=deal)", SUIT_HANDS, pass_direction="hold")
    deal.playout(0)
    text = render_deal(deal)
    assert "deal over" in text.splitlines()[0]
    assert "deal points: player_0 0  player_1 26  player_2 26  player_3 26   moon shot by player_0" in text
    assert "points taken: player_0 26 (13 tricks)" in text
    assert "last trick (13)" in text
    assert "game scores" not in text  # one-deal rules and no scores
    assert render_trick(deal) == "no trick (the deal is over)"
    text = render_deal(deal, names=["N", "E", "S", "W"], symbols=False)
    assert "moon shot by N" in text and "♣" not in text


def test_render_match_scores_after_the_deal():
    deal = Deal.from_hands("standard", SUIT_HANDS, pass_direction="hold", game_scores=(1, 2, 3, 4))
    deal.playout(0)
    text = render_deal(deal)
    assert "game scores before this deal (game to 100): player_0 1  player_1 2  player_2 3  player_3 4" in text
    assert "game scores after this deal: player_0 1  player_1 28  player_2 29  player_3 30" in text


def test_env_render_modes(capsys):
    env = hearts_v0.env(rules="standard(target=30)", render_mode="ansi")
    env.reset(options={"hands": SUIT_HANDS, "pass_direction": "hold", "scores": [0, 10, 20, 29]})
    text = env.render()
    assert isinstance(text, str) and "deal 1" in text and "god view" in text
    assert text == render_deal(env.unwrapped.deal, deal_index=0)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    final = env.render()
    assert "game over: final scores [0, 36, 46, 55]; winner(s): player_0" in final

    human = hearts_v0.env(rules="dutch", render_mode="human")
    human.reset(seed=0)
    assert human.render() is None
    out = capsys.readouterr().out
    assert "god view" in out and "rules dutch" in out

    silent = hearts_v0.raw_env()
    silent.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert silent.render() is None


def test_rules_spec_is_shown():
    deal = Deal.random(make_rules("standard(jd_bonus=true)"), seed=0)
    assert "rules standard(jd_bonus=true)" in render_deal(deal)
