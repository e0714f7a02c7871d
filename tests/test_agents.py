"""The agent protocol, the registry and spec strings, and the bundled players' behaviour."""

import random

import numpy as np
import pytest

from hearts_env.agents import Agent, AgentError, agent_names, make_agent, parse_agent_spec
from hearts_env.agents.basic import GreedyAgent, HeuristicAgent
from hearts_env.cards import card_id, iter_cards
from hearts_env.engine import Deal
from hearts_env.rules import make_rules
from hearts_env.tables import tables_of
from hearts_env.views import SeatView


@pytest.mark.parametrize("preset", ["standard", "openspiel", "sturtevant", "dutch"])
@pytest.mark.parametrize("spec", ["random", "greedy", "heuristic", "moon-seeker", "queen-dumper"])
def test_bundled_agents_only_play_legal_cards(preset, spec):
    rules = make_rules(preset)
    for seed in range(25):
        deal = Deal.random(rules, seed, pass_direction=seed % 4 if rules.has_passing else 0)
        agents = [make_agent(spec) for _ in range(4)]
        for seat, agent in enumerate(agents):
            agent.reset(rules, seat, seed=[seed, seat])
        while not deal.is_over:
            view = SeatView.of(deal, deal.current)
            card = agents[deal.current].act(view)
            assert view.legal >> card & 1
            deal.apply(card)


def test_spec_strings_and_registry():
    assert {"random", "greedy", "heuristic"} <= set(agent_names())
    assert parse_agent_spec("ismcts(iterations=400, c=1.4)") == ("ismcts", {"iterations": 400, "c": 1.4})
    assert isinstance(make_agent("heuristic(moon_alarm=10)"), HeuristicAgent)
    assert make_agent("heuristic(moon_alarm=10)").moon_alarm == 10
    assert isinstance(make_agent("hearts_env.agents.basic:GreedyAgent"), GreedyAgent)
    with pytest.raises(AgentError, match=r"registered agents: .*greedy"):
        make_agent("nosuchagent")
    with pytest.raises(AgentError, match="bad arguments"):
        make_agent("greedy(depth=3)")
    with pytest.raises(AgentError, match="keyword"):
        make_agent("greedy(3)")
    with pytest.raises(AgentError, match="cannot import"):
        make_agent("no.such.module:Thing")


def test_same_seed_same_choices():
    deal = Deal.random("standard", 3, pass_direction="left")
    picks = []
    for _ in range(2):
        agent = make_agent("random")
        agent.reset(deal.rules, 0, seed=[1, 2])
        picks.append([agent.act(SeatView.of(deal, 0)) for _ in range(10)])
    assert picks[0] == picks[1]


def _view_after(hands, plays, preset="sturtevant", seat=None):
    deal = Deal.from_hands(preset, hands, dealer=3)
    deal.apply_all(plays)
    return SeatView.of(deal, deal.current if seat is None else seat)


HANDS = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
         "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD 5S",
         "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
         "2S 3S 4S 6S 7S 8S 9S TS JS QS KS AS AD"]


def _act(agent: Agent, view: SeatView) -> int:
    agent.reset(view.rules, view.seat, seed=0)
    return agent.act(view)


def test_heuristic_dumps_the_queen_when_void():
    # seat 0 leads a club; seat 1 (diamonds + 5S) has no club... give seat 3 the spade queen: seat 3 is void in clubs
    view = _view_after(HANDS, ["2C", "2D", "2H"])
    assert view.seat == 3
    assert _act(HeuristicAgent(), view) == card_id("QS")


def _deal_with(fixed: dict[int, str], preset: str = "sturtevant", **kwargs) -> Deal:
    """A deal where the given seats hold the given cards; the rest is filled in card order."""
    rest = [c for c in range(52) if c not in {card_id(x) for cards in fixed.values() for x in cards.split()}]
    hands = []
    for seat in range(4):
        mine = [card_id(x) for x in fixed.get(seat, "").split()]
        while len(mine) < 13:
            mine.append(rest.pop(0))
        hands.append(mine)
    return Deal.from_hands(preset, hands, **kwargs)


def test_heuristic_ducks_under_the_winning_card():
    deal = _deal_with({0: "9H", 1: "5H 8H KH"}, dealer=3)  # seat 0 leads
    deal.apply_all(["9H"])
    assert _act(HeuristicAgent(), SeatView.of(deal, 1)) == card_id("8H")


def test_heuristic_flushes_the_queen_with_a_low_spade():
    deal = _deal_with({0: "3S 9S 2H", 1: "QS"}, dealer=3)  # seat 0 leads, holds no high spade
    view = SeatView.of(deal, 0)
    assert _act(HeuristicAgent(), view) == card_id("3S")


