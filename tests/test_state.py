"""Every form of the deal's state is held to its one declaration, :class:`hearts_env.state.DealState`:
the scalar ``Deal`` (slots, construction, ``clone``), ``SeatView.of``, the compiled kernels, and the
batch built from scalar deals."""

from __future__ import annotations

import ast
import inspect

import numpy as np
import pytest

from hearts_env import Deal, Phase, SeatView, make_rules
from hearts_env.state import FIELDS, DealState, fresh_state, state_of_deals
from hearts_env.tables import tables_of
from hearts_env.vector import VectorDeals, _kernels

DEAL_ONLY = {"_c": "the rules' tables", "rules": "the rules", "history": "every card in order (records keep it)",
             "_legal": "a cache of the legal cards"}
"""The ``Deal``'s slots that are not state of the batch, and why."""

SEAT_VIEW = {"dealt": "dealt", "hands": "hand", "passed": "passed", "played_by": "played_by", "phase": "phase",
             "current": "current", "leader": "leader", "trick": "trick", "trick_index": "trick_index",
             "hearts_broken": "hearts_broken", "taken": "taken", "tricks_won": "tricks_won", "voids": "voids",
             "trick_winners": "trick_winners", "points": "final_points", "moon_shooter": "moon_shooter",
             "pass_direction": "pass_direction", "dealer": "dealer", "game_scores": "game_scores"}
"""Each state field as a seat's view holds it (the seat's own part of the hidden per-seat fields)."""
SEAT_VIEW_DERIVED = {"trick_count": "len(trick)", "trick_mask": "the trick_mask property",
                     "led_mask": "the suit of trick[0]"}
SEAT_VIEW_ONLY = {"rules", "seat", "received", "legal", "plays", "_points_taken"}
HIDDEN = {"dealt", "hands", "passed"}  # per seat, and a seat sees its own


def _deals() -> list[Deal]:
    """Deals in every phase: passing, mid-trick, between tricks, over (with and without passing)."""
    rng = np.random.default_rng(3)
    out = []
    for rules, direction, steps in [("standard", "left", 5), ("standard", "left", 12 + 7), ("standard", "hold", 8),
                                    ("standard", "across", 1000), ("dutch", "hold", 1000)]:
        deal = Deal.random(rules, rng, pass_direction=direction)
        for _ in range(steps):
            if deal.phase == Phase.DONE:
                break
            deal.apply(int(rng.choice(deal.legal_cards())))
        out.append(deal)
    assert {d.phase for d in out} == set(Phase)
    return out


def test_the_deal_holds_every_declared_field_and_nothing_else_undeclared():
    declared = {"_phase" if name == "phase" else name for name, field in FIELDS.items() if field.of_deal is None}
    assert set(Deal.__slots__) - set(DEAL_ONLY) == declared


@pytest.mark.parametrize("deal", _deals(), ids=lambda d: d.phase.name)
def test_a_new_deal_and_a_clone_set_every_slot_and_share_nothing_mutable(deal):
    fresh = Deal.random(deal.rules, 1)
    copy = deal.clone()
    for slot in Deal.__slots__:
        getattr(fresh, slot)  # set by __init__
        mine, theirs = getattr(deal, slot), getattr(copy, slot)
        assert mine == theirs, slot
        if isinstance(mine, list):
            assert mine is not theirs, slot


def test_a_seat_view_holds_every_field_or_derives_it():
    assert set(SEAT_VIEW) | set(SEAT_VIEW_DERIVED) == set(FIELDS)
    assert set(SeatView.__slots__) == set(SEAT_VIEW.values()) | SEAT_VIEW_ONLY


@pytest.mark.parametrize("deal", _deals(), ids=lambda d: d.phase.name)
def test_a_seat_view_equals_the_deal_field_by_field(deal):
    for seat in range(4):
        view = SeatView.of(deal, seat)
        for name, attribute in SEAT_VIEW.items():
            value = getattr(deal, name)
            if name in HIDDEN:
                value = value[seat]
            elif name == "current" and deal.phase == Phase.DONE:
                value = -1
            elif isinstance(value, list):
                value = tuple(value)
            assert getattr(view, attribute) == value, name
        assert view.trick_mask == sum(1 << c for c in deal.trick) == deal.trick_mask


def test_the_kernels_unpack_the_declared_fields_in_order():
    tree = ast.parse(inspect.getsource(_kernels.drive))
    unpacks = [node.targets[0] for node in ast.walk(tree) if isinstance(node, ast.Assign)
               and isinstance(node.value, ast.Name) and node.value.id == "S"]
    assert len(unpacks) == 1
    assert [name.id.lstrip("_") for name in unpacks[0].elts] == list(DealState._fields)  # _dealt: unused


def test_a_fresh_state_has_every_field_with_its_dtype_and_shape():
    tables = tables_of(make_rules("dutch"))
    state = fresh_state(tables, 5)
    assert isinstance(state, DealState) and state.size == 5
    for (name, field), array in zip(FIELDS.items(), state, strict=True):
        assert array.dtype == field.dtype, name
        assert array.shape == ((5,) if field.shape == "row" else (5, 8 if field.shape == "deal" else 4)), name
        assert (array == field.fill).all(), name


def test_the_state_of_deals_reads_every_field_from_the_deal():
    deals = [d for d in _deals() if d.rules.deck == "standard"]
    state = state_of_deals(deals, tables_of(deals[0].rules))
    for i, deal in enumerate(deals):
        assert state.dealt[i].tolist() == list(deal.dealt)
        assert state.hands[i].tolist() == deal.hands
        assert state.phase[i] == deal.phase
        assert state.current[i] == max(deal.current, 0) and state.leader[i] == max(deal.leader, 0)
        assert state.trick[i].tolist() == deal.trick + [-1] * (4 - len(deal.trick))
        assert state.trick_count[i] == len(deal.trick)
        assert state.trick_winners[i].tolist() == deal.trick_winners + [-1] * (13 - len(deal.trick_winners))
        assert state.points[i].tolist() == (deal.points or [0, 0, 0, 0])
        assert state.moon_shooter[i] == (-1 if deal.moon_shooter is None else deal.moon_shooter)
        for name in ("passed", "played_by", "taken", "tricks_won", "voids", "game_scores"):
            assert state[DealState._fields.index(name)][i].tolist() == list(getattr(deal, name)), name
        for name in ("trick_mask", "led_mask", "trick_index", "hearts_broken", "pass_direction", "dealer"):
            assert state[DealState._fields.index(name)][i] == getattr(deal, name), name


def test_a_batch_holds_its_state_as_one_value():
    deals = VectorDeals.random("standard", 3, np.random.default_rng(0), backend="numpy")
    assert deals.hands is deals.state.hands
    assert not hasattr(deals, "__dict__")  # nothing copied beside the state
    with pytest.raises(AttributeError):
        deals.state = deals.state  # the kernels hold its arrays: it is never replaced
    with pytest.raises(AttributeError, match="no attribute 'handz'"):
        deals.handz  # noqa: B018
    with pytest.warns(DeprecationWarning, match=r"VectorDeals.n is deprecated: use .tables.size"):
        assert deals.n == 52
    taken = deals.take([2, 2])
    assert taken.size == 2 and (taken.hands == deals.hands[[2, 2]]).all()
    taken.hands[0] = 0
    assert (deals.hands[2] != 0).all()  # a copy
