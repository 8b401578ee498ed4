"""Hold'em equity: hands or ranges against each other, on any board, with dead cards.

Each player is a hand (``"AhKh"``) or a range (``"QQ+, AKs"``, see
:mod:`mazziere.odds.ranges`).  The answer gives each player's chance to win
alone, to tie, and their equity: wins plus an equal share of each tie (a
fraction of the pot; the equities sum to 1).

The holdings of the players are drawn from their ranges in proportion to the
weights, never sharing a card, and the board is completed uniformly from the
cards left.  ``method="exact"`` enumerates every such deal; ``"monte-carlo"``
samples deals and reports a standard error; ``"auto"`` (the default) is exact
when at most ``exact_limit`` boards are to be enumerated (always for known
hands from the flop on, and for two to four known hands before it).  The
showdowns are evaluated in numpy, many boards at a time
(:func:`~mazziere.evaluate.holdem_strengths_batch`).

>>> result = holdem_equity(["AhKh", "QsQd"])
>>> result.method, result.boards, round(result.players[0].equity, 4)
('exact', 1712304, 0.4621)
>>> result = holdem_equity(["AhKh", "QQ+"], board="Qc 7d 2h")
>>> [round(p.equity, 3) for p in result.players], result.method
([0.098, 0.902], 'exact')
>>> mc = holdem_equity(["AhKh", "any"], method="monte-carlo", trials=20_000, rng=1)
>>> abs(mc.players[0].equity - 0.665) < 4 * mc.players[0].stderr
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from mazziere.cards import CardError, DuplicateCardError, format_cards, parse_cards
from mazziere.evaluate import holdem_strengths_batch
from mazziere.odds.combinatorics import combinations
from mazziere.odds.ranges import HandRange, RangeError, parse_range

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["Equity", "EquityError", "PlayerEquity", "holdem_equity"]

Method = Literal["auto", "exact", "monte-carlo"]

EXACT_LIMIT = 3_000_000
"""Boards (deals) that ``method="auto"`` still enumerates (a tenth of a second or so)."""

_CHUNK = 1 << 15  # boards evaluated at a time: temporaries stay in the CPU cache
# Random boards drawn at a time: the six in ten kept (about 28,000) fit in one
# chunk of the evaluator's (32,768), so each batch is evaluated in one pass.
_MC_BATCH = 3 << 14


class EquityError(ValueError):
    """Players, board or dead cards that make no deal possible."""


@dataclass(frozen=True, slots=True)
class PlayerEquity:
    """One player's share: ``equity`` = ``win`` + their share of the ties."""

    hand: str
    equity: float
    win: float
    tie: float
    stderr: float = 0.0
    """Standard error of ``equity`` (0 when exact)."""

    def to_dict(self) -> dict[str, Any]:
        """The figures as plain data (JSON)."""
        return {
            "hand": self.hand,
            "equity": self.equity,
            "win": self.win,
            "tie": self.tie,
            "stderr": self.stderr,
        }


