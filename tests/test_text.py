"""The text a language model reads (issue 66): leak-free for every preset like every encoding, every rule field in the
rules' text, and the answer parser against every spelling it reads and many it refuses."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_encoders import _indistinguishable_pair

from hearts_env import Deal, make_rules
from hearts_env.cards import card_id
from hearts_env.engine import Phase
from hearts_env.rules import PRESETS, Rules
from hearts_env.text import TEXT_FORMAT, AnswerError, parse_answer, rules_text, view_json, view_text
from hearts_env.views import SeatView

SPECS = [*PRESETS, "standard(jd_bonus=true, moon=subtract_from_shooter)", "openspiel(avoid_all_tricks_bonus=true)",
         "standard(passing=left, can_lead_any_club=true)"]


class _AsEncoding:
    """A text as the leak check's encoding: one string in an array."""

    def __init__(self, write):
        self.write = write

    def encode(self, view):
        return np.array([self.write(view)])


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("write", [view_text, lambda view: json.dumps(view_json(view))], ids=["text", "json"])
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1), observer=st.integers(0, 3))
def test_the_text_and_its_json_hold_nothing_the_seat_may_not_know(spec, write, seed, cut, observer):
    """Two deals the seat cannot tell apart (the opponents' unseen cards shuffled among them) read the same."""
    rules = make_rules(spec)
    pair = _indistinguishable_pair(_AsEncoding(write), rules, seed, cut, observer)
    assume(pair is not None)
    assert pair[0][0] == pair[1][0]


RULES_TEXT_SILENT = {
    "preset": lambda r: True,  # informational
    "jd_bonus_points": lambda r: not r.jd_bonus,
    "avoid_all_tricks_points": lambda r: not r.avoid_all_tricks_bonus,
    "can_lead_any_club": lambda r: r.opening_lead != "lowest_club",
    "qs_breaks_hearts": lambda r: not r.must_break_hearts,
    "can_lead_hearts_instead_of_qs": lambda r: not r.must_break_hearts,
    "target": lambda r: r.game == "deal",
    "pass_count": lambda r: r.passing == "none",
}
"""Fields the rules' text may leave out, and when: where they change nothing of the game."""

OTHER_VALUES = {"deck": ["dutch"], "passing": ["none", "left", "random", "left,right"], "pass_count": [2],
                "opening_lead": ["left_of_dealer"], "moon": ["off", "subtract_from_shooter", "shooter_choice"],
                "game": ["deal"], "target": [50]}


@pytest.mark.parametrize("field", [f.name for f in dataclasses.fields(Rules) if f.name != "preset"])
def test_every_rule_that_changes_the_game_changes_the_rules_text(field):
    base = make_rules("standard(jd_bonus=true, avoid_all_tricks_bonus=true)")
    value = getattr(base, field)
    others = OTHER_VALUES.get(field) or ([not value] if isinstance(value, bool) else [value + 3])
    for other in others:
        changed = base.replace(**{field: other})
        if field in RULES_TEXT_SILENT and RULES_TEXT_SILENT[field](changed):
            continue
        assert rules_text(changed) != rules_text(base), (field, other)


def _view(spec="standard(game=deal)", seed=3, plays=0, seat=None, direction="hold"):
    deal = Deal.random(make_rules(spec), seed=seed, pass_direction=direction)
    for _ in range(plays):
        deal.apply(deal.legal_cards()[-1])
    return deal, SeatView.of(deal, deal.current if seat is None else seat)


def test_the_text_names_its_format_the_hand_the_trick_and_the_legal_cards_only_when_asked():
    deal, view = _view(plays=6)
    text = view_text(view)
    assert text.splitlines()[0] == TEXT_FORMAT and "Final Answer:" in text
    legal = " ".join(f"{c}" for c in text.split("Legal: ")[1].split(".")[0].split())
    assert [card_id(c, deal.deck) for c in legal.split()] == deal.legal_cards()
    assert "Trick 2 of 13, on the table:" in text and "Trick 1: " in text
    assert "Legal:" not in view_text(view, legal_moves=False)
    waiting = view_text(SeatView.of(deal, (deal.current + 1) % 4))
    assert "Legal:" not in waiting and "Final Answer" not in waiting and "Right is to play." in waiting