def test_heuristic_passes_an_unguarded_queen():
    hand = "QS 2S AH KH 5C 6C 7C 8D 9D TD JD 3H 4H"
    others = [c for c in range(52) if c not in {card_id(x) for x in hand.split()}]
    rnd = random.Random(0)
    rnd.shuffle(others)
    hands = [hand, others[:13], others[13:26], others[26:39]]
    deal = Deal.from_hands("standard", hands, pass_direction="left")
    view = SeatView.of(deal, 0)
    assert _act(HeuristicAgent(), view) == card_id("QS")


def test_greedy_leads_its_lowest_spade_while_the_queen_is_out():
    view = _view_after(HANDS, ["AC", "2D", "2H", "AD", "KC", "3D", "3H", "2S"])
    # seat 0 won both club tricks; it has no spades, so it leads its highest non-heart card
    assert view.seat == 0
    assert _act(GreedyAgent(), view) == max(iter_cards(view.legal))


def test_heuristic_keeps_hearts_off_a_moon_shooter():
    deal = _deal_with({0: "2S", 1: "AS AC", 2: "QS 2C", 3: "3S 2H 3H KH 2D 3D 4D 5D 6D 7D 8D 9D TD"}, dealer=3)
    deal.apply_all(["2S", "AS", "QS", "3S"])  # seat 1 takes Q♠: every point so far
    deal.apply_all(["AC", "2C"])  # seat 1 is winning again; seat 3 is void in clubs
    view = SeatView.of(deal, 3)
    assert _act(HeuristicAgent(), view) == card_id("TD")  # not K♥: no more points for the shooter
    assert _act(HeuristicAgent(moon_alarm=14), view) == card_id("KH")  # below the alarm: dump the heart


def test_heuristic_with_chase_goes_for_the_moon_once_it_alone_holds_enough_points():
    deal = _deal_with({0: "2S", 1: "AS AC", 2: "QS 2C", 3: "3S"}, dealer=3)
    deal.apply_all(["2S", "AS", "QS", "3S"])  # seat 1 takes Q♠: 13 points, nobody else has any
    view = SeatView.of(deal, 1)
    c = tables_of(view.rules)
    default = _act(HeuristicAgent(), view)
    chasing = _act(HeuristicAgent(chase=13), view)
    assert c.rank_of(default) < c.rank_of(chasing) == max(c.rank_of(card) for card in iter_cards(view.legal))
    assert _act(HeuristicAgent(chase=14), view) == default  # fewer points than the chase: plays as ever
    assert _act(HeuristicAgent(chase=13, shoot=False), view) == chasing  # whatever the hand


class FakeMaskablePPO:
    """Stands in for an sb3-contrib model: predict(obs, action_masks=..., deterministic=...)."""

    def __init__(self):
        self.calls = 0

    def predict(self, obs, action_masks=None, deterministic=True):
        self.calls += 1
        assert obs.shape == (620,) and action_masks.dtype == bool
        return np.array([int(np.flatnonzero(action_masks)[-1])]), None


def test_policy_and_sb3_adapters_play_legal_cards():
    from hearts_env.agents.adapters import PolicyAgent, SB3Agent

    fake = FakeMaskablePPO()
    seen = []

    def policy(obs, mask):
        seen.append((obs.shape, mask.dtype))
        return int(np.flatnonzero(mask)[0])

    rules = make_rules("standard")
    deal = Deal.random(rules, 2, pass_direction="left")
    agents = [PolicyAgent(policy), SB3Agent(model=fake), make_agent("random"), PolicyAgent(policy, "paper260")]
    for seat, agent in enumerate(agents):
        agent.reset(rules, seat, seed=seat)
    while not deal.is_over:
        deal.apply(agents[deal.current].act(SeatView.of(deal, deal.current)))
    assert fake.calls == 16 and {s for s, _ in seen} == {(620,), (260,)}
    assert all(d == np.int8 for _, d in seen)


def test_sb3_spec_errors_are_clear():
    with pytest.raises(AgentError, match="no SB3 model file"):
        make_agent("sb3:missing/model.zip")
    with pytest.raises(AgentError, match="algo"):
        make_agent("sb3:missing.zip(algo='XYZ')")


def test_heuristic_shoots_the_moon_with_a_hand_that_can_take_it():
    deal = _deal_with({0: "AH KH QH JH TH 9H 8H AS KS QS AC KC AD"}, dealer=3)  # seat 0 leads
    view = SeatView.of(deal, 0)
    assert _act(HeuristicAgent(), view) == card_id("AC")  # moon mode: cash the top cards
    assert _act(HeuristicAgent(shoot=False), view) == card_id("KC")  # normal play: lead low, keep Q♠ safe
    agents = [HeuristicAgent() for _ in range(4)]
    for seat, agent in enumerate(agents):
        agent.reset(deal.rules, seat, seed=seat)
    while not deal.is_over:
        deal.apply(agents[deal.current].act(SeatView.of(deal, deal.current)))
    assert deal.moon_shooter == 0 and deal.points == [0, 26, 26, 26]


