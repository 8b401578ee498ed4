"""The shuffle's uniformity: a chi-square test over card positions of many decks.

The room orders each hand's deck with :func:`mazziere.fair.deck_order`: a
fresh 32-byte seed (:func:`mazziere.fair.new_seed`, the operating system's
CSPRNG) expanded by SHA-256 in counter mode into the bits of a Fisher-Yates
shuffle.  If that expansion is uniform, every card is equally likely at every
position: over ``N`` decks of ``n`` cards each cell of the ``n x n`` table
(card, position) expects ``N / n``.  The statistic
``sum((observed - expected)**2 / expected)`` then follows a chi-square law
with ``(n - 1)**2`` degrees of freedom (each row and each column of the table
sums to ``N``), and the shuffle passes at the 99% level when the p-value,
the chance of a statistic at least as large from a uniform shuffle, is at
least 0.01.

The decks are the ones the rule sets deal: Hold'em's 52 cards, and the
Italian decks of 24, 28, 32, 36 and 40 cards (``italian-classic`` with 2 to 6
players; ``italian-32`` deals the 32-card one).  The peer is Python's own
``random.Random.shuffle`` (the Mersenne Twister), shuffling the same decks in
the same run: its p-values show what a good shuffle looks like at this
number of decks, and the ratio of speeds what the cryptographic stream costs.

Counting is numpy's: each batch of decks is a matrix of card indices, and
``bincount`` over ``card * n + position`` adds it to the table.

>>> result = run_case(DECKS[0], decks=300, seeds=counter_seeds(b"doctest"))
>>> result.statistic.dof, int(result.counts.sum()), bool(np.ptp(result.counts.sum(axis=0)) == 0)
(2601, 15600, True)
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from benchmarks.timing import Echo
from mazziere.cards import Card
from mazziere.fair import FairRandom, deck_order, new_seed
from mazziere.rules import find_rules

LEVEL = 0.01
"""A shuffle fails when its p-value is below this: the test is at the 99% level."""

BATCH = 4096
"""Decks counted per numpy batch."""


@dataclass(frozen=True)
class DeckCase:
    """One deck the room deals: the rule sets (and players) that deal it."""

    label: str
    rules: str
    players: int

    def cards(self) -> list[Card]:
        """The deck in its canonical order (the order before any shuffle)."""
        return list(find_rules(self.rules).deck(self.players))


DECKS = (
    DeckCase("holdem (52 cards)", "holdem", 2),
    DeckCase("italian-classic, 2 players (24 cards)", "italian-classic", 2),
    DeckCase("italian-classic, 3 players (28 cards)", "italian-classic", 3),
    DeckCase("italian-classic, 4 players, and italian-32 (32 cards)", "italian-32", 4),
    DeckCase("italian-classic, 5 players (36 cards)", "italian-classic", 5),
    DeckCase("italian-classic, 6 players (40 cards)", "italian-classic", 6),
)
"""Every deck size the rule sets use (italian-32's deck is italian-classic's for 4 players)."""

Shuffle = Callable[[bytes], Sequence[Card]]
"""Cards in the order a seed deals them."""


@dataclass(frozen=True)
class ChiSquare:
    """A chi-square statistic, its degrees of freedom and its p-value."""

    statistic: float
    dof: int
    p_value: float

    @property
    def passed(self) -> bool:
        """Not rejected at the 99% level."""
        return self.p_value >= LEVEL


@dataclass(frozen=True)
class CaseResult:
    """One shuffle over one deck: the table of counts, its test, the time it took."""

    case: DeckCase
    decks: int
    counts: npt.NDArray[np.int64]
    statistic: ChiSquare
    seconds: float


def production_shuffle(case: DeckCase) -> Shuffle:
    """What the room deals from a seed: :func:`mazziere.fair.deck_order` for ``case``'s deck."""
    rng = FairRandom(bytes(32))  # one source restarted per hand, as a table keeps it

    def shuffle(seed: bytes) -> Sequence[Card]:
        return deck_order(seed, case.rules, players=case.players, rng=rng)[0]

    return shuffle


def mersenne_shuffle(case: DeckCase) -> Shuffle:
    """The peer: Python's ``random.Random(seed).shuffle`` of the same deck."""
    cards = case.cards()

    def shuffle(seed: bytes) -> Sequence[Card]:
        order = list(cards)
        random.Random(seed).shuffle(order)
        return order

    return shuffle


def os_seeds() -> Iterator[bytes]:
    """Fresh seeds as the room draws them (:func:`mazziere.fair.new_seed`), without end."""
    while True:
        yield new_seed()


