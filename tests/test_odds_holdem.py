"""Hold'em equity (mazziere.odds) against eval7 and pokerkit, and its own properties.

Exact results are compared with exact enumerations made with the peers'
evaluators (and with eval7's own exact river equity); Monte Carlo results
must fall within three standard errors of the exact figure.
"""

from __future__ import annotations

import itertools
import math
import random
import warnings

import pokerkit
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazziere.cards import DuplicateCardError, format_cards
from mazziere.odds import EquityError, RangeError, holdem_equity, parse_range
from mazziere.odds.combinatorics import combinations

with warnings.catch_warnings():  # eval7 0.1.11 calls pyparsing names deprecated since
    warnings.simplefilter("ignore")
    import eval7


def eval7_range(notation: str) -> eval7.HandRange:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return eval7.HandRange(notation)


RANKS = "23456789TJQKA"
SUITS = "scdh"  # our card int order: rank * 4 + suit


def text(card: int) -> str:
    return RANKS[card >> 2] + SUITS[card & 3]


def reference_equity(players, board, dead, evaluate):
    """Exact (equity, win, tie) per player by brute force with a peer's evaluator.

    ``players`` are lists of (combo, weight); every choice of holdings that
    shares no card is weighted by the product of its weights, and every
    completion of the board counts once.
    """
    n = len(players)
    totals = [[0.0, 0.0, 0.0] for _ in range(n)]
    weight_sum = 0.0
    for choice in itertools.product(*players):
        cards = [c for combo, _ in choice for c in combo]
        if len(set(cards)) != len(cards):
            continue
        weight = math.prod(w for _, w in choice)
        used = set(cards) | set(board) | set(dead)
        live = [c for c in range(52) if c not in used]
        for extra in itertools.combinations(live, 5 - len(board)):
            full = list(board) + list(extra)
            values = [evaluate(combo, full) for combo, _ in choice]
            best = max(values)
            winners = [i for i, v in enumerate(values) if v == best]
            for i in winners:
                totals[i][0] += weight / len(winners)
                totals[i][1 if len(winners) == 1 else 2] += weight
            weight_sum += weight
    return [[t / weight_sum for t in row] for row in totals]


def eval7_value(combo, board):
    return eval7.evaluate([eval7.Card(text(c)) for c in (*combo, *board)])


def pokerkit_value(combo, board):
    return pokerkit.StandardHighHand.from_game(
        "".join(text(c) for c in combo), "".join(text(c) for c in board)
    )


def random_case(rng: random.Random, *, board_size: int, range_sizes: list[int], dead: int):
    """Players as (combo, weight) lists (one combo: a known hand), board and dead cards."""
    deck = list(range(52))
    rng.shuffle(deck)
    board, deck = deck[:board_size], deck[board_size:]
    dead_cards, deck = deck[:dead], deck[dead:]
    players = []
    for size in range_sizes:
        if size == 1:
            combo, deck = tuple(sorted(deck[:2], reverse=True)), deck[2:]
            players.append([(combo, 1.0)])
        else:
            pool = deck[:12]  # ranges drawn from shared cards, so that holdings collide
            combos = rng.sample(list(itertools.combinations(sorted(pool, reverse=True), 2)), size)
            players.append([(c, rng.choice([1.0, 0.5, 0.25])) for c in combos])
    return players, board, dead_cards


def as_argument(player):
    if len(player) == 1:
        return "".join(text(c) for c in player[0][0])
    return ", ".join(f"{''.join(text(c) for c in combo)}:{w}" for combo, w in player)


def check_exact(players, board, dead, evaluate):
    result = holdem_equity(
        [as_argument(p) for p in players],
        board=format_cards(board),
        dead=format_cards(dead),
        method="exact",
    )
    expected = reference_equity(players, board, dead, evaluate)
    for ours, (equity, win, tie) in zip(result.players, expected, strict=True):
        assert ours.equity == pytest.approx(equity, abs=1e-12)
        assert ours.win == pytest.approx(win, abs=1e-12)
        assert ours.tie == pytest.approx(tie, abs=1e-12)
    assert sum(p.equity for p in result.players) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("seed", range(24))
