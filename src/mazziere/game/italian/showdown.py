"""The showdown of Poker all'italiana: its order, the automatic showing, the best hand
(suits break ties; italian-classic's straight flushes form a cycle)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from mazziere.evaluate import HandValue, Ranking, best_hands
from mazziere.game.core import BetsCollected, BettingHand, Phase, Pot
from mazziere.rules import Category, RuleSet

__all__ = ["ItalianShowdown"]


class ItalianShowdown(BettingHand):
    """The showdown part of :class:`~mazziere.game.italian.hand.ItalianHand`."""

    __slots__ = ("_showdown_pots", "_strengths")

    # The hand's own attributes this part reads (set by ItalianHand).
    rules: RuleSet
    ranking: Ranking
    ask_show: bool
    _strengths: dict[int, int]
    _showdown_pots: tuple[Pot, ...]
    _all_in_raisers: set[int]
    _cycle: bool
    _no_last_round: bool
    _last_aggressor: int | None
    _last_first: int

    def _showdown(self) -> None:
        if self._no_last_round:
            start = 0
        else:
            start = self._last_aggressor if self._last_aggressor is not None else self._last_first
        live = self.live  # in position order
        split = bisect_left(live, start)
        order = [*live[split:], *live[:split]]
        ranking = self.ranking
        strengths = self._strengths
        for position in order:
            strengths[position] = ranking.strength(self.hole[position])  # type: ignore[arg-type]
        last = self.log[-1]  # the bets of the last round were just collected into these pots
        self._showdown_pots = last.pots if type(last) is BetsCollected else self.pots()
        if not self._one_pass_showdown(order):
            self._begin_showdown(order, ask=self.ask_show, auto_show=True)

    def _one_pass_showdown(self, order: list[int]) -> bool:
        """The common showdown in one pass; False when it is not that case.

        Nobody asked, one pot, nobody all-in, no straight-flush cycle: in
        showdown order a hand better than every hand shown so far is shown,
        the others are mucked (no ties: suits break them), and the last hand
        shown wins.  What the general showdown does then, without its questions.
        """
        pots = self._showdown_pots
        if self.ask_show or self._cycle or not self._one_pot_at_showdown(pots):
            return False
        strengths = self._strengths
        self.phase = Phase.SHOWDOWN
        best = -1
        winner = order[0]
        shown = []
        for position in order:
            strength = strengths[position]
            if strength > best:
                best, winner = strength, position
                self._do_show(position)
                shown.append(position)
            else:
                self._do_muck(position)
        pot = Pot(pots[0].amount, tuple(sorted(shown)))
        self._award([(pot, (winner,))])
        self._finish()
        return True

    def _best(self, positions: Sequence[int]) -> list[int]:
        """Who wins among ``positions`` (never a tie: suits break them)."""
        strengths = self._strengths
        if self._cycle:
            category = self.ranking.category
            flushes = [p for p in positions if category(strengths[p]) is Category.STRAIGHT_FLUSH]
            if len(flushes) > 1:
                # Straight flushes of italian-classic: minima beats massima, a cycle.
                ranking, name = self.ranking, self.rules.name
                values = [
                    HandValue(
                        strength=strengths[p],
                        ranking=ranking,
                        cards=self.hole[p],  # type: ignore[arg-type]
                        rules=name,
                    )
                    for p in positions
                ]
                return [positions[i] for i in best_hands(values)]
        top = max(strengths[p] for p in positions)
        return [p for p in positions if strengths[p] == top]

    def _can_win(self, position: int) -> bool | None:
        # Shown automatically: a hand that beats every hand shown so far in some
        # pot it contests, and a player who raised all-in.
        if position in self._all_in_raisers:
            return True
        shown, strengths = self.shown, self._strengths
        pots = self._showdown_pots
        if len(pots) == 1 and not self._cycle:
            # One pot (the common case): beat every hand shown in it (no ties: suits break them)
            eligible = pots[0].eligible
            if position not in eligible:
                return False
            mine = strengths[position]
            for other in shown:
                if other != position and other in eligible and strengths[other] >= mine:
                    return False
            return True
        for pot in pots:
            eligible = pot.eligible
            if position not in eligible:
                continue
            rivals = [p for p in eligible if p in shown and p != position]
            if not rivals:
                return True
            if self._cycle:
                if self._best([*rivals, position]) == [position]:
                    return True
            elif strengths[position] > max(strengths[p] for p in rivals):
                return True
        return False

    def _pot_winners(self, eligible: tuple[int, ...]) -> tuple[int, ...]:
        if len(eligible) == 1:
            return eligible
        return tuple(self._best(eligible))

    def _on_uncontested(self, winner: int) -> None:
        if self.ask_show:
            self._offer_show(winner)
        else:
            self._finish()