def counter_seeds(label: bytes) -> Iterator[bytes]:
    """Repeatable seeds: SHA-256 of ``label`` and a counter (tests want the same decks)."""
    counter = 0
    while True:
        yield hashlib.sha256(label + counter.to_bytes(8, "big")).digest()
        counter += 1


def position_counts(
    shuffle: Shuffle, deck: Sequence[Card], seeds: Iterable[bytes], decks: int
) -> npt.NDArray[np.int64]:
    """``counts[card, position]``: how often each card of ``deck`` came at each position."""
    size = len(deck)
    index = {card: i for i, card in enumerate(deck)}
    counts = np.zeros(size * size, dtype=np.int64)
    offsets = np.arange(size, dtype=np.int64)
    source = iter(seeds)
    done = 0
    while done < decks:
        batch = min(BATCH, decks - done)
        orders = np.empty((batch, size), dtype=np.int64)
        for row in range(batch):
            orders[row] = [index[card] for card in shuffle(next(source))]
        counts += np.bincount((orders * size + offsets).ravel(), minlength=size * size)
        done += batch
    return counts.reshape(size, size)


def chi_square_uniform(counts: npt.NDArray[np.int64]) -> ChiSquare:
    """The chi-square test of a square table of counts against every cell being equally likely.

    Rows and columns each sum to the number of decks, so the degrees of
    freedom are ``(n - 1)**2``.

    >>> chi_square_uniform(np.array([[5, 5], [5, 5]]))
    ChiSquare(statistic=0.0, dof=1, p_value=1.0)
    """
    size = counts.shape[0]
    expected = counts.sum() / size / size
    statistic = float(((counts - expected) ** 2).sum() / expected)
    dof = (size - 1) ** 2
    return ChiSquare(statistic, dof, chi_square_sf(statistic, dof))


def chi_square_sf(x: float, dof: int) -> float:
    """P(X >= x) for X chi-square with ``dof`` degrees of freedom.

    The regularised upper incomplete gamma function Q(dof/2, x/2): its series
    below ``a + 1``, its continued fraction (modified Lentz) above.

    >>> round(chi_square_sf(2.0, 2), 12) == round(math.exp(-1.0), 12)  # exp(-x/2) for dof 2
    True
    >>> round(chi_square_sf(6.635, 1), 4)  # the 99% point of one degree of freedom
    0.01
    """
    if x <= 0:
        return 1.0
    a, z = dof / 2, x / 2
    log_front = a * math.log(z) - z - math.lgamma(a)
    if z < a + 1:
        term = total = 1 / a
        n = 1
        while abs(term) > abs(total) * 1e-16:
            term *= z / (a + n)
            total += term
            n += 1
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = z + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    n = 1
    while True:
        an = -n * (n - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
        n += 1
    return h * math.exp(log_front)


def run_case(
    case: DeckCase,
    *,
    decks: int,
    seeds: Iterable[bytes],
    shuffle: Callable[[DeckCase], Shuffle] = production_shuffle,
) -> CaseResult:
    """Shuffle ``decks`` decks of ``case`` and test the positions."""
    start = time.process_time()
    counts = position_counts(shuffle(case), case.cards(), seeds, decks)
    seconds = time.process_time() - start
    return CaseResult(case, decks, counts, chi_square_uniform(counts), seconds)


def _line(name: str, result: CaseResult) -> str:
    test = result.statistic
    verdict = "pass" if test.passed else "FAIL"
    return (
        f"  {name:<24} chi2 {test.statistic:10.1f}  dof {test.dof:5d}  "
        f"p {test.p_value:.4f}  {verdict}  {result.decks / result.seconds:9,.0f} decks/s"
    )


def run_randomness_benchmark(*, decks: int, peer_decks: int, echo: Echo) -> bool:
    """Every deck of :data:`DECKS` through the room's shuffle (and the peer's); True if all pass."""
    echo(f"chi-square over card positions at the 99% level (fails when p < {LEVEL})")
    echo(f"ours: mazziere.fair.deck_order from new_seed() seeds, {decks:,} decks per deck size")
    echo(f"peer: random.Random(seed).shuffle (Mersenne Twister), {peer_decks:,} decks")
    passed = True
    for case in DECKS:
        ours = run_case(case, decks=decks, seeds=os_seeds())
        peer = run_case(case, decks=peer_decks, seeds=os_seeds(), shuffle=mersenne_shuffle)
        echo(case.label)
        echo(_line("ours (SHA-256 stream)", ours))
        echo(_line("peer (Mersenne Twister)", peer))
        ratio = (ours.decks / ours.seconds) / (peer.decks / peer.seconds)
        echo(f"  speed ours/peer: {ratio:.2f}")
        passed = passed and ours.statistic.passed
    echo("all deck sizes pass" if passed else "a deck size FAILS the test")
    return passed