def test_exact_equity_equals_a_brute_force_with_eval7(seed: int) -> None:
    rng = random.Random(seed)
    board_size = [3, 4, 5][seed % 3]
    sizes = [[1, 1], [1, 3], [2, 3], [1, 1, 1], [1, 2, 1]][seed % 5]
    if board_size == 3 and len(sizes) == 3 and max(sizes) > 1:
        sizes = [1, 1, 1]
    players, board, dead = random_case(rng, board_size=board_size, range_sizes=sizes, dead=seed % 3)
    check_exact(players, board, dead, eval7_value)


@pytest.mark.parametrize("seed", range(6))
def test_exact_equity_equals_a_brute_force_with_pokerkit(seed: int) -> None:
    rng = random.Random(1000 + seed)
    sizes = [[1, 1], [1, 2], [1, 1, 1]][seed % 3]
    players, board, dead = random_case(rng, board_size=4 + seed % 2, range_sizes=sizes, dead=1)
    check_exact(players, board, dead, pokerkit_value)


@pytest.mark.parametrize("seed", range(10))
def test_river_equity_equals_eval7s_exact_hand_against_range(seed: int) -> None:
    rng = random.Random(2000 + seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hero, board = deck[:2], deck[2:7]
    villain = "QQ+, AKs, KTo+, 76s, A5s-A2s, JJ-99" if seed % 2 else "any"
    ours = holdem_equity(["".join(text(c) for c in hero), villain], board=format_cards(board))
    every = [((eval7.Card(text(a)), eval7.Card(text(b))), 1.0) for a, b in combinations(52, 2)]
    theirs = eval7.py_hand_vs_range_exact(
        [eval7.Card(text(c)) for c in hero],
        every if villain == "any" else eval7_range(villain),
        [eval7.Card(text(c)) for c in board],
    )
    assert ours.method == "exact"
    assert ours.players[0].equity == pytest.approx(theirs, abs=2e-7)  # eval7 answers a float32


def test_two_known_hands_preflop_are_enumerated_exactly() -> None:
    result = holdem_equity(["AhKh", "QsQd"])
    assert (result.method, result.boards) == ("exact", 1_712_304)
    hero, villain = result.players
    # The published figures for this classic race: 46.2% against 53.8%, ties 0.39%.
    assert (round(hero.equity, 4), round(villain.equity, 4)) == (0.4621, 0.5379)
    assert hero.tie == villain.tie == pytest.approx(6732 / 1_712_304)


@pytest.mark.parametrize("seed", range(4))
def test_monte_carlo_is_within_three_standard_errors_of_the_exact_answer(seed: int) -> None:
    rng = random.Random(3000 + seed)
    sizes = [[1, 1], [1, 4], [1, 1, 1], [3, 4]][seed]
    players, board, dead = random_case(rng, board_size=3, range_sizes=sizes, dead=1)
    arguments = [as_argument(p) for p in players]
    exact = holdem_equity(arguments, board=format_cards(board), dead=format_cards(dead))
    assert exact.method == "exact"
    mc = holdem_equity(
        arguments,
        board=format_cards(board),
        dead=format_cards(dead),
        method="monte-carlo",
        trials=40_000,
        rng=seed,
    )
    assert mc.method == "monte-carlo" and mc.boards == 40_000
    for ours, truth in zip(mc.players, exact.players, strict=True):
        assert 0 < ours.stderr < 0.01
        assert abs(ours.equity - truth.equity) <= 3 * ours.stderr


def test_preflop_ranges_by_monte_carlo_agree_with_eval7s_monte_carlo() -> None:
    villain = "QQ+, AKs, KTo+, 76s"
    ours = holdem_equity(["Ah7h", villain], trials=100_000, rng=5)
    assert ours.method == "monte-carlo"
    iterations = 100_000
    theirs = eval7.py_hand_vs_range_monte_carlo(
        [eval7.Card("Ah"), eval7.Card("7h")], eval7_range(villain), [], iterations
    )
    # eval7 walks the range's holdings in turn: its error is at most a random one's.
    spread = math.sqrt(ours.players[0].stderr ** 2 + 0.25 / iterations)
    assert abs(ours.players[0].equity - theirs) <= 3 * spread


def test_monte_carlo_agrees_with_pokerkits_calculate_equities() -> None:
    hands = ["AhKh", "QsQd", "7c7d"]
    board = "2c 9s 3h 4d"
    exact = holdem_equity(hands, board=board)
    samples = 1000
    # pokerkit samples with the global random module: seed it, so the check is repeatable
    # (unseeded, a 3-standard-error band fails about one run in a hundred by chance alone).
    random.seed(2026)
    theirs = pokerkit.calculate_equities(
        tuple(pokerkit.parse_range(h) for h in hands),
        pokerkit.Card.parse(board.replace(" ", "")),
        2,
        5,
        pokerkit.Deck.STANDARD,
        (pokerkit.StandardHighHand,),
        sample_count=samples,
    )
    for ours, equity in zip(exact.players, theirs, strict=True):
        stderr = math.sqrt(max(ours.equity * (1 - ours.equity), 1e-4) / samples)
        assert abs(ours.equity - equity) <= 3 * stderr


RANGES = ["QQ+", "AKs", "KTo+", "76s", "A5s-A2s", "JJ-99", "AK", "T9o-T6o", "22+", "0.5(AK), KK"]


@pytest.mark.parametrize("notation", RANGES)
def test_ranges_hold_the_holdings_eval7_reads(notation: str) -> None:
    ours = parse_range(notation)
    theirs = eval7_range(notation)
    assert len(ours) == len(theirs)
    mine = {
        frozenset(map(text, combo)): w
        for combo, w in zip(ours.combos.tolist(), ours.weights, strict=True)
    }
    their = {frozenset(map(str, hand)): w for hand, w in theirs.hands}
    assert mine == pytest.approx(their)


def test_range_notation_weights_and_errors() -> None:
    assert parse_range("AA:0.5, KK").total_weight == 9.0
    assert parse_range("40%(AKs, QQ)").total_weight == pytest.approx(4.0)
    assert parse_range("AKs, AKs:0.5").total_weight == 2.0  # the last weight counts
    assert len(parse_range("A♥K♥, Ah Kd")) == 2
    with pytest.raises(RangeError, match="between 0 and 1"):
        parse_range("AA:1.5")
    with pytest.raises(RangeError, match="cannot read 'KKs'"):
        parse_range("KKs")
    with pytest.raises(RangeError, match="cannot read"):
        parse_range("AK-QJ")
    with pytest.raises(RangeError, match="holds no hand"):
        parse_range("AA:0")


def test_known_cards_narrow_the_ranges_and_bad_deals_are_refused() -> None:
    result = holdem_equity(["AhAd", "AA", "KK"], board="Ks 7d 2c")
    # AA has one holding left (AsAc): it plays as a known hand; KK has three.
    assert result.method == "exact" and result.boards == 3 * math.comb(43, 2)
    with pytest.raises(DuplicateCardError):
        holdem_equity(["AhKh", "AhQd"])
    with pytest.raises(RangeError, match="no hand of range 'AA'"):
        holdem_equity(["AhAd", "AA"], board="As Ac 2d")
    with pytest.raises(EquityError, match="at least two"):
        holdem_equity(["AhKh"])
    with pytest.raises(EquityError, match="at most 5"):
        holdem_equity(["AhKh", "QQ"], board="2c 3c 4c 5c 6c 7c")
    with pytest.raises(EquityError, match="needs a clock"):
        holdem_equity(["AhKh", "any"], method="monte-carlo", seconds=0.1)


def test_a_time_budget_stops_monte_carlo_on_the_callers_clock() -> None:
    ticks = iter(range(1000))
    result = holdem_equity(
        ["AhKh", "any"], method="monte-carlo", trials=10**9, seconds=2.5, clock=lambda: next(ticks)
    )
    # The clock moves one second per reading: the start, then once per batch.
    assert result.method == "monte-carlo" and 0 < result.boards <= 3 * 65_536


@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(2, 4), st.sampled_from([3, 4, 5]))
def test_equities_sum_to_one_and_swapping_players_swaps_them(
    rng: random.Random, players: int, board_size: int
) -> None:
    cards = rng.sample(range(52), 2 * players + board_size)
    hands = ["".join(text(c) for c in cards[2 * i : 2 * i + 2]) for i in range(players)]
    board = format_cards(cards[2 * players :])
    result = holdem_equity(hands, board=board)
    assert sum(p.equity for p in result.players) == pytest.approx(1.0)
    for p in result.players:
        assert p.win <= p.equity <= p.win + p.tie + 1e-12
    swapped = holdem_equity(hands[::-1], board=board)
    assert [p.equity for p in swapped.players] == pytest.approx(
        [p.equity for p in result.players][::-1]
    )


