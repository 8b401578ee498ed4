"""The production shuffle's uniformity, quickly: the benchmark's chi-square on fewer decks.

``python -m benchmarks randomness`` runs the same test on a million decks
per deck size (docs/fairness.md records it); here each deck size gets
10,000 decks from repeatable seeds, enough to catch the classic shuffle
mistakes, as the biased shuffles below show.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import pytest

from benchmarks.__main__ import main
from benchmarks.randomness import (
    DECKS,
    DeckCase,
    Shuffle,
    chi_square_sf,
    chi_square_uniform,
    counter_seeds,
    run_case,
)
from mazziere.cards import Card
from mazziere.fair import FairRandom

DECKS_PER_SIZE = 10_000
BIASED_DECKS = 5_000


@pytest.mark.parametrize("case", DECKS, ids=[case.label for case in DECKS])
def test_the_room_shuffle_puts_every_card_anywhere_equally(case: DeckCase) -> None:
    result = run_case(case, decks=DECKS_PER_SIZE, seeds=counter_seeds(case.label.encode()))
    size = len(case.cards())
    assert result.counts.shape == (size, size)
    assert (result.counts.sum(axis=0) == DECKS_PER_SIZE).all()  # one card at every position
    assert (result.counts.sum(axis=1) == DECKS_PER_SIZE).all()  # every card somewhere
    assert result.statistic.dof == (size - 1) ** 2
    assert result.statistic.passed, result.statistic


def _biased(pick: Callable[[FairRandom, int, int], int]) -> Callable[[DeckCase], Shuffle]:
    """The room's stream of random bits, with a shuffle whose swap partner is ``pick``."""

    def make(case: DeckCase) -> Shuffle:
        cards = case.cards()
        rng = FairRandom(bytes(32))

        def shuffle(seed: bytes) -> Sequence[Card]:
            rng.restart(seed)
            order = list(cards)
            for i in range(len(order) - 1, 0, -1):
                j = pick(rng, i, len(order))
                order[i], order[j] = order[j], order[i]
            return order

        return shuffle

    return make


BIASED = {
    # a byte reduced modulo i + 1: small partners come more often than large ones
    "modulo bias": _biased(lambda rng, i, n: rng.getrandbits(8) % (i + 1)),
    # the partner drawn from the whole deck at every step (n**n ways onto n! orders)
    "partner from the whole deck": _biased(lambda rng, i, n: rng.randrange(n)),
    # the partner drawn from below i only (Sattolo's cycles: no card stays where it was)
    "off by one": _biased(lambda rng, i, n: rng.randrange(i)),
}


@pytest.mark.parametrize("name", BIASED)
def test_the_test_fails_a_biased_shuffle(name: str) -> None:
    holdem = DECKS[0]
    result = run_case(
        holdem, decks=BIASED_DECKS, seeds=counter_seeds(b"biased"), shuffle=BIASED[name]
    )
    assert not result.statistic.passed, result.statistic
    assert result.statistic.p_value < 1e-6


def _closed_form_sf(x: float, dof: int) -> float:
    """The chi-square tail by its finite sums (even dof: Poisson terms; odd: erfc and terms)."""
    z = x / 2
    if dof % 2 == 0:
        terms = [math.exp(-z + k * math.log(z) - math.lgamma(k + 1)) for k in range(dof // 2)]
        return math.fsum(terms)
    half = [
        math.exp(-z + (k - 0.5) * math.log(z) - math.lgamma(k + 0.5))
        for k in range(1, dof // 2 + 1)
    ]
    return math.erfc(math.sqrt(z)) + math.fsum(half)


@pytest.mark.parametrize("size", [len(case.cards()) for case in DECKS])
def test_the_p_value_is_the_chi_square_tail(size: int) -> None:
    dof = (size - 1) ** 2
    for x in [1.0, dof * 0.5, dof * 0.9, dof, dof * 1.1, dof + 3 * math.sqrt(2 * dof), dof * 1.5]:
        exact = _closed_form_sf(x, dof)
        assert math.isclose(chi_square_sf(x, dof), exact, rel_tol=1e-9, abs_tol=1e-300)
    assert chi_square_sf(0.0, dof) == 1.0


def test_a_lopsided_table_is_rejected() -> None:
    fair = chi_square_uniform(np.full((4, 4), 100, dtype=np.int64))
    assert fair.statistic == 0.0 and fair.passed
    lopsided = np.full((4, 4), 100, dtype=np.int64)
    lopsided[0, 0] += 60
    lopsided[0, 1] -= 60
    assert not chi_square_uniform(lopsided).passed


def test_the_command_checks_its_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["randomness", "--decks", "10"]) == 2
    assert capsys.readouterr().err.startswith("python -m benchmarks: error:")