def test_the_json_is_the_seat_protocol_s_view_with_card_names():
    from hearts_env.evaluation.seat.protocol import view_to_json

    deal, view = _view(plays=9, direction="left")
    named = view_json(view)
    wire = view_to_json(view)
    assert set(wire) <= set(named) and named["format"] == TEXT_FORMAT
    for field, value in wire.items():
        if field in ("hand", "dealt", "passed", "received", "legal", "trick", "plays"):
            assert [card_id(c, deal.deck) for c in named[field]] == value, field
        elif field in ("played_by", "taken"):
            assert [[card_id(c, deal.deck) for c in cards] for cards in named[field]] == value, field
        else:
            assert named[field] == value, field


def test_a_finished_deal_reads_its_points():
    deal = Deal.random(make_rules("standard(game=deal)"), seed=4, pass_direction="hold")
    while not deal.is_over:
        deal.apply(deal.legal_cards()[0])
    text = view_text(SeatView.of(deal, 0))
    assert deal.phase == Phase.DONE and "The deal is over. Its points: You " in text and "Final Answer" not in text


READ = [
    ("Final Answer: QS", "QS"), ("final answer: qs", "QS"), ("FINAL ANSWER = Q♠", "QS"),
    ("I weigh 9D and QS... Final Answer: 9D", "9D"), ("Final Answer: QS\nFinal Answer: 9D", "9D"),
    ('{"card": "QS"}', "QS"), ('```json\n{"card": "9D"}\n```', "9D"), ("QS", "QS"), ("Qs", "QS"), ("Q♠", "QS"),
    ("q♠", "QS"), ("the queen of spades", "QS"), ("Queen of Spades", "QS"), ("nine of diamonds", "9D"),
    ("9 of diamonds", "9D"), ("I play 9D.", "9D"), ("**9♦**", "9D"), ("Final Answer: 9♦ (safe)", "9D"),
    ("Play QS, that is the Q of spades.", "QS"), ("AS", "AS"), ("Final Answer: A♠", "AS"), ("ace of spades", "AS"),
    ("10H", "TH"), ("TH", "TH"), ("ten of hearts", "TH"), ("10♥", "TH"), ("Th", "TH"),
]

REFUSED = [
    ("", "unreadable"), ("   ", "unreadable"), ("I pass.", "unreadable"), ("Final Answer:", "unreadable"),
    ("as I said, ah well", "unreadable"), ("Final Answer: 52", "unreadable"), ('{"card": 17}', "unreadable"),
    ("QS or 9D", "ambiguous"), ("Final Answer: QS 9D", "ambiguous"), ("queen of spades and nine of diamonds",
                                                                       "ambiguous"),
    ("Final Answer: 1C", "unreadable"), ("Final Answer: QX", "unreadable"), ("QSS", "unreadable"),
]


def _position_with(legal_names, spec="standard(game=deal)"):
    """A view whose seat may play exactly the cards named (found by playing out seeded deals)."""
    rules = make_rules(spec)
    wanted = sorted(card_id(c, rules.deck_obj) for c in legal_names)
    for seed in range(5000):
        deal = Deal.random(rules, seed=seed, pass_direction="hold")
        while not deal.is_over:
            if deal.phase == Phase.PLAY and set(wanted) <= set(deal.legal_cards()):
                return SeatView.of(deal, deal.current)
            deal.apply(deal.legal_cards()[seed % len(deal.legal_cards())])
    raise AssertionError(f"no position where {legal_names} are legal")


@pytest.mark.parametrize("answer, card", READ)
def test_every_spelling_it_reads_names_its_card(answer, card):
    view = _position_with([card, "QS" if card != "QS" else "9D"])
    assert parse_answer(answer, view.rules, view.legal) == card_id(card, view.rules.deck_obj)