def test_the_combinations_table_is_itertools_order() -> None:
    for n, k in [(10, 0), (10, 1), (9, 4), (20, 5)]:
        expected = list(itertools.combinations(range(n), k))
        assert [tuple(r) for r in combinations(n, k).tolist()] == expected


def test_random_boards_deal_every_card_equally_and_never_twice() -> None:
    import numpy as np

    from mazziere.odds.holdem import _random_rows

    rng = np.random.default_rng(11)
    # 256 is not a multiple of 7: a plain byte modulo 7 would favour four of the
    # cards by 1.6%, which these counts (about 86,000 each) show at five sigmas.
    drawn = np.hstack([_random_rows(rng, 7, 3, 1 << 16) for _ in range(6)])
    assert drawn.shape[0] == 3 and drawn.shape[1] > 200_000
    assert (np.sort(drawn, axis=0)[1:] != np.sort(drawn, axis=0)[:-1]).all()
    counts = np.bincount(drawn.ravel(), minlength=7)
    expected = drawn.size / 7
    assert (np.abs(counts - expected) < 4 * math.sqrt(expected)).all(), counts
    subsets = np.bincount(np.sort(drawn, axis=0).T @ np.array([49, 7, 1]), minlength=343)
    present = subsets[subsets > 0]
    assert len(present) == 35  # every 3-subset of 7 cards
    mean = drawn.shape[1] / 35
    assert (np.abs(present - mean) < 5 * math.sqrt(mean)).all()
    assert _random_rows(rng, 7, 0, 5).shape == (0, 5)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(1, 4), st.integers(3, 5))
