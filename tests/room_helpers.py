"""Helpers for the room tests: tables with a fake clock, simple policies to play hands."""

from __future__ import annotations

import random
from collections.abc import Callable

from mazziere.game.core import Action, ActionKind
from mazziere.room.cash import CashSettings, CashTable
from mazziere.room.clock import ManualClock, TimeSettings
from mazziere.room.structure import Stakes
from mazziere.room.table import Decision, Table

Policy = Callable[[Table, Decision], Action]


def passive(table: Table, decision: Decision) -> Action:
    """Check when free, else call; draw nothing; muck when asked."""
    kinds = decision.legal.kinds
    for kind in (ActionKind.CHECK, ActionKind.CALL, ActionKind.MUCK):
        if kind in kinds:
            return Action(kind)
    if ActionKind.DRAW in kinds:
        return Action(ActionKind.DRAW)
    return Action.timeout()


def shove(table: Table, decision: Decision) -> Action:
    """All-in whenever possible, else call or check."""
    kinds = decision.legal.kinds
    if ActionKind.ALL_IN in kinds:
        return Action.all_in()
    return passive(table, decision)


def folder(table: Table, decision: Decision) -> Action:
    """Fold whenever folding is offered (check if it is free)."""
    kinds = decision.legal.kinds
    if ActionKind.CHECK in kinds:
        return Action.check()
    if ActionKind.FOLD in kinds:
        return Action.fold()
    return passive(table, decision)


def play_hand(table: Table, policy: Policy = passive, *, seconds: float = 1.0) -> None:
    """Play the current hand to its end with ``policy`` for everyone."""
    clock = table.clock
    assert isinstance(clock, ManualClock)
    steps = 0
    while table.in_hand:
        decision = table.decision
        assert decision is not None
        clock.advance(seconds)
        table.act(decision.name, policy(table, decision))
        steps += 1
        assert steps < 1000


def holdem_table(
    *,
    seats: int = 6,
    seed: int = 1,
    time: TimeSettings | None = None,
    **settings: object,
) -> CashTable:
    values: dict[str, object] = {
        "rules": "holdem",
        "seats": seats,
        "stakes": Stakes(small_blind=5, big_blind=10),
        "min_buy_in": 200,
        "max_buy_in": 1000,
        "time": time,
    }
    values.update(settings)
    return CashTable(
        CashSettings(**values),  # type: ignore[arg-type]
        clock=ManualClock(),
        rng=random.Random(seed),
    )


def forced_bets(table: Table) -> dict[str, tuple[int, str, bool]]:
    """Each player's forced bets in the current hand: name -> (amount, kind, live)."""
    from mazziere.game.core import ForcedBet

    assert table.hand is not None
    names = table.view()["positions"]
    result = {}
    for record in table.hand.log:
        if isinstance(record, ForcedBet):
            seat = names[record.position]
            name = table.seats[seat].name
            amount, kinds, _ = result.get(name, (0, "", True))
            kind = f"{kinds}+{record.kind}".strip("+")
            result[name] = (amount + record.amount, kind, record.live)
    return result


def italian_table(
    rules: str = "italian-classic",
    *,
    seats: int = 5,
    seed: int = 1,
    time: TimeSettings | None = None,
    **settings: object,
) -> CashTable:
    stakes = Stakes(ante=10) if rules == "italian-classic" else Stakes(small_blind=5, big_blind=10)
    values: dict[str, object] = {
        "rules": rules,
        "seats": seats,
        "stakes": stakes,
        "min_buy_in": 200,
        "max_buy_in": 2000,
        "time": time,
    }
    values.update(settings)
    return CashTable(
        CashSettings(**values),  # type: ignore[arg-type]
        clock=ManualClock(),
        rng=random.Random(seed),
    )


def italian_policy(*, folders: tuple[str, ...] = (), parol: bool = True, opens: bool = True):  # type: ignore[no-untyped-def]
    """Open when allowed, call (``folders`` fold to a bet), draw nothing, say parol."""

    def policy(table: Table, decision: Decision) -> Action:
        kinds = decision.legal.kinds
        hand = table.hand
        assert hand is not None
        if ActionKind.DRAW in kinds:
            return Action(ActionKind.DRAW)
        if ActionKind.MUCK in kinds:
            return Action(ActionKind.MUCK)
        if ActionKind.SHOW in kinds and ActionKind.CHECK not in kinds:
            return Action(ActionKind.SHOW)
        if not any(hand.hole[decision.position]):
            return Action.check()  # no blind opening
        if ActionKind.PAROL in kinds and parol:
            return Action(ActionKind.PAROL)
        if ActionKind.CALL in kinds:
            return Action.fold() if decision.name in folders else Action.call()
        if ActionKind.BET in kinds and opens and getattr(hand, "betting_round", 0) == 1:
            return Action.bet(decision.legal.min_to)
        if ActionKind.CHECK in kinds:
            return Action.check()
        return Action.timeout()

    return policy


def bot_policy(kind: str = "basic", seed: int = 0) -> Policy:
    """A policy that asks a bot of ``kind`` (one bot per player, seeded)."""
    from mazziere.bots.base import Bot, Situation, make_bot

    rng = random.Random(seed)
    bots: dict[str, Bot] = {}

    def policy(table: Table, decision: Decision) -> Action:
        bot = bots.setdefault(decision.name, make_bot(kind, rng))
        assert table.hand is not None and table.plan is not None
        stakes = table.current_stakes()
        situation = Situation(
            table.rules,
            decision.position,
            table.plan.players,
            table.hand.view(decision.position),  # type: ignore[attr-defined]
            decision.legal,
            max(stakes.big_blind, stakes.ante, 1),
        )
        return bot.act(situation)

    return policy