def test_entry_point_agents_are_found(monkeypatch):
    import hearts_env.agents as agents_module

    class FakeEntryPoint:
        name = "from_plugin"

        def load(self):
            return GreedyAgent

    monkeypatch.setattr(agents_module, "entry_points", lambda group: [FakeEntryPoint()] if group ==
                        agents_module.ENTRY_POINT_GROUP else [])
    monkeypatch.setattr(agents_module._load, "done", False)
    monkeypatch.setattr(agents_module, "_REGISTRY", dict(agents_module._REGISTRY))
    assert "from_plugin" in agent_names()
    assert isinstance(make_agent("from_plugin"), GreedyAgent)


def test_paper_greedy_leads_hearts_once_hearts_were_played_or_its_lowest_card_is_a_heart():
    """Paper 002 §2.1: avoid leading a heart only while no heart was played and the lowest card is not one."""
    rules = make_rules("sturtevant")  # no heart-breaking rule: the lead choice is the player's
    hands = ["2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 3C",
             "2C 4C 5C 6C 7C 8C 9C TC JC QC KC AC AH",
             "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
             "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"]
    deal = Deal.from_hands(rules, hands, dealer=3)  # seat 0 leads (left of the dealer)
    view = SeatView.of(deal, 0)
    assert GreedyAgent().act(view) == card_id("3C")  # default: no heart while it holds another suit
    assert GreedyAgent(paper=True).act(view) == card_id("KH")  # its lowest card is 2♥: hearts allowed, highest
    with pytest.raises(ValueError, match="paper"):
        GreedyAgent(paper="yes")


def test_the_moon_seeker_passes_its_lowest_cards_and_leads_high_while_the_moon_is_alive():
    hand = "QS 2S AH KH 5C 6C 7C 8D 9D TD JD 3H 4H"
    others = [c for c in range(52) if c not in {card_id(x) for x in hand.split()}]
    random.Random(1).shuffle(others)
    deal = Deal.from_hands("standard", [hand, others[:13], others[13:26], others[26:39]], pass_direction="left")
    seeker = make_agent("moon-seeker")
    passed = []
    for _ in range(3):
        passed.append(_act(seeker, SeatView.of(deal, 0)))
        deal.apply(passed[-1])
    assert sorted(passed) == sorted(card_id(x) for x in ("2S", "3H", "4H"))  # the lowest: they win no trick


def test_the_moon_seeker_plays_as_heuristic_once_the_moon_is_gone():
    deal = _deal_with({0: "2H AS KS AD", 1: "AH 3C", 2: "3H 4C", 3: "4H 5C"}, dealer=3)  # sturtevant: seat 0 leads
    seeker = make_agent("moon-seeker")
    assert _act(seeker, SeatView.of(deal, 0)) in (card_id("AS"), card_id("AD"))  # the moon is alive: lead high
    deal.apply_all(["2H", "AH", "3H", "4H"])  # seat 1 took hearts: the moon is gone
    deal.apply_all(["3C", "4C", "5C"])
    view = SeatView.of(deal, 0)
    assert _act(seeker, view) == _act(HeuristicAgent(), view)


def test_the_queen_dumper_keeps_the_queen_when_passing_and_drops_it_on_a_higher_spade():
    hand = "QS 2S AH KH 5C 6C 7C 8D 9D TD JD 3H 4H"  # heuristic passes this unguarded queen
    others = [c for c in range(52) if c not in {card_id(x) for x in hand.split()}]
    random.Random(0).shuffle(others)
    deal = Deal.from_hands("standard", [hand, others[:13], others[13:26], others[26:39]], pass_direction="left")
    assert _act(make_agent("queen-dumper"), SeatView.of(deal, 0)) != card_id("QS")
    deal = _deal_with({0: "KS", 1: "QS 3S"}, dealer=3)
    deal.apply_all(["KS"])
    assert _act(make_agent("queen-dumper"), SeatView.of(deal, 1)) == card_id("QS")
    assert _act(HeuristicAgent(), SeatView.of(deal, 1)) == card_id("QS")  # heuristic too: under the king
    deal = _deal_with({0: "5S", 1: "QS 3S"}, dealer=3)
    deal.apply_all(["5S"])
    assert _act(make_agent("queen-dumper"), SeatView.of(deal, 1)) == card_id("3S")  # the queen would win: kept