@dataclass(frozen=True, slots=True)
class Equity:
    """The result: one :class:`PlayerEquity` per player, in order, and how it was found."""

    players: tuple[PlayerEquity, ...]
    method: Literal["exact", "monte-carlo"]
    boards: int
    """Deals enumerated (exact) or sampled (Monte Carlo)."""
    board: str = ""
    dead: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The result as plain data: what ``mazziere odds holdem --json`` prints."""
        payload: dict[str, Any] = {
            "players": [p.to_dict() for p in self.players],
            "method": self.method,
            "board": self.board,
            "dead": self.dead,
        }
        payload["boards" if self.method == "exact" else "trials"] = self.boards
        return payload


@dataclass(slots=True)
class _Tally:
    """Weighted sums per player: equity shares, their squares, lone wins, ties."""

    players: int
    weight: float = 0.0
    count: int = 0
    equity: npt.NDArray[np.float64] = field(init=False)
    square: npt.NDArray[np.float64] = field(init=False)
    win: npt.NDArray[np.float64] = field(init=False)
    tie: npt.NDArray[np.float64] = field(init=False)

    def __post_init__(self) -> None:
        self.equity, self.square, self.win, self.tie = (np.zeros(self.players) for _ in range(4))

    def add(
        self, strengths: npt.NDArray[np.int32], weights: npt.NDArray[np.float64] | float
    ) -> None:
        """Showdowns: ``strengths`` is ``(P, N)``; ``weights`` one per showdown, or one for all."""
        if self.players == 2:  # the common case, in a third of the time
            first, second = strengths
            masks = [first > second, first == second, first < second]
            sums = [
                np.count_nonzero(m) * weights if isinstance(weights, float) else (m * weights).sum()
                for m in masks
            ]
            self.equity += (sums[0] + sums[1] / 2, sums[2] + sums[1] / 2)
            self.square += (sums[0] + sums[1] / 4, sums[2] + sums[1] / 4)
            self.win += (sums[0], sums[2])
            self.tie += sums[1]
        else:
            best = strengths == strengths.max(axis=0)
            winners = best.sum(axis=0)
            for k in range(1, self.players + 1):
                sharing = winners == k
                if not sharing.any():
                    continue
                mask = best & sharing
                if isinstance(weights, float):
                    counts = np.count_nonzero(mask, axis=1) * weights
                else:
                    counts = (mask * weights).sum(axis=1)  # far cheaper than bool @ float
                self.equity += counts / k
                self.square += counts / (k * k)
                if k == 1:
                    self.win += counts
                else:
                    self.tie += counts
        count = strengths.shape[1]
        self.weight += weights * count if isinstance(weights, float) else float(weights.sum())
        self.count += count


@dataclass(frozen=True, slots=True)
class _Deal:
    """What is known: fixed hands, the ranges still open, the board, the cards left."""

    labels: tuple[str, ...]
    ranges: tuple[HandRange, ...]
    board: tuple[int, ...]
    live: npt.NDArray[np.int64]
    """Cards not known anywhere: the board is completed from them."""

    @property
    def open_players(self) -> list[int]:
        return [i for i, r in enumerate(self.ranges) if not r.is_hand]

    @property
    def to_deal(self) -> int:
        return 5 - len(self.board)


def _cards(text: str | Sequence[int], what: str) -> list[int]:
    try:
        return [int(c) for c in parse_cards(text)]
    except CardError as exc:
        raise EquityError(f"{what}: {exc}") from None


def _check_distinct(cards: list[int]) -> None:
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise DuplicateCardError(f"card {format_cards([card])} is used twice")
        seen.add(card)


def _prepare(
    hands: Sequence[str | HandRange], board: str | Sequence[int], dead: str | Sequence[int]
) -> _Deal:
    if len(hands) < 2:
        raise EquityError("equity needs at least two players")
    ranges = [h if isinstance(h, HandRange) else parse_range(h) for h in hands]
    board_cards = _cards(board, "board")
    dead_cards = _cards(dead, "dead cards")
    if len(board_cards) > 5:
        raise EquityError(f"a board has at most 5 cards, not {len(board_cards)}")
    opened = list(ranges)
    while True:  # a range left with one holding is a known hand: its cards block others
        known = board_cards + dead_cards + [c for r in opened if r.is_hand for c in r.combos[0]]
        _check_distinct(known)
        blocked = set(known)
        narrowed = [r if r.is_hand else r.without(blocked) for r in opened]
        for before, after in zip(ranges, narrowed, strict=True):
            if not len(after):
                raise RangeError(f"no hand of range {before.text!r} is left with these cards")
        if all(len(a) == len(b) for a, b in zip(opened, narrowed, strict=True)):
            break
        opened = narrowed
    live = np.array([c for c in range(52) if c not in blocked], dtype=np.int64)
    needed = 5 - len(board_cards) + 2 * sum(not r.is_hand for r in opened)
    if needed > len(live):
        what = "the board" if all(r.is_hand for r in opened) else "the board and the ranges"
        raise EquityError(
            f"too few cards left for {what}: {needed} needed, only {len(live)} not dead, "
            "on the board or in a hand"
        )
    return _Deal(
        tuple(r.describe() for r in ranges),
        tuple(opened),
        tuple(board_cards),
        live,
    )


def _open_tuples(deal: _Deal) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float64]]:
    """Every choice of holdings of the open ranges sharing no card, with its weight."""
    open_ranges = [deal.ranges[i] for i in deal.open_players]
    if not open_ranges:
        return np.zeros((1, 0), dtype=np.intp), np.ones(1)
    grids = np.meshgrid(*[np.arange(len(r)) for r in open_ranges], indexing="ij")
    choice = np.stack([g.ravel() for g in grids], axis=1)
    cards = np.hstack([r.combos[choice[:, j]] for j, r in enumerate(open_ranges)])
    ordered = np.sort(cards, axis=1)
    disjoint = (np.diff(ordered, axis=1) != 0).all(axis=1)
    choice = choice[disjoint]
    weights = np.ones(len(choice))
    for j, r in enumerate(open_ranges):
        weights *= r.weights[choice[:, j]]
    return choice, weights


def _holes(deal: _Deal, choice: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
    """``(P, N, 2)`` hole cards for ``N`` rows of choices of the open ranges."""
    holes = np.empty((len(deal.ranges), len(choice), 2), dtype=np.int64)
    column = 0
    for p, r in enumerate(deal.ranges):
        if r.is_hand:
            holes[p] = r.combos[0]
        else:
            holes[p] = r.combos[choice[:, column]]
            column += 1
    return holes


def _with_board(deal: _Deal, drawn: npt.NDArray[np.uint8], left: int) -> npt.NDArray[np.uint8]:
    """Boards as rows of deck indices: the cards dealt, then the known board's.

    ``drawn`` is ``(k, N)``: the indices of the cards dealt, a row per card.
    The deck these index is the ``left`` cards still live, then the board.
    The result is ``(N, 5)`` laid out column by column (a transposed array):
    the evaluator reads it a column at a time.  With no board known, the
    drawn rows are the boards (no copy).
    """
    if not deal.board:
        return drawn.T
    columns = np.empty((5, drawn.shape[1]), dtype=np.uint8)
    columns[: len(drawn)] = drawn
    for i in range(len(deal.board)):
        columns[len(drawn) + i] = left + i
    return columns.T


def _exact_size(deal: _Deal) -> int:
    """An upper bound of the deals to enumerate (choices of holdings times boards)."""
    choices = math.prod(len(deal.ranges[i]) for i in deal.open_players)
    left = len(deal.live) - 2 * len(deal.open_players)
    return choices * math.comb(left, deal.to_deal)


def _exact(deal: _Deal) -> tuple[_Tally, int]:
    choice, weights = _open_tuples(deal)
    tally = _Tally(len(deal.ranges))
    if not len(choice):
        raise EquityError("the ranges leave no deal without a card used twice")
    # Each choice of holdings leaves the same number of live cards: its boards
    # are the rows of one table of combinations, as indices into those cards.
    holes = _holes(deal, choice)
    open_cards = holes[deal.open_players].transpose(1, 0, 2).reshape(len(choice), -1)
    present = np.zeros((len(choice), 52), dtype=bool)
    present[:, deal.live] = True
    np.put_along_axis(present, open_cards, False, axis=1)
    left = len(deal.live) - open_cards.shape[1]
    table = combinations(left, deal.to_deal)
    per_choice = len(table)
    board = np.array(deal.board, dtype=np.int64)
    if per_choice >= _CHUNK // 4:  # big enumerations: one choice at a time, board by board
        fixed = holes[:, 0] if not deal.open_players else None
        for row in range(len(choice)):
            deck = np.concatenate([np.flatnonzero(present[row]), board])
            player_holes = fixed if fixed is not None else holes[:, row]
            for start in range(0, per_choice, _CHUNK):
                rows = _with_board(deal, table[start : start + _CHUNK].T, left)
                strengths = holdem_strengths_batch(player_holes, rows, deck=deck)
                tally.add(strengths, float(weights[row]))
        return tally, int(len(choice) * per_choice)
    # Many small enumerations (turn, river): many choices at a time.
    index = table.astype(np.intp)
    at_once = max(1, _CHUNK // per_choice)
    for first in range(0, len(choice), at_once):
        group = slice(first, first + at_once)
        live = np.nonzero(present[group])[1].reshape(-1, left)
        drawn = live[:, index].reshape(len(live) * per_choice, deal.to_deal)
        boards = np.hstack([np.broadcast_to(board, (len(drawn), len(board))), drawn])
        strengths = holdem_strengths_batch(np.repeat(holes[:, group], per_choice, axis=1), boards)
        tally.add(strengths, np.repeat(weights[group], per_choice))
    return tally, int(len(choice) * per_choice)


def _sample_choices(deal: _Deal, rng: np.random.Generator, size: int) -> npt.NDArray[np.int64]:
    """``(P, size, 2)`` holes: the open ranges' holdings drawn by weight, the known hands."""
    picks = []
    for i in deal.open_players:
        weights = deal.ranges[i].weights
        cumulative = np.cumsum(weights)
        picks.append(np.searchsorted(cumulative, rng.random(size) * cumulative[-1], side="right"))
    return _holes(deal, np.stack(picks, axis=1))