def test_batch_showdowns_are_the_one_hand_strengths(
    seed: int, players: int, board_size: int
) -> None:
    import numpy as np

    # A seeded generator, not Hypothesis's own: its randoms draw each of the thousands of
    # samples below through the engine's data, which took about 90 s for 30 examples.
    rng = random.Random(seed)

    from mazziere.evaluate import holdem_strength7, holdem_strengths_batch, ranking_for

    # Mostly two suits: many flushes, the path the batch takes apart.
    suited = [c for c in range(52) if c & 3 in (0, 1)]
    deck = rng.sample(suited, 16) + rng.sample([c for c in range(52) if c not in suited], 8)
    holes = np.array([deck[2 * p : 2 * p + 2] for p in range(players)])
    live = np.array(deck[2 * players :])
    boards = np.array([rng.sample(range(len(live)), board_size) for _ in range(300)])
    ranking = ranking_for("holdem")

    def strength(cards: list[int]) -> int:
        return holdem_strength7(cards) if len(cards) == 7 else ranking.strength(cards)

    fixed = holdem_strengths_batch(holes, boards, deck=live)
    expected = [[strength([*h, *live[b]]) for b in boards.tolist()] for h in holes.tolist()]
    assert fixed.tolist() == expected
    # A pair of hole cards per board, and boards as cards (no deck).
    unused = [sorted(set(range(52)) - set(live[b].tolist())) for b in boards]
    per_row = np.array([[rng.sample(free, 2) for free in unused] for _ in holes])
    cards = live[boards]
    assert holdem_strengths_batch(per_row, np.asfortranarray(cards)).tolist() == [
        [strength([*h, *b]) for h, b in zip(row.tolist(), cards.tolist(), strict=True)]
        for row in per_row
    ]


def test_monte_carlo_on_a_complete_board_deals_nothing_more() -> None:
    result = holdem_equity(
        ["AhKh", "QsQd"], board="2h 7h 9h Tc Jd", method="monte-carlo", trials=50
    )
    assert result.method == "monte-carlo" and result.boards == 50
    assert [p.equity for p in result.players] == [1.0, 0.0]  # the ace-high flush
    ranged = holdem_equity(
        ["AhKh", "QQ+"], board="2h 7h 9h Tc Jd", method="monte-carlo", trials=500
    )
    exact = holdem_equity(["AhKh", "QQ+"], board="2h 7h 9h Tc Jd")
    assert (
        abs(ranged.players[0].equity - exact.players[0].equity)
        <= 3 * ranged.players[0].stderr + 1e-9
    )