@pytest.mark.parametrize("answer, kind", REFUSED)
def test_what_it_cannot_read_is_refused_with_a_reason_to_quote_back(answer, kind):
    view = _position_with(["QS", "9D"])
    with pytest.raises(AnswerError) as e:
        parse_answer(answer, view.rules, view.legal)
    assert e.value.kind == kind and str(e.value)


def test_a_card_it_may_not_play_is_refused_naming_the_legal_ones():
    deal, view = _view()  # the opening lead: 2C only
    with pytest.raises(AnswerError, match=r"QS may not be played now; legal: 2C") as e:
        parse_answer("Final Answer: QS", view.rules, view.legal)
    assert e.value.kind == "illegal"
    assert parse_answer("Final Answer: 2C", view.rules, view.legal) == deal.legal_cards()[0]


def test_a_card_of_the_52_card_deck_is_not_one_of_the_dutch_deck():
    _, view = _view("dutch(game=deal)")
    with pytest.raises(AnswerError, match="not in the dutch deck") as e:
        parse_answer("Final Answer: 2C", view.rules, view.legal)
    assert e.value.kind == "unreadable"


def _answer(text: str) -> str:
    """A stand-in for a model: the text's first legal card, in the words a model writes."""
    first = text.split("Legal: ")[1].split(".")[0].split()[0]
    return f"The safest card here is {first}.\nFinal Answer: {first}"


def test_hearts_v0_observes_the_text_and_plays_a_whole_game_through_the_parser():
    """``observation="text"``: each seat's observation is its text (in the space), and a model's answers, read by
    :func:`parse_answer` against the action mask, play a whole game to 100."""
    from hearts_env import hearts_v0

    env = hearts_v0.env(rules="standard", observation="text")
    env.reset(seed=5)
    steps = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        assert env.observation_space(agent).contains(obs)
        assert obs["observation"] == view_text(SeatView.of(env.unwrapped.deal, env.unwrapped._seat_of[agent]))
        action = None if terminated or truncated else \
            parse_answer(_answer(obs["observation"]), env.unwrapped.rules, obs["action_mask"])
        env.step(action)
        steps += 1
    assert steps > 4 * 52 and max(env.unwrapped.match.scores) >= 100


@pytest.mark.parametrize("dict_obs", [False, True])
def test_the_gymnasium_env_observes_the_text_and_passes_gymnasium_s_checker(dict_obs):
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("hearts_env/Hearts-v0", observation="text", dict_obs=dict_obs, opponents="heuristic")
    check_env(env.unwrapped, skip_render_check=True)
    obs, _ = env.reset(seed=2)
    done = False
    while not done:
        text = obs["observation"] if dict_obs else obs
        assert isinstance(text, str) and env.observation_space.contains(obs)
        mask = env.unwrapped.action_masks()
        obs, _, terminated, truncated, _ = env.step(parse_answer(_answer(text), env.unwrapped.rules, mask))
        done = terminated or truncated


def test_a_policy_adapter_reads_the_text_and_its_answer_must_be_a_card_id():
    from hearts_env.agents import make_agent
    from hearts_env.agents.adapters import PolicyAgent

    rules = make_rules("standard(game=deal)")
    seen = []

    def policy(text, mask):
        seen.append(text)
        return parse_answer(_answer(text), rules, mask)

    players = [PolicyAgent(policy, observation="text"), *(make_agent("heuristic") for _ in range(3))]
    deal = Deal.random(rules, seed=8, pass_direction="left")
    for seat, player in enumerate(players):
        player.reset(rules, seat, seed=[seat])
    while not deal.is_over:
        deal.apply(players[deal.current].act(SeatView.of(deal, deal.current)))
    assert len(seen) == 3 + 13 and all(text.startswith(TEXT_FORMAT) for text in seen)
    deal, view = _view()
    floaty = PolicyAgent(lambda obs, mask: 0.0 + int(np.flatnonzero(mask)[0]))
    floaty.reset(deal.rules, view.seat)
    with pytest.raises(TypeError, match=r"the policy returned 0\.0, not a card id"):
        floaty.act(view)