def _random_rows(
    rng: np.random.Generator, cards: int, size: int, rows: int
) -> npt.NDArray[np.uint8]:
    """At most ``rows`` random ``size``-subsets of ``range(cards)``, uniform (in any order).

    The result is ``(size, kept)``: one row per card dealt, one column per
    subset (the layout the evaluator reads).  Each card is a random byte
    ``b`` made ``b * cards >> 8`` (the high byte of a 16-bit product: no
    division, no table); a product whose low byte is below ``256 % cards``
    is thrown away, which leaves every card exactly equally likely
    (Lemire's method), and so are subsets with a card twice (four in ten in
    all, for five cards from 48).  Random bytes are a view of 64-bit words,
    and bounded integers or a gather from a table of every board cost
    several times more.
    """
    if not size:  # the board is complete: nothing to deal
        return np.zeros((0, rows), dtype=np.uint8)
    words = -(-size * rows // 8)
    draws = rng.integers(0, 1 << 64, size=words, dtype=np.uint64, endpoint=False)
    raw = draws.view(np.uint8)[: size * rows].reshape(size, rows)
    product = np.multiply(raw, cards, dtype=np.uint16)
    low, high = product.view(np.uint8).reshape(size, rows, 2).transpose(2, 0, 1)
    threshold = 256 % cards
    bad = low[0] < threshold
    for i in range(1, size):
        bad |= low[i] < threshold
    high = np.ascontiguousarray(high)
    for i in range(size):
        for j in range(i + 1, size):
            bad |= high[i] == high[j]
    return np.compress(~bad, high, axis=1)


def _monte_carlo(
    deal: _Deal,
    rng: np.random.Generator,
    trials: int,
    deadline: Callable[[], bool] | None,
) -> _Tally:
    tally = _Tally(len(deal.ranges))
    left = len(deal.live)
    deck = np.concatenate([deal.live, np.array(deal.board, dtype=np.int64)])
    open_players = deal.open_players
    fixed = _holes(deal, np.zeros((1, 0), dtype=np.intp))[:, 0] if not open_players else None
    empty_batches = 0
    # Boards are thrown away (a card twice: about four in ten for five cards)
    # and so are deals where holdings and board share a card: each batch asks
    # for as many boards as the share kept so far says it needs (a few
    # thousand deals, a bot's, take one batch, not five).
    asked = kept_count = 0
    while tally.count < trials and not (deadline is not None and tally.count and deadline()):
        needed = trials - tally.count
        share = kept_count / asked if kept_count else 0.5
        rows = min(_MC_BATCH, int(needed / share * 1.1) + 64)
        asked += rows
        drawn = _random_rows(rng, left, deal.to_deal, rows)
        if open_players:
            holes = _sample_choices(deal, rng, drawn.shape[1])
            # A deal where two players, or a player and the board, share a card
            # is thrown away: the ones kept are drawn as the exact model weighs them.
            cards = np.hstack([deal.live[drawn.T], *(holes[p] for p in open_players)])
            ordered = np.sort(cards, axis=1)
            kept = (np.diff(ordered, axis=1) != 0).all(axis=1)
            if not kept.any():
                empty_batches += 1
                if empty_batches == 20:
                    raise EquityError("the ranges almost never leave a deal without a card twice")
                continue
            player_holes, drawn = holes[:, kept], drawn[:, kept]
        else:
            assert fixed is not None
            player_holes = fixed
        kept_count += drawn.shape[1]
        player_holes = player_holes if fixed is not None else player_holes[:, :needed]
        drawn = drawn[:, :needed]  # the deals are in random order: the first ones are a sample
        strengths = holdem_strengths_batch(player_holes, _with_board(deal, drawn, left), deck=deck)
        tally.add(strengths, 1.0)
    return tally


def holdem_equity(
    hands: Sequence[str | HandRange],
    *,
    board: str | Sequence[int] = "",
    dead: str | Sequence[int] = "",
    method: Method = "auto",
    trials: int = 200_000,
    seconds: float | None = None,
    clock: Callable[[], float] | None = None,
    rng: np.random.Generator | int | None = None,
    exact_limit: int = EXACT_LIMIT,
) -> Equity:
    """Each player's win, tie and equity (see the module's docstring).

    Monte Carlo stops after ``trials`` deals, or earlier when ``seconds``
    have passed on ``clock`` (a time budget needs the caller's clock: this
    module reads none).  ``rng`` is a numpy ``Generator`` or a seed (default 0).
    """
    if method not in ("auto", "exact", "monte-carlo"):
        raise EquityError(f"unknown method {method!r} (auto, exact or monte-carlo)")
    if trials < 1:
        raise EquityError("trials must be at least 1")
    deal = _prepare(hands, board, dead)
    exact = method == "exact" or (method == "auto" and _exact_size(deal) <= exact_limit)
    if exact:
        tally, boards = _exact(deal)
    else:
        deadline = None
        if seconds is not None:
            if clock is None:
                raise EquityError("a time budget needs a clock")
            start = clock()

            def deadline() -> bool:
                return clock() - start >= seconds

        generator = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng or 0)
        tally = _monte_carlo(deal, generator, trials, deadline)
        boards = tally.count
    total = tally.weight
    players = []
    for p, label in enumerate(deal.labels):
        equity = float(tally.equity[p] / total)
        stderr = 0.0
        if not exact:
            variance = max(float(tally.square[p] / total) - equity * equity, 0.0)
            stderr = math.sqrt(variance / max(total - 1, 1))
        players.append(
            PlayerEquity(
                label,
                equity,
                float(tally.win[p] / total),
                float(tally.tie[p] / total),
                stderr,
            )
        )
    return Equity(
        tuple(players),
        "exact" if exact else "monte-carlo",
        boards,
        format_cards(deal.board),
        format_cards(_cards(dead, "dead cards")),
    )
