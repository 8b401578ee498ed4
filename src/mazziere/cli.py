"""The ``mazziere`` command.

Every command reports bad input as one line on stderr and exits with code 2.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import sys
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple, TypeVar

import typer

from mazziere.cards import format_cards, parse_cards
from mazziere.rules import RULESETS, Game, find_rules

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Sequence
    from pathlib import Path

    from sqlalchemy.ext.asyncio import AsyncSession

    from mazziere.cards import Rank
    from mazziere.evaluate import HandValue
    from mazziere.server.settings import Settings
    from mazziere.server.storage import Database
    from mazziere.tui.connect import RoomTournament
    from mazziere.tui.remote import RemoteSession
    from mazziere.tui.remote_app import RemotePlayApp

T = TypeVar("T")

# Start-up: `mazziere --help` should not wait for what only some commands use,
# so each command imports the evaluator, the engine, numpy, Rich or Textual
# itself, and the help is Click's plain text (Typer's Rich help pulls in
# Rich's Markdown and syntax highlighting: about a tenth of a second).

app = typer.Typer(
    add_completion=False,
    help="Mazziere: Poker all'italiana and Texas Hold'em.",
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

RulesOption = Annotated[
    str,
    typer.Option(
        "--rules",
        "-r",
        help=f"Rule set: {', '.join(sorted(RULESETS))}.",
    ),
]


class UsageProblem(typer.BadParameter):
    """A bad argument, reported as one line: "Invalid value for '--seed': ..." when it names
    its option, else the sentence alone (a database that cannot be reached is no value)."""

    def format_message(self) -> str:
        if self.param is None and self.param_hint is None:
            return self.message
        return super().format_message()


def _whole_seed(seed: int | None) -> int | None:
    # random.Random seeds -1 as it seeds 1: a negative seed would repeat another seed's game.
    if seed is not None and seed < 0:
        raise UsageProblem(f"a seed is a whole number from 0, not {seed}")
    return seed


def seed_option(help: str) -> Any:
    """A command's ``--seed`` option: a whole number from 0."""
    return typer.Option(help=help, callback=_whole_seed)


def _order_groups(values: list[HandValue]) -> list[list[int]]:
    """Groups of indices, best first, peeling off each pot's winners in turn.

    Peeling (rather than sorting) keeps italian-classic's straight-flush
    cycle honest: each group is what would win among the hands left.
    """
    from mazziere.evaluate import best_hands

    left = list(range(len(values)))
    groups: list[list[int]] = []
    while left:
        best = best_hands([values[i] for i in left])
        group = [left[i] for i in best]
        groups.append(group)
        left = [i for i in left if i not in group]
    return groups


@app.command()
def compare(
    hands: Annotated[list[str], typer.Argument(help="Hands, each quoted: 'Ah Kh Qh Jh Th'.")],
    rules: RulesOption = "holdem",
    players: Annotated[
        int | None,
        typer.Option(help="Players dealt in (sets the italian-classic deck; default: the hands)."),
    ] = None,
    board: Annotated[str | None, typer.Option(help="Hold'em board cards.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Rank hands, best first; tied hands share a place."""
    from mazziere.evaluate import evaluate

    rule_set = find_rules(rules)
    if board is not None and rule_set.game != Game.HOLDEM:
        raise UsageProblem(f"{rule_set.name} has no board")
    deck_players = players
    if deck_players is None and rule_set.deck_depends_on_players:
        deck_players = len(hands)
    if deck_players is not None:
        rule_set.check_players(deck_players)
    parsed = [parse_cards(hand) for hand in hands]
    board_cards = parse_cards(board) if board is not None else []
    parse_cards([c for hand in parsed for c in hand] + board_cards)  # no card twice
    values = [
        evaluate(hand, rules=rule_set, players=deck_players, board=board_cards or None)
        for hand in parsed
    ]
    groups = _order_groups(values)
    if as_json:
        payload = {
            "rules": rule_set.name,
            "players": deck_players,
            "order": groups,
            "hands": [
                {
                    "cards": format_cards(hand),
                    "category": value.category.value,
                    "name_it": value.name_it,
                    "best": format_cards(value.cards),
                }
                for hand, value in zip(parsed, values, strict=True)
            ],
        }
        typer.echo(json.dumps(payload, ensure_ascii=False))
        return
    deck = rule_set.deck(deck_players)
    header = f"{rule_set.title}: {len(deck)}-card deck"
    if board_cards:
        header += f", board {format_cards(board_cards, pretty=True)}"
    typer.echo(header)
    for place, group in enumerate(groups, start=1):
        tie = "=" if len(group) > 1 else " "
        for i in group:
            value = values[i]
            typer.echo(
                f"{place:>2}{tie} #{i} {format_cards(parsed[i], pretty=True):<18} "
                f"{value.name_en} ({value.name_it}): {value.describe('it')}; "
                f"best {format_cards(value.cards, pretty=True)}"
            )


@app.command()
def demo(
    seed: Annotated[int | None, seed_option("Seed for a repeatable deal.")] = None,
) -> None:
    """Deal one hand of each rule set and rank it: a first look at the three games."""
    import random
    import secrets

    from mazziere.evaluate import best_hands, evaluate

    rng: random.Random = random.Random(seed) if seed is not None else secrets.SystemRandom()
    for name, players in (("italian-classic", 4), ("italian-32", 4), ("holdem", 6)):
        rule_set = find_rules(name)
        deck = rule_set.deck(players).shuffled(rng)
        typer.echo(f"\n== {rule_set.title}, {players} players, {len(deck)} cards ==")
        board = deck[: rule_set.board_cards]
        rest = deck[rule_set.board_cards :]
        hands = [
            rest[i * rule_set.hole_cards : (i + 1) * rule_set.hole_cards] for i in range(players)
        ]
        if board:
            typer.echo(f"board: {format_cards(board, pretty=True)}")
        values = [evaluate(h, rules=rule_set, players=players, board=board or None) for h in hands]
        win = best_hands(values)
        for i, (hand, value) in enumerate(zip(hands, values, strict=True)):
            mark = "  <- wins" if i in win else ""
            shown = format_cards(hand, pretty=True)
            typer.echo(f"  seat {i + 1}: {shown:<18} {value.describe('it')}{mark}")


# --- hand engine: `mazziere replay` --------------------------------------------------


class ReplayedHand(NamedTuple):
    """One hand of a ``mazziere replay`` run: where it came from and how it ended."""

    file: str
    number: int | None
    players: list[str]
    whole_chips: bool
    """The hand counts chips in whole numbers: its amounts are shown as integers."""
    outcome: Any

    @classmethod
    def failed(cls, file: str, error: str) -> ReplayedHand:
        """A file (or folder) none of whose hands could be read, counted as one failed hand."""
        from mazziere.history.replay import Outcome

        return cls(file, None, [], False, Outcome(error=error))

    @property
    def label(self) -> str:
        return f"{self.file} [{self.number}]" if self.number is not None else self.file

    def amount(self, value: Any, *, sign: bool = False) -> str:
        from mazziere.history.phh import format_amount

        text = str(int(value)) if self.whole_chips else format_amount(value)
        return ("+" + text) if sign and value > 0 else text

    def to_dict(self) -> dict[str, Any]:
        outcome = self.outcome
        entry: dict[str, Any] = {"file": self.file, "hand": self.number, "players": self.players}
        if outcome.error is not None:
            entry.update(finishing_stacks=None, payoffs=None, error=outcome.error)
        else:
            entry.update(
                finishing_stacks=[self.amount(v) for v in outcome.finishing_stacks],
                payoffs=[self.amount(v) for v in outcome.payoffs],
                error=None,
            )
        return entry

    def line(self) -> str:
        outcome = self.outcome
        if outcome.error is not None:
            return f"{self.label} error: {outcome.error}"
        names = self.players or [f"p{i}" for i in range(1, len(outcome.payoffs) + 1)]
        seats = [
            f"{name} {self.amount(stack)} ({self.amount(payoff, sign=True)})"
            for name, stack, payoff in zip(
                names, outcome.finishing_stacks, outcome.payoffs, strict=False
            )
        ]
        return f"{self.label}: " + " · ".join(seats)


_NO_HISTORY = "no .phh or .phhs file"


def _files_named(name: str) -> list[Path]:
    """The hand-history files a path stands for: itself, or the ``.phh`` and ``.phhs``
    files under a folder (none: an empty list)."""
    from pathlib import Path

    if not name:  # Path("") is the current folder: not what an empty argument meant
        raise UsageProblem("an empty path names no file or folder")
    path = Path(name)
    if not path.is_dir():
        return [path]
    return sorted(p for p in path.rglob("*") if p.suffix in (".phh", ".phhs") and p.is_file())


def _history_files(paths: list[str]) -> list[Path]:
    """The ``.phh`` and ``.phhs`` files named, a folder standing for those under it; a folder
    holding none is bad input."""
    files: list[Path] = []
    for name in paths:
        found = _files_named(name)
        if not found:
            raise UsageProblem(f"{_NO_HISTORY} in the folder {name}")
        files.extend(found)
    return files


def _replay_file(path: Path, shown: str) -> list[ReplayedHand]:
    """Every hand of one file, replayed; a file that cannot be read, or holds no hand, is one
    failed hand."""
    from mazziere.history.phh import PHHError, loads_many
    from mazziere.history.replay import Outcome, replay_hand

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return [ReplayedHand.failed(shown, f"cannot read it: {reason}")]
    try:
        sections = loads_many(text)
    except PHHError as exc:
        return [ReplayedHand.failed(shown, str(exc))]
    if not sections:
        return [ReplayedHand.failed(shown, "no hand in it")]
    hands = []
    for section in sections:
        hand = section.hand
        if hand is None:
            hands.append(
                ReplayedHand(shown, section.number, [], False, Outcome(error=section.error))
            )
            continue
        players = hand.get("players")
        names = [str(p) for p in players] if isinstance(players, list) else []
        outcome = replay_hand(hand)
        # A hand whose stacks, blinds and antes are TOML integers (not ``1000.0``) counts
        # whole chips, as the app writes them; its results are shown as integers too.
        amounts = [hand.get(key) for key in ("starting_stacks", "blinds_or_straddles", "antes")]
        whole = all(
            isinstance(values, list) and all(type(v) is int for v in values) for values in amounts
        ) and all(v == int(v) for v in (*outcome.finishing_stacks, *outcome.payoffs))
        number = section.number
        if number is None and type(hand.get("hand")) is int:
            number = hand["hand"]
        hands.append(ReplayedHand(shown, number, names, whole, outcome))
    return hands


@app.command()
def replay(
    paths: Annotated[
        list[str],
        typer.Argument(
            metavar="PATH...",
            help="Hand histories: .phh or .phhs files, or folders holding them "
            "(such as the one `mazziere play` saves).",
        ),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Replay every hand of PHH files: each player's finishing stack and payoff.

    When only some hands fail (a file that cannot be read, or holds no valid
    hand, counts as a failed hand), the others are replayed, the failed ones
    are named on stderr and the exit code is 1.  When no hand at all replays,
    the input is bad: one line on stderr and exit code 2.
    """
    results: list[ReplayedHand] = []
    for name in paths:
        files = _files_named(name)
        if not files:
            results.append(ReplayedHand.failed(name, f"{_NO_HISTORY} in this folder"))
        for path in files:
            results.extend(_replay_file(path, str(path)))
    failed = [r for r in results if r.outcome.error is not None]
    if len(failed) == len(results):
        first = failed[0]
        more = f" (and {len(failed) - 1} more)" if len(failed) > 1 else ""
        raise UsageProblem(f"no hand replayed: {first.label}: {first.outcome.error}{more}")
    if as_json:
        typer.echo(json.dumps({"hands": [r.to_dict() for r in results]}, ensure_ascii=False))
    else:
        for result in results:
            typer.echo(result.line())
        replayed = len(results) - len(failed)
        typer.echo(
            f"{counted(len(results), 'hand')}: {replayed} replayed, {len(failed)} with errors"
        )
    if failed:
        names = ", ".join(r.label for r in failed)
        print(
            f"mazziere: error: {len(failed)} of {len(results)} hands did not replay: {names}",
            file=sys.stderr,
        )
        raise typer.Exit(1)


# --- end of the hand-engine commands -------------------------------------------------


# --- odds: `mazziere odds` -----------------------------------------------------------


def _opening_rank(text: str) -> Rank:
    """A rank written as on a card: J, Q, K, A, 10 or T..."""
    from mazziere.cards import Rank

    for rank in Rank:
        if text.upper() in (rank.symbol, str(int(rank)), rank.name_it.upper()):
            return rank
    raise UsageProblem(f"--opener needs a rank such as J, Q or K, not {text!r}")


def _pretty_holding(text: str) -> str:
    """A hand with suit symbols; a range as written."""
    from mazziere.cards import CardError

    try:
        return format_cards(parse_cards(text), pretty=True)
    except CardError:
        return text


MOST_TRIALS = 100_000_000
"""The most deals ``odds --trials`` samples: a minute or two, and a standard error of
about 0.005% (Monte Carlo deals about a million a second)."""


@app.command()
def odds(
    rules: Annotated[str, typer.Argument(help=f"Rule set: {', '.join(sorted(RULESETS))}.")],
    hands: Annotated[
        list[str],
        typer.Argument(
            help="Hold'em: two or more hands or ranges ('AhKh', 'QQ+, AKs'); Italian: one hand."
        ),
    ],
    *,
    board: Annotated[str, typer.Option(help="Hold'em board cards.")] = "",
    dead: Annotated[str, typer.Option(help="Cards known to be out of play.")] = "",
    players: Annotated[
        int | None, typer.Option(help="Italian: players dealt in (sets the italian-classic deck).")
    ] = None,
    beat: Annotated[
        str | None, typer.Option(help="Italian: rank the draws by the chance to beat this hand.")
    ] = None,
    opener: Annotated[
        str | None,
        typer.Option(help="Italian: rank by the chance to beat a hand that opens at this pair."),
    ] = None,
    opener_drew: Annotated[
        int | None,
        typer.Option(help="Italian, with --opener: the opener changed this many cards."),
    ] = None,
    method: Annotated[str, typer.Option(help="Hold'em: auto, exact or monte-carlo.")] = "auto",
    trials: Annotated[
        int,
        typer.Option(help=f"Hold'em Monte Carlo: deals to sample, at most {MOST_TRIALS:,}."),
    ] = 1_000_000,
    seconds: Annotated[
        float | None, typer.Option(help="Hold'em Monte Carlo: stop after this many seconds.")
    ] = None,
    seed: Annotated[int | None, seed_option("Seed of the Monte Carlo deals.")] = None,
    top: Annotated[int, typer.Option(help="Italian: how many draws the table shows.")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Hold'em equity of hands and ranges, or the odds of every Italian draw, best first."""
    import secrets
    import time

    from rich.console import Console
    from rich.table import Table as RichTable

    from mazziere.odds import draw_odds, holdem_equity
    from mazziere.rules import Category

    rule_set = find_rules(rules)
    out = Console(highlight=False, soft_wrap=True)
    if rule_set.game is Game.HOLDEM:
        if beat is not None or opener is not None or players is not None or opener_drew is not None:
            raise UsageProblem(
                "--beat, --opener, --opener-drew and --players are for the Italian draw"
            )
        if method not in ("auto", "exact", "monte-carlo"):
            raise UsageProblem(f"--method must be auto, exact or monte-carlo, not {method!r}")
        if not 1 <= trials <= MOST_TRIALS:
            raise UsageProblem(f"--trials must be 1 to {MOST_TRIALS}, not {trials}")
        if seconds is not None and not seconds > 0:
            raise UsageProblem(f"--seconds must be positive, not {seconds}")
        result = holdem_equity(
            hands,
            board=board,
            dead=dead,
            method=method,  # type: ignore[arg-type]
            trials=trials,
            seconds=seconds,
            clock=time.perf_counter,
            rng=seed if seed is not None else secrets.randbits(64),
        )
        if as_json:
            typer.echo(json.dumps({"rules": rule_set.name, **result.to_dict()}))
            return
        sampled = result.method == "monte-carlo"
        where = f"board {format_cards(parse_cards(board), pretty=True)}" if board else "preflop"
        how = f"{result.boards:,} boards" + (" sampled" if sampled else ", every one")
        table = RichTable(title=f"Hold'em equity, {where}", caption=f"{result.method}: {how}")
        for column in ("player", "hand", "equity", "win", "tie"):
            table.add_column(column, justify="left" if column == "hand" else "right")
        if sampled:
            table.add_column("± (1 s.e.)", justify="right")
        for i, player in enumerate(result.players, start=1):
            row = [
                f"{i}",
                _pretty_holding(player.hand),
                f"{player.equity:.2%}",
                f"{player.win:.2%}",
                f"{player.tie:.2%}",
            ]
            if sampled:
                row.append(f"{player.stderr:.2%}")
            table.add_row(*row)
        out.print(table)
        return
    if len(hands) != 1:
        raise UsageProblem(f"{rule_set.name}: give one five-card hand, not {len(hands)}")
    if board:
        raise UsageProblem(f"{rule_set.name} has no board")
    if top < 1:
        raise UsageProblem("--top must be at least 1")
    if players is None and rule_set.deck_depends_on_players:
        raise UsageProblem(f"{rule_set.name}: give --players (the deck depends on how many)")
    if opener_drew is not None and (opener is None or not 0 <= opener_drew <= rule_set.draw_max):
        raise UsageProblem(
            "--opener-drew needs --opener and is a number of cards from 0 to "
            f"{rule_set.draw_max} (the most a player may change)"
        )
    result_it = draw_odds(
        hands[0],
        rule_set,
        players=players,
        dead=dead,
        beat=beat,
        opener=_opening_rank(opener) if opener is not None else None,
        opener_drew=opener_drew,
    )
    if as_json:
        typer.echo(json.dumps(result_it.to_dict(), ensure_ascii=False))
        return
    deck = rule_set.deck(players)
    title = f"{rule_set.name}: {format_cards(result_it.hand, pretty=True)}, {len(deck)}-card deck"
    scored = (
        "beat the hand"
        if beat
        else f"beat opener (drew {opener_drew})"
        if opener_drew is not None
        else "beat an opener"
        if opener
        else None
    )
    table = RichTable(
        title=title,
        caption="share: the part of the deck's hands the final hand beats, on average",
    )
    table.add_column("#", justify="right")
    table.add_column("change")
    table.add_column("keep")
    if scored:
        table.add_column(scored, justify="right")
    table.add_column("share", justify="right")
    table.add_column("most likely after the draw")
    for place, option in enumerate(result_it.options[:top], start=1):
        likely = sorted(option.categories.items(), key=lambda item: -item[1])[:3]
        words = ", ".join(f"{Category(name).name_it} {p:.1%}" for name, p in likely if p > 0)
        row = [
            f"{place}",
            option.discard_text or "servito",
            format_cards(option.keep, pretty=True),
        ]
        if scored:
            chance = (
                option.beats_hand
                if beat
                else option.beats_opener_after_draw
                if opener_drew is not None
                else option.beats_opener
            )
            row.append(f"{chance:.1%}")
        row += [f"{option.share:.3f}", words]
        table.add_row(*row)
    out.print(table)


# --- end of the odds command ---------------------------------------------------------


# --- duel: `mazziere duel` -----------------------------------------------------------


@app.command()
def duel(
    *,
    rules: RulesOption = "holdem",
    bots: Annotated[str, typer.Option(help="The two bots, comma-separated.")] = "strong,basic",
    hands: Annotated[
        int,
        typer.Option(
            help="Hands to play: each deal twice, seats swapped, so an even number "
            "from 4 to 10000000."
        ),
    ] = 20_000,
    seed: Annotated[int, seed_option("Seed of the deals and the bots.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Two bots head to head on duplicate deals: win rates per 100 hands with 95% intervals."""
    import random

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
    from rich.table import Table as RichTable

    from mazziere.bots.base import BOTS, make_bot
    from mazziere.duel import check_hands
    from mazziere.duel import duel as play_duel

    rule_set = find_rules(rules)
    names = [b.strip() for b in bots.split(",") if b.strip()]
    make_bot("random", random.Random(0))  # loads the registry
    unknown = [b for b in names if b not in BOTS]
    if unknown:
        raise UsageProblem(f"unknown bot {unknown[0]!r} (known: {', '.join(sorted(BOTS))})")
    if len(names) != 2:
        raise UsageProblem(f"--bots needs two bots, not {len(names)}")
    try:
        check_hands(hands)
    except ValueError as error:
        raise UsageProblem(f"--hands: {error}") from None
    if hands > 10_000_000:
        raise UsageProblem(f"--hands must be at most 10000000, not {hands}")
    if "strong" in names:
        from mazziere.bots.strong import warm_up

        warm_up(rule_set, [2])  # its tables before the first deal (heads up)
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
        disable=as_json,
    ) as progress:
        task = progress.add_task(f"{rule_set.name}: hands", total=hands)
        report = play_duel(
            rule_set,
            names,
            hands=hands,
            seed=seed,
            progress=lambda done: progress.advance(task, done),
        )
    if as_json:
        typer.echo(json.dumps(report.to_dict()))
        return
    table = RichTable(
        title=f"{rule_set.name}: {names[0]} against {names[1]}",
        caption=f"{report.hands:,} hands, {report.deals:,} deals played twice, seats swapped",
    )
    table.add_column("bot")
    table.add_column(f"{report.unit} per 100 hands", justify="right")
    table.add_column("95% interval", justify="right")
    for bot in report.bots:
        low, high = bot.ci95
        table.add_row(bot.name, f"{bot.per_100:+.1f}", f"{low:+.1f} to {high:+.1f}")
    Console(highlight=False, soft_wrap=True).print(table)


# --- end of the duel command ---------------------------------------------------------


# ------------------------------------------------------------------ simulate


@app.command()
def simulate(
    *,
    rules: RulesOption = "italian-classic",
    players: Annotated[int, typer.Option(help="Bots at the table (tournament: entrants).")] = 4,
    hands: Annotated[int, typer.Option(help="Cash hands to deal.")] = 1000,
    tournament: Annotated[
        bool, typer.Option("--tournament", help="Play sit & go tournaments instead.")
    ] = False,
    tournaments: Annotated[int, typer.Option(help="How many tournaments (--tournament).")] = 1,
    bots: Annotated[str, typer.Option(help="Bot kinds, comma-separated, seated in turn.")] = (
        "basic,random"
    ),
    seed: Annotated[int | None, seed_option("Seed for a repeatable run.")] = None,
    churn: Annotated[
        bool, typer.Option(help="Cash: players sit out, leave, join, time out at random.")
    ] = True,
) -> None:
    """Bots play offline: a cash session (or sit & go tournaments), with a summary."""
    import secrets

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
    from rich.table import Table as RichTable

    from mazziere.bots.base import BOTS, make_bot
    from mazziere.simulation import simulate_cash, simulate_tournament

    rule_set = find_rules(rules)
    kinds = [k.strip() for k in bots.split(",") if k.strip()]
    if not kinds:
        raise UsageProblem("--bots needs at least one bot kind")
    make_bot("random", secrets.SystemRandom())  # loads the registry
    unknown = [k for k in kinds if k not in BOTS]
    if unknown:
        raise UsageProblem(f"unknown bot {unknown[0]!r} (known: {', '.join(sorted(BOTS))})")
    if tournament:
        if not 2 <= players <= 1000:
            raise UsageProblem(f"a tournament needs 2 to 1000 players, not {players}")
        if not 1 <= tournaments <= 100_000:
            raise UsageProblem(f"--tournaments must be 1 to 100000, not {tournaments}")
    else:
        rule_set.check_players(players)
        if not 1 <= hands <= 10_000_000:
            raise UsageProblem(f"--hands must be 1 to 10000000, not {hands}")
    if "strong" in kinds:
        from mazziere.bots.strong import warm_up

        # Its tables before the first deal (hands/s then counts the hands only).
        warm_up(rule_set, [] if tournament else range(players, 1, -1))
    console = Console(stderr=True)
    total = tournaments if tournament else hands
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task(
            f"{rule_set.name}: {'tournaments' if tournament else 'hands'}", total=total
        )

        def advance(done: int) -> None:
            progress.advance(task, done)

        if tournament:
            report_t = simulate_tournament(
                rule_set,
                players=players,
                seed=seed,
                count=tournaments,
                bots=kinds,
                progress=advance,
            )
        else:
            report_c = simulate_cash(
                rule_set,
                players=players,
                hands=hands,
                seed=seed,
                bots=kinds,
                churn=churn,
                progress=advance,
            )
    out = Console(highlight=False, soft_wrap=True)
    summary = RichTable(title=f"{rule_set.title}: {'tournaments' if tournament else 'cash game'}")
    summary.add_column("figure")
    summary.add_column("value", justify="right")
    if tournament:
        rows = [
            ("tournaments", f"{report_t.tournaments}"),
            ("hands", f"{report_t.hands}"),
            ("hands/s", f"{report_t.hands_per_second:,.0f}"),
            ("showdowns", f"{report_t.showdowns}"),
            ("ledger sum", f"{report_t.ledger_total}"),
        ]
        rows += [(f"wins by {kind}", f"{n}") for kind, n in sorted(report_t.winners.items())]
    else:
        rows = [
            ("churn", "on" if churn else "off"),
            ("hands", f"{report_c.hands}"),
            ("hands/s", f"{report_c.hands_per_second:,.0f}"),
            ("showdowns", f"{report_c.showdowns}"),
            ("timeouts", f"{report_c.timeouts}"),
            ("rake", f"{report_c.rake}"),
            ("ledger sum", f"{report_c.ledger_total}"),
        ]
    for label, value in rows:
        summary.add_row(label, value)
    if churn and not tournament:
        summary.caption = (
            "churn: bots sit out, time out, leave and others join, so more bots than seats "
            "play and some time out (--no-churn: the same bots all along)"
        )
    out.print(summary)
    players_table = RichTable(title="per bot")
    players_table.add_column("bot")
    players_table.add_column("kind")
    if tournament:
        players_table.add_column("prizes won", justify="right")
        players_table.add_column("last place", justify="right")
        for name, kind in report_t.bots.items():
            players_table.add_row(
                name,
                kind,
                f"{report_t.prizes.get(name, 0)}",
                f"{report_t.places.get(name, '-')}",
            )
    else:
        players_table.add_column("chips won", justify="right")
        for name, kind in report_c.bots.items():
            players_table.add_row(name, kind, f"{report_c.won.get(name, 0):+d}")
    out.print(players_table)


# --- hand histories: `mazziere export` ------------------------------------------------


def _read_text(path: str) -> str:
    from pathlib import Path

    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise UsageProblem(f"cannot read {path}: {reason}") from None


_BUY_IN = re.compile(
    r"(?P<c1>[^\d\s.+]?)(?P<buy_in>\d+(?:\.\d+)?)\+(?P<c2>[^\d\s.+]?)(?P<fee>\d+(?:\.\d+)?)"
)


def _buy_in(text: str | None) -> str:
    """``--buy-in``: ``10+1``, ``$10+$1`` or ``freeroll``, as PokerStars writes it."""
    from decimal import Decimal

    from mazziere.history.export import buy_in_text

    if text is None or text.strip().lower() == "freeroll":
        return buy_in_text(0, 0)
    found = _BUY_IN.fullmatch(text.strip())
    if found is None or found["c2"] not in ("", found["c1"]):
        raise UsageProblem(f"--buy-in is BUY-IN+FEE (10+1, $10+$1, freeroll), not {text!r}")
    buy_in, fee = Decimal(found["buy_in"]), Decimal(found["fee"])
    if not found["c1"]:
        return buy_in_text(buy_in.normalize(), fee.normalize())
    return buy_in_text(buy_in, fee, found["c1"])


@app.command()
def export(
    path: Annotated[str, typer.Argument(metavar="FILE", help="A .phh or .phhs hand history.")],
    *,
    format: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            help="pokerstars (Hold'em, the text trackers import) or text (Poker all'italiana, "
            "docs/text-export.md).",
        ),
    ] = "pokerstars",
    hero: Annotated[
        str | None,
        typer.Option(help="Whose hole cards to write: a player's name or a position from 1."),
    ] = None,
    tournament: Annotated[
        int | None,
        typer.Option(
            help="The hands are this tournament's (its number, from 1): a tournament header."
        ),
    ] = None,
    buy_in: Annotated[
        str | None,
        typer.Option("--buy-in", help="The tournament's buy-in and fee: 10+1, $10+$1, freeroll."),
    ] = None,
    levels: Annotated[
        str | None,
        typer.Option(
            help="The tournament's levels, SMALL/BIG[/ANTE] from level 1, comma-separated "
            "(default: each new stakes in the file is the next level).",
        ),
    ] = None,
) -> None:
    """Write every hand of a PHH file as a text hand history (PokerStars' for Hold'em).

    Hands that cannot be exported are named on stderr and the exit code is 1;
    a file with none that can is bad input (exit code 2).
    """
    from mazziere.history.export import TournamentInfo, export_text, levels_seen, parse_levels
    from mazziere.history.phh import PHHError, loads_many
    from mazziere.history.replay import ReplayError

    if format not in ("pokerstars", "text"):
        raise UsageProblem(f"--format must be pokerstars or text, not {format!r}")
    if tournament is None and (buy_in is not None or levels is not None):
        raise UsageProblem("--buy-in and --levels need --tournament (the tournament's number)")
    written = _buy_in(buy_in)
    structure = parse_levels(levels) if levels is not None else None
    sections = loads_many(_read_text(path))
    info = None
    if tournament is not None:
        if structure is None:
            structure = levels_seen(s.hand for s in sections if s.hand is not None)
        info = TournamentInfo(id=tournament, buy_in=written, levels=structure)
    texts: list[str] = []
    problems: list[str] = []
    for index, section in enumerate(sections, start=1):
        label = f"[{section.number}]" if section.number is not None else f"#{index}"
        try:
            if section.hand is None:
                raise PHHError(section.error or "unreadable")
            number = section.number or index  # trackers tell hands apart by their number
            texts.append(
                export_text(section.hand, hero=hero, number=number, tournament=info, format=format)
            )
        except (PHHError, ReplayError) as exc:
            problems.append(f"{label}: {exc}")
    if not texts:
        first = problems[0] if problems else "no hand"
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise UsageProblem(f"{path} holds no hand to export: {first}{more}")
    typer.echo("\n\n".join(texts), nl=False)
    for problem in problems:
        print(f"mazziere: error: hand {problem}", file=sys.stderr)
    if problems:
        raise typer.Exit(1)


@app.command("import")
def import_histories(
    path: Annotated[str, typer.Argument(metavar="FILE", help="Another room's hand histories.")],
    source: Annotated[
        str,
        typer.Option(
            "--from",
            help="pokerstars, fulltilt, ipoker, ongame, partypoker, absolute, or auto.",
        ),
    ] = "auto",
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="Write the PHH here (default: stdout).")
    ] = None,
) -> None:
    """Convert other rooms' hand histories to PHH (.phhs), through pokerkit's parsers.

    Needs pokerkit (pip install pokerkit==0.7.7).  Every hand read is replayed
    in our engine to the stacks the source gives; the hands that cannot be
    read or replayed are named on stderr with the reason, and the exit code
    is 1; none imported is bad input (exit code 2).
    """
    from pathlib import Path

    from mazziere.history.phh import dumps_many
    from mazziere.importing import PokerkitMissingError
    from mazziere.importing import import_histories as convert

    text = _read_text(path)
    try:
        report = convert(text, source)
    except PokerkitMissingError as exc:
        raise UsageProblem(str(exc)) from None
    hands = report.imported
    for failed in report.failed:
        print(
            f"mazziere: error: hand {failed.number} ({failed.title}): {failed.error}",
            file=sys.stderr,
        )
    if not hands:
        raise UsageProblem(f"no hand of {path} could be imported ({len(report.hands)} read)")
    phhs = dumps_many(hands, numbers=[h.number for h in report.hands if h.hand is not None])
    if output is None:
        typer.echo(phhs, nl=False)
    else:
        try:
            Path(output).write_text(phhs, encoding="utf-8")
        except OSError as exc:
            raise UsageProblem(f"cannot write {output}: {exc.strerror or exc}") from None
    print(
        f"{counted(len(report.hands), report.source + ' hand')}: {len(hands)} imported, "
        f"{len(report.failed)} not",
        file=sys.stderr,
    )
    if report.failed:
        raise typer.Exit(1)


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _players_table(title: str, figures: list[str], rows: dict[str, list[str]]) -> Any:
    """A Rich table of a row of ``figures`` per player (by name); a long name wraps, never
    cut, when the table must narrow to fit the terminal."""
    from rich.table import Table as RichTable

    table = RichTable(title=title)
    table.add_column("player", overflow="fold")
    for figure in figures:
        table.add_column(figure, justify="right")
    for name, row in rows.items():
        table.add_row(name, *row)
    return table


@app.command()
def stats(
    paths: Annotated[
        list[str],
        typer.Argument(metavar="PATH...", help="PHH files (.phh, .phhs) or folders holding them."),
    ],
    player: Annotated[
        str | None, typer.Option("--player", help="Only this player (by name).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Player statistics: VPIP, PFR, 3-bet, AF, WTSD, W$SD, net/100; Italian: opens, parol...

    The definitions are in docs/stats.md.  Hands that cannot be replayed are
    named on stderr and the exit code is 1; none to count is bad input (2).
    """
    from rich.console import Console

    from mazziere.history.phh import PHHError, loads_many
    from mazziere.history.replay import ReplayError
    from mazziere.history.stats import StatsBook

    files = _history_files(paths)
    book = StatsBook()
    hands_read = 0
    problems: list[str] = []
    for file in files:
        try:
            sections = loads_many(_read_text(str(file)))
        except PHHError as exc:
            problems.append(f"{file}: {exc}")
            continue
        for index, section in enumerate(sections, start=1):
            label = f"{file} [{section.number if section.number is not None else index}]"
            if section.hand is None:
                problems.append(f"{label}: {section.error}")
                continue
            try:
                book.add_phh(section.hand)
            except (PHHError, ReplayError) as exc:
                problems.append(f"{label}: {exc}")
                continue
            hands_read += 1
    players = sorted(book.players.values(), key=lambda p: p.name)
    if player is not None:
        players = [p for p in players if p.name == player]
        if not players:
            raise UsageProblem(f"no hand of {player!r} in {', '.join(paths)}")
    if not hands_read:
        raise UsageProblem(f"no hand to count: {problems[0] if problems else 'no hand'}")
    if as_json:
        payload = {"hands": hands_read, "players": [p.to_dict() for p in players]}
        typer.echo(json.dumps(payload, ensure_ascii=False))
    else:
        # Two tables, each fitting an 80-column terminal (the console's width): every
        # game's figures, then Poker all'italiana's own.
        out = Console(highlight=False, soft_wrap=True)
        out.print(
            _players_table(
                f"{counted(hands_read, 'hand')} read from {counted(len(files), 'file')}",
                ["hands", "VPIP", "PFR", "3-bet", "AF", "WTSD", "W$SD", "net/100"],
                {
                    p.name: [
                        str(p.hands),
                        _percent(p.vpip),
                        _percent(p.pfr),
                        _percent(p.three_bet),
                        "-" if p.aggression_factor is None else f"{p.aggression_factor:.2f}",
                        _percent(p.went_to_showdown),
                        _percent(p.won_at_showdown),
                        "-" if p.net_per_100 is None else f"{p.net_per_100:+.2f}",
                    ]
                    for p in players
                },
            )
        )
        if any(p.italian_hands for p in players):
            out.print(
                _players_table(
                    "Poker all'italiana",
                    ["opens", "blind opens", "cards/draw", "parol", "parol-pot net"],
                    {
                        p.name: [
                            _percent(p.open_rate),
                            _percent(p.blind_open_rate),
                            "-" if p.cards_per_draw is None else f"{p.cards_per_draw:.2f}",
                            _percent(p.parol_rate),
                            f"{p.parol_pot_net:+}" if p.parol_pot_hands else "-",
                        ]
                        for p in players
                    },
                )
            )
    for problem in problems:
        print(f"mazziere: error: hand {problem}", file=sys.stderr)
    if problems:
        raise typer.Exit(1)


# --- end of the hand-history commands -------------------------------------------------


# --- terminal client: `mazziere play` ----------------------------------------------


@app.command()
def play(
    *,
    rules: RulesOption = "italian-classic",
    players: Annotated[int, typer.Option(help="Players at the table, you included.")] = 4,
    bots: Annotated[str, typer.Option(help="The bots: strong, basic or random.")] = "basic",
    stack: Annotated[
        int | None, typer.Option(help="Starting chips (default: 1000; a sit & go: 1500).")
    ] = None,
    tournament: Annotated[
        bool,
        typer.Option(
            "--tournament",
            help="Play a sit & go instead of a cash table (with --connect: register for one "
            "of the room's, of --rules).",
        ),
    ] = False,
    tournament_id: Annotated[
        str | None,
        typer.Option(
            help="--connect: register for (or go back to) the room's tournament of this number."
        ),
    ] = None,
    lang: Annotated[str, typer.Option(help="Language: it or en.")] = "it",
    seed: Annotated[int | None, seed_option("Seed for a repeatable game.")] = None,
    four_colour: Annotated[
        bool,
        typer.Option(
            "--four-colour", "--four-color", help="Four-colour deck (blue diamonds, green clubs)."
        ),
    ] = False,
    seconds: Annotated[
        float,
        typer.Option(
            help="Seconds for each decision; then a 30-second time bank runs "
            "(refilled by 5 seconds every 10 hands). At most 3600."
        ),
    ] = 30.0,
    hints: Annotated[
        bool,
        typer.Option(
            "--hints",
            help="Show the odds at your decisions (cash tables only; with --connect, "
            "where the room offers them).",
        ),
    ] = False,
    hands_dir: Annotated[
        str | None,
        typer.Option(
            help="Each sitting saves its hands in a new folder made under this one "
            "(default: ~/.local/share/mazziere/hands, or $XDG_DATA_HOME/mazziere/hands)."
        ),
    ] = None,
    connect: Annotated[
        str | None,
        typer.Option(
            help="Play at a table of a running room (mazziere serve), e.g. "
            "http://127.0.0.1:8000, instead of against bots here."
        ),
    ] = None,
    table: Annotated[str | None, typer.Option(help="--connect: the lobby table's number.")] = None,
    invite: Annotated[
        str | None,
        typer.Option(
            help="--connect: a private table's invite code or link "
            "(with --tournament: a private sit & go's)."
        ),
    ] = None,
    name: Annotated[
        str | None, typer.Option(help="--connect: log in with this name (default: a guest).")
    ] = None,
    password: Annotated[
        str | None,
        typer.Option(envvar="MAZZIERE_PASSWORD", help="--connect: the password of --name."),
    ] = None,
    buy_in: Annotated[
        int | None,
        typer.Option(
            help="--connect: the chips to sit down with (default: twice the minimum); "
            "with --host: the sit & go's buy-in (default: 100)."
        ),
    ] = None,
    host: Annotated[
        str | None,
        typer.Option(
            help="--connect: create a private table of this name, of --rules, with --players "
            "seats, and sit at it with --buy-in (the friends you give its invite to sit "
            "without asking); with --tournament: a private sit & go for --players (you "
            "included), --buy-in and --stack, waiting for them."
        ),
    ] = None,
    watch: Annotated[
        str | None,
        typer.Option(
            help="--connect: watch the table of this number (the lobby's, or a running "
            "tournament's) without sitting: every hole card face down until a showdown "
            "shows it."
        ),
    ] = None,
    close: Annotated[
        bool,
        typer.Option(
            "--close",
            help="--connect --invite: as its host, close that private table for good (once "
            "nobody plays there) and print its settle-up, instead of sitting down.",
        ),
    ] = False,
) -> None:
    """Play against bots in the terminal (each hand saved as a PHH file as it ends), or
    with --connect at a table of a running room, against the people sitting there."""
    if close:
        given = {
            "--table": table is not None,
            "--host": host is not None,
            "--watch": watch is not None,
            "--tournament": tournament,
            "--tournament-id": tournament_id is not None,
            "--buy-in": buy_in is not None,
            "--hints": hints,
            "--seed": seed is not None,
        }
        used = [option for option, on in given.items() if on]
        if connect is None or invite is None or used:
            why = f"not {used[0]}" if used else "nothing else"
            raise UsageProblem(f"--close needs --connect URL and --invite CODE, {why}")
        _close_connected(connect, invite, name=name, password=password, lang=lang)
        return
    if connect is not None and watch is not None:
        given = {
            "--table": table is not None,
            "--invite": invite is not None,
            "--host": host is not None,
            "--tournament": tournament,
            "--tournament-id": tournament_id is not None,
            "--hints": hints,
            "--seed": seed is not None,
        }
        _watch_connected(
            connect,
            watch,
            name=name,
            password=password,
            buy_in=buy_in,
            hands_dir=hands_dir,
            lang=lang,
            four_colour=four_colour,
            not_for_watching=[option for option, used in given.items() if used],
        )
        return
    if connect is not None:
        _play_connected(
            connect,
            table=table,
            invite=invite,
            rules=rules,
            name=name,
            password=password,
            buy_in=buy_in,
            lang=lang,
            four_colour=four_colour,
            hands_dir=hands_dir,
            hints=hints,
            tournament=tournament_id if tournament_id is not None else tournament,
            local_only={"--seed": seed is not None},
            host=None if host is None else (host, players, stack),
        )
        return
    if table is not None or invite is not None or name is not None or buy_in is not None:
        raise UsageProblem("--table, --invite, --name and --buy-in need --connect URL")
    if host is not None:
        raise UsageProblem("--host needs --connect URL")
    if watch is not None:
        raise UsageProblem("--watch needs --connect URL")
    if tournament_id is not None:
        raise UsageProblem("--tournament-id needs --connect URL")
    import random
    import secrets
    from pathlib import Path

    from mazziere.tui.app import PlayApp
    from mazziere.tui.session import PlayConfig, PlaySession, SystemClock

    config = PlayConfig(
        rules=rules,
        players=players,
        bots=bots,
        stack=stack,
        tournament=tournament,
        lang=lang,
        seed=seed,
        four_colour=four_colour,
        decision_seconds=seconds,
        hints=hints,
    )
    if seed is None:
        table_rng: random.Random = secrets.SystemRandom()
        bot_rng: random.Random = secrets.SystemRandom()
    else:
        table_rng, bot_rng = random.Random(seed), random.Random(f"{seed} bots")
    session = PlaySession(config, clock=SystemClock(), rng=table_rng, bot_rng=bot_rng)
    if bots == "strong" or hints:
        import threading

        from mazziere.bots.strong import warm_up

        # The strong bot's (and the hints') tables, built while the screen opens: the
        # table's size first, then each smaller one as players go broke.
        threading.Thread(
            target=warm_up, args=(rules, range(players, 1, -1)), name="warm-up", daemon=True
        ).start()
    folder = Path(hands_dir) if hands_dir is not None else None
    session.open_folder(folder)  # a folder that cannot be made stops us here (exit code 2)
    PlayApp(session, hands_dir=folder).run()
    _say_saved(session.words, session.save(folder), len(session.hands))


def counted(number: int, noun: str) -> str:
    """``number`` and ``noun``, in the plural unless there is one (English lines only).

    >>> counted(1, "hand"), counted(3, "file")
    ('1 hand', '3 files')
    """
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _say_saved(words: Any, saved: Path | None, count: int) -> None:
    """Where the sitting's hands were saved (``saved``: the folder, ``None`` if no hand)."""
    if saved is None:
        typer.echo(words.pick("Nessuna mano finita: niente da salvare.", "No hand finished."))
    elif count == 1:
        typer.echo(
            words.pick(
                f"1 mano salvata in PHH nella cartella {saved}",
                f"1 hand saved as PHH in the folder {saved}",
            )
        )
    else:
        typer.echo(
            words.pick(
                f"{count} mani salvate in PHH nella cartella {saved}",
                f"{count} hands saved as PHH in the folder {saved}",
            )
        )


def _enter_pressed(seconds: float) -> bool:
    """Whether the player pressed Enter within ``seconds`` (the line is read)."""
    import select

    ready, _, _ = select.select([sys.stdin], [], [], seconds)
    if ready:
        sys.stdin.readline()
    return bool(ready)


def _play_connected(
    url: str,
    *,
    table: str | None,
    invite: str | None,
    rules: str,
    name: str | None,
    password: str | None,
    buy_in: int | None,
    lang: str,
    four_colour: bool,
    hands_dir: str | None,
    hints: bool,
    tournament: str | bool,
    local_only: dict[str, bool],
    host: tuple[str, int, int | None] | None = None,
) -> None:
    """``mazziere play --connect URL``: the terminal table at a seat of a running room
    (``host``: a private table or, with ``tournament``, a private sit & go to create: its
    name, its seats or players, a sit & go's starting chips)."""
    from pathlib import Path

    from mazziere.tui.connect import (
        NewPrivateTable,
        NewSitAndGo,
        RoomTable,
        default_sessions_folder,
        join_table,
        join_tournament,
    )

    given = [option for option, used in local_only.items() if used]
    if given:
        raise UsageProblem(f"{given[0]} is for games against bots here, not with --connect")
    password = _client_password(lang, name, password)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()

    def choose(tables: list[RoomTable]) -> RoomTable | None:
        if not interactive or len(tables) == 1:
            return None
        for number, row in enumerate(tables, start=1):
            typer.echo(f"{number:>3}. {row.name} · {row.rules} · {row.stakes.describe(row.rules)}")
        answer = typer.prompt("Table", default="1")
        picked = int(answer) if answer.strip().isdigit() else 0
        if not 1 <= picked <= len(tables):
            raise UsageProblem(f"pick a table from 1 to {len(tables)}, not {answer!r}")
        return tables[picked - 1]

    def choose_event(events: list[RoomTournament]) -> RoomTournament | None:
        if not interactive or len(events) == 1:
            return None
        for number, row in enumerate(events, start=1):
            typer.echo(
                f"{number:>3}. {row.name} · {row.rules} · {row.buy_in} + {row.fee} · "
                f"{row.registered}/{row.max_players}"
            )
        answer = typer.prompt("Sit & go", default="1")
        picked = int(answer) if answer.strip().isdigit() else 0
        if not 1 <= picked <= len(events):
            raise UsageProblem(f"pick a sit & go from 1 to {len(events)}, not {answer!r}")
        return events[picked - 1]

    event: RoomTournament | None = None
    invite_lines: tuple[str, ...] = ()
    back: str | None = None  # how to come back to the seat, when not the same command
    closes: str | None = None  # how the host closes their table for good
    if tournament is not False:
        if table is not None or (buy_in is not None and host is None):
            raise UsageProblem("a tournament is played at its own table: no --table or --buy-in")
        if hints:
            raise UsageProblem("--hints are never offered in tournaments")
        hosted = None
        if host is not None:
            title, places, chips = host
            hosted = NewSitAndGo(title, rules, places, buy_in=buy_in, starting_stack=chips)
        registered = join_tournament(
            url,
            tournament=tournament if isinstance(tournament, str) else None,
            invite=invite,
            rules=rules,
            name=name,
            password=password,
            choose=choose_event,  # type: ignore[arg-type]
            say=typer.echo,
            sessions=default_sessions_folder(),
            host=hosted,
            start_asked=_enter_pressed if interactive else None,
        )
        event = registered.tournament
        room_table, socket, http, chips_in = (
            registered.table, registered.socket, registered.http, 0,
        )  # fmt: skip
    else:
        new_table = None
        if host is not None:
            title, seats, chips = host
            if chips is not None:
                raise UsageProblem("--stack is a sit & go's: at a cash table, give --buy-in")
            new_table = NewPrivateTable(title, rules, seats, hints_allowed=hints)
        joined = join_table(
            url,
            table=table,
            invite=invite,
            rules=rules if table is None and invite is None else None,
            name=name,
            password=password,
            buy_in=buy_in,
            choose=choose,  # type: ignore[arg-type]
            say=typer.echo,
            sessions=default_sessions_folder(),
            host=new_table,
        )
        room_table, socket, http, chips_in = joined.table, joined.socket, joined.http, joined.buy_in
        invite_lines, back, closes = joined.invite, joined.back, joined.close
    # The terminal table is loaded once the room said yes (a refusal is told at once).
    from rich.text import Text

    from mazziere.tui.remote import RemoteSession
    from mazziere.tui.remote_app import RemotePlayApp

    session = RemoteSession(
        room_table, buy_in=chips_in, send=lambda message: None, lang=lang,
        four_colour=four_colour, hints=hints, tournament=event,
    )  # fmt: skip
    if event is not None:
        session.tournament_tables = registered.tables
    for line in invite_lines:  # the host passes the invite on while playing
        session.note(Text(line, style="bold"))
    folder = Path(hands_dir) if hands_dir is not None else None
    session.open_folder(folder)  # a folder that cannot be made stops us here (exit code 2)
    # The players muted at this terminal are kept beside the room's session, one list a room.
    muted = http.cookie_file.with_suffix(".muted") if http.cookie_file is not None else None
    app = RemotePlayApp(
        session, socket=socket, cookie=http.cookie_header(), http=http, muted_file=muted
    )
    app.run()
    _after_the_table(
        session, app, folder, where=room_table.name, url=url, event=event, back=back, closes=closes
    )


def _close_connected(
    url: str, invite: str, *, name: str | None, password: str | None, lang: str
) -> None:
    """``play --connect URL --invite CODE --close``: the host closes their private table
    (a refusal is one line and exit code 2, as a join's)."""
    from mazziere.tui.connect import close_private_table, default_sessions_folder

    password = _client_password(lang, name, password)
    sessions = default_sessions_folder()
    for line in close_private_table(url, invite, name=name, password=password, sessions=sessions):
        typer.echo(line)


def _after_the_table(
    session: RemoteSession,
    app: RemotePlayApp,
    folder: Path | None,
    *,
    where: str,
    url: str,
    event: RoomTournament | None,
    back: str | None,
    closes: str | None = None,
) -> None:
    """What the terminal says once a player's table screen is gone: the hands it could not
    save, where the others are, the room's refusal, and where the player stands (``back``:
    the command that comes back to the seat, when not the same one; ``closes``: the one that
    closes the table for good, for its host who left it)."""
    words = session.words
    unsaved: dict[str, list[str]] = {}
    for number, reason in app.fetch_missing():
        unsaved.setdefault(reason, []).append(str(number))
    for reason, numbers in unsaved.items():  # one line for each reason
        listed = ", ".join(numbers)
        typer.echo(
            words.pick(
                f"Mani {listed} non salvate: {reason}", f"Hands {listed} not saved: {reason}"
            )
            if len(numbers) > 1
            else words.pick(
                f"Mano {listed} non salvata: {reason}", f"Hand {listed} not saved: {reason}"
            ),
            err=True,
        )
    _say_saved(words, session.save(folder), len(session.kept))
    if app.link.refused is not None:
        raise UsageProblem(f"the room refused the session: {app.link.refused}")
    if session.sit_refused is not None:
        raise UsageProblem(f"cannot sit at {where}: {session.sit_refused}")
    if session.finish is not None:
        place, prize = session.finish
        typer.echo(
            words.pick(
                f"{where}: {place}° posto, premio {prize}.",
                f"{where}: place {place}, prize {prize}.",
            )
        )
        return
    if event is not None and session.seated:
        back = f"mazziere play --connect {url} --tournament-id {event.id}"
        typer.echo(
            words.pick(
                f"Il torneo {where} va avanti senza di te: `{back}` ti riporta al tavolo.",
                f"{where} goes on without you: `{back}` brings you back to its table.",
            )
        )
        return
    if session.left:
        typer.echo(words.pick(f"Hai lasciato il tavolo {where}.", f"You left the table {where}."))
        if closes is not None:  # (a home game has no end of its own)
            typer.echo(
                words.pick(
                    f"Il tavolo resta aperto per i tuoi amici: `{closes}` lo chiude per sempre.",
                    f"The table stays open for your friends: `{closes}` closes it for good.",
                )
            )
    elif session.seated:
        again = words.pick("lo stesso comando", "the same command") if back is None else f"`{back}`"
        typer.echo(
            words.pick(
                f"Il tuo posto al tavolo {where} resta: {again} ti riporta lì.",
                f"Your seat at {where} is kept: {again} brings you back to it.",
            )
        )


def _client_password(lang: str, name: str | None, password: str | None) -> str | None:
    """The terminal client's checks before it connects: ``lang`` is known; ``--name``'s
    password, asked in a terminal when not given."""
    import getpass

    from mazziere.tui.words import LANGUAGES

    if lang not in LANGUAGES:
        raise UsageProblem(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")
    if name is not None and password is None and sys.stdin.isatty():
        return getpass.getpass(f"Password for {name}: ")
    return password


def _watch_connected(
    url: str,
    table: str,
    *,
    name: str | None,
    password: str | None,
    buy_in: int | None,
    hands_dir: str | None,
    lang: str,
    four_colour: bool,
    not_for_watching: list[str],
) -> None:
    """``mazziere play --connect URL --watch N``: the terminal table of a running room, as a
    spectator sees it (no hand saved: a spectator's hands are not theirs), until the
    spectator takes a free seat (``s``, with ``buy_in`` or the room's usual buy-in): from
    then on a player's, as ``--table N`` is."""
    from pathlib import Path

    from mazziere.tui.connect import buy_in_for, default_sessions_folder, watch_table

    if not_for_watching:
        raise UsageProblem(f"{not_for_watching[0]} is for playing, not with --watch")
    password = _client_password(lang, name, password)
    joined = watch_table(
        url, table, name=name, password=password, sessions=default_sessions_folder()
    )
    if buy_in is not None and joined.table.tournament_id is not None:
        raise UsageProblem(f"--buy-in is for a cash table: {joined.table.name} seats its players")
    if buy_in is not None:
        buy_in_for(joined.table, buy_in, joined.account)  # a buy-in the table refuses: now
    from mazziere.tui.remote import RemoteSession
    from mazziere.tui.remote_app import RemotePlayApp

    session = RemoteSession(
        joined.table, buy_in=0, send=lambda message: None, lang=lang,
        four_colour=four_colour, watching=True,
    )  # fmt: skip
    folder = Path(hands_dir) if hands_dir is not None else None
    session.open_folder(folder)  # (written to only once the spectator sits down)
    http = joined.http
    muted = http.cookie_file.with_suffix(".muted") if http.cookie_file is not None else None
    app = RemotePlayApp(
        session, socket=joined.socket, cookie=http.cookie_header(), http=http, muted_file=muted,
        sit_buy_in=buy_in,
    )  # fmt: skip
    app.run()
    where = joined.table.name
    if session.sat_down:
        back = f"mazziere play --connect {url} --table {joined.table.id}"
        _after_the_table(session, app, folder, where=where, url=url, event=None, back=back)
        return
    if app.link.refused is not None:
        raise UsageProblem(f"the room refused the session: {app.link.refused}")
    if session.watch_refused is not None:
        raise UsageProblem(f"cannot watch {where}: {session.watch_refused}")
    words = session.words
    typer.echo(words.pick(f"Hai smesso di guardare {where}.", f"You stopped watching {where}."))


# --- end of the terminal client --------------------------------------------------

# --- the online room: `mazziere serve`, `mazziere db upgrade` ------------------------

db_app = typer.Typer(help="The room's database.")
app.add_typer(db_app, name="db")

DatabaseUrlOption = Annotated[
    str | None,
    typer.Option(
        "--database-url",
        help="SQLAlchemy URL: sqlite+aiosqlite:///path/room.db or postgresql+asyncpg://... "
        "(default: room.db in the user's data folder; or MAZZIERE_DATABASE_URL).",
    ),
]
ConfigOption = Annotated[
    str | None,
    typer.Option(
        "--config",
        help="A settings file of MAZZIERE_KEY=value lines (# comments and blank lines "
        "aside: any other line is refused).",
    ),
]


def _server_settings(config: str | None, **overrides: object) -> Settings:
    """The room's settings; a bad value is a usage error (one line, exit code 2)."""
    from pydantic import ValidationError

    from mazziere.server.settings import Settings

    try:
        return Settings.from_file(config, **overrides)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "settings"
        # A validator's own words, without pydantic's "Value error, " before them.
        said = first["ctx"]["error"] if first["type"] == "value_error" else first["msg"]
        raise UsageProblem(f"{where}: {said}") from None


def _check_address(settings: Settings) -> None:
    """A usage error (one line) if the room could not listen where it is told to: a port in
    use (another room running) or an address not this machine's.  Tried before the start-up,
    which takes seconds and then ended with the server's own error and exit code 3.

    The port is bound the way the server binds it, then let go: another program taking it
    in between still meets the server's own error.
    """
    import socket

    family = socket.AF_INET6 if ":" in settings.host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((settings.host, settings.port))
        except OSError as error:
            reason = error.strerror or str(error)
            raise UsageProblem(f"cannot listen on {settings.address}: {reason}") from None


def _existing_room(settings: Settings) -> Database:
    """The room's database, for a command that reads or changes it: a SQLite file that does
    not exist is refused in one line (connecting would make it, empty: a mistyped path was
    left behind as a new file), and so is an in-memory one (it holds no room)."""
    from mazziere.server.storage import Database
    from mazziere.server.storage.backup import BackupError, sqlite_file

    try:
        path = sqlite_file(settings.database_url)
    except BackupError:
        raise UsageProblem("an in-memory database holds no room: give the room's file") from None
    if path is not None and not path.is_file():
        raise UsageProblem(f"no room's database at {path}")
    return Database(settings.database_url, schema=settings.database_schema)


def _upgrade_database(settings: Settings) -> None:
    """Apply the migrations; a database that cannot be reached is a usage error (one line)."""
    import asyncio

    from sqlalchemy.exc import SQLAlchemyError

    from mazziere.server.storage import Database

    async def upgrade() -> None:
        database = Database(settings.database_url, schema=settings.database_schema)
        try:
            await database.upgrade()
        finally:
            await database.dispose()

    try:
        asyncio.run(upgrade())
    except (OSError, SQLAlchemyError) as exc:  # the database server does not answer
        raise UsageProblem(f"cannot reach the database: {exc}".splitlines()[0]) from None


@app.command()
def serve(
    *,
    host: Annotated[
        str | None, typer.Option(help="Address to listen on (default 127.0.0.1).")
    ] = None,
    port: Annotated[int | None, typer.Option(help="Port to listen on (default 8000).")] = None,
    database_url: DatabaseUrlOption = None,
    config: ConfigOption = None,
    lobby: Annotated[
        str | None,
        typer.Option(
            help="The lobby file: the cash tables, sit & gos and scheduled tournaments the "
            "room offers (TOML; docs/server.md; or MAZZIERE_LOBBY_FILE).",
        ),
    ] = None,
    access_log: Annotated[
        bool,
        typer.Option(
            "--access-log",
            help="Log every request and WebSocket opened (off: thousands of players "
            "reconnecting make it the server's busiest line).",
        ),
    ] = False,
) -> None:
    """Run the online room: accounts, lobby, tables (migrations are applied at start)."""
    import uvicorn
    from uvicorn.logging import DefaultFormatter

    from mazziere.server.app import create_app

    settings = _server_settings(
        config, host=host, port=port, database_url=database_url, lobby_file=lobby
    )
    _check_address(settings)
    # Here, not only at the server's start-up (which applies them again, finding nothing to
    # do): a database that cannot be reached is then one line, not the server's traceback.
    _upgrade_database(settings)
    typer.echo(
        f"Mazziere room at {settings.address} (database: {_shown_url(settings.database_url)})"
    )
    from mazziere.server.app import raise_open_files_limit
    from mazziere.server.play import table_service
    from mazziere.server.warm import warm_up_bots

    raise_open_files_limit()  # one socket per player: thousands of them
    # The room's own lines (the lobby file's changes, a database that waits) as uvicorn
    # says its own.
    room_log = logging.getLogger("mazziere")
    room_log.setLevel(logging.INFO)
    said = logging.StreamHandler()
    said.setFormatter(DefaultFormatter("%(levelprefix)s %(message)s", use_colors=False))
    room_log.addHandler(said)
    if not access_log:
        # uvicorn and websockets say each WebSocket opened on uvicorn's error log, not the
        # access log.
        logging.getLogger("uvicorn.error").addFilter(_not_a_websocket_line)
    stopped_at_once = _StoppedAtOnce()
    logging.getLogger("uvicorn.error").addFilter(stopped_at_once)
    app = create_app(settings, services=[warm_up_bots, table_service])
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_level="info",
        access_log=access_log,
        ws_max_size=1 << 20,
        # A ping a minute finds a dead socket soon enough (the table's clock runs for its
        # player anyway); every 20 s, uvicorn's default, thousands of sockets cost as much
        # as a fifth of the tables' own work.
        ws_ping_interval=60.0,
        ws_per_message_deflate=False,  # doubles the memory of a socket for small messages
        # A request still unanswered this long after Ctrl-C (a client sending its body
        # slowly) is cut, and the room's own shut-down goes on: one Ctrl-C always stops it.
        timeout_graceful_shutdown=GRACEFUL_STOP_SECONDS,
    )
    if stopped_at_once.seen:
        typer.echo(
            "mazziere: stopped at once (Ctrl-C twice): every action was stored before it was "
            "sent; a hand in play goes on when the room starts again",
            err=True,
        )


GRACEFUL_STOP_SECONDS = 10
"""How long the room's stop waits for the requests being answered."""


class _StoppedAtOnce(logging.Filter):
    r"""Keeps back uvicorn's tracebacks of the tasks a second Ctrl-C cancels when it stops
    the server at once (the room's start-up and shut-down task, and a request still being
    read), and remembers that the room's shut-down was cut: :func:`serve` says so in one
    line instead.

    >>> import asyncio
    >>> said = _StoppedAtOnce()
    >>> def line(message: str, error: BaseException | None = None) -> logging.LogRecord:
    ...     exc_info = None if error is None else (type(error), error, None)
    ...     return logging.LogRecord("uvicorn.error", logging.ERROR, "", 0, message, (), exc_info)
    >>> said.filter(line("Exception in ASGI application", asyncio.CancelledError()))
    False
    >>> said.seen
    False
    >>> said.filter(line("Traceback (most recent call last):\n...\nasyncio.CancelledError\n"))
    False
    >>> said.seen, said.filter(line("Traceback (most recent call last):\n...\nValueError\n"))
    (True, True)
    >>> said.filter(line("Exception in ASGI application", ValueError()))
    True
    """

    def __init__(self) -> None:
        super().__init__()
        self.seen = False

    def filter(self, record: logging.LogRecord) -> bool:
        import asyncio

        if record.levelno < logging.ERROR:
            return True
        if record.exc_info is not None and isinstance(record.exc_info[1], asyncio.CancelledError):
            return False  # a request cut short: not the room's error
        message = str(record.msg)
        if message.startswith("Traceback") and message.rstrip().endswith("CancelledError"):
            self.seen = True  # the start-up and shut-down task's, as text
            return False
        return True


_SOCKET_LINES = ("connection open", "connection closed")
"""websockets' own lines for every socket opened and closed (on uvicorn's error log)."""


def _not_a_websocket_line(record: logging.LogRecord) -> bool:
    """Whether a log line of uvicorn's is kept: not one said for every WebSocket opened or
    closed (``--access-log`` keeps them; a refused handshake is still said).

    >>> def line(message: str, *args: object) -> logging.LogRecord:
    ...     return logging.LogRecord("uvicorn.error", logging.INFO, "", 0, message, args, None)
    >>> _not_a_websocket_line(line('%s - "WebSocket %s" [accepted]', "127.0.0.1:5", "/ws"))
    False
    >>> _not_a_websocket_line(line("connection open"))
    False
    >>> _not_a_websocket_line(line("connection rejected (%d %s)", 403, "Forbidden"))
    True
    """
    if record.levelno != logging.INFO:
        return True
    message = str(record.msg)
    return not (message.startswith('%s - "WebSocket') or message in _SOCKET_LINES)


def _shown_url(url: str) -> str:
    """A database URL without its password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


@db_app.command("upgrade")
def db_upgrade(
    *,
    database_url: DatabaseUrlOption = None,
    config: ConfigOption = None,
) -> None:
    """Apply the database migrations (the server also does it when it starts)."""
    settings = _server_settings(config, database_url=database_url)
    _upgrade_database(settings)
    typer.echo(f"database up to date: {_shown_url(settings.database_url)}")


@db_app.command("audit")
def db_audit(
    *,
    database_url: DatabaseUrlOption = None,
    config: ConfigOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Check the room's ledger: every balance adds up to zero and agrees with its entries
    (exit code 1 if not); where the chips are, by kind of account."""
    import asyncio
    import json

    from sqlalchemy.exc import SQLAlchemyError

    settings = _server_settings(config, database_url=database_url)
    try:
        report = asyncio.run(_ledger_report(settings))
    except (OSError, SQLAlchemyError) as exc:  # unreachable, or no ledger (not migrated)
        raise UsageProblem(f"cannot read the ledger: {exc}".splitlines()[0]) from None
    balanced = report["balanced"]
    if as_json:
        typer.echo(json.dumps(report))
    else:
        typer.echo(
            f"ledger of {_shown_url(settings.database_url)}: {report['accounts']:,} accounts, "
            f"{report['entries']:,} movements"
        )
        for kind, amount in report["by_kind"].items():
            typer.echo(f"  {kind:<12}{amount:>16,}")
        typer.echo(f"  {'total':<12}{report['total']:>16,}")
        problems = []
        if report["total"]:
            problems.append(f"the balances add up to {report['total']:,}")
        if report["drifted"]:
            drifted = ", ".join(report["drifted"])
            problems.append(f"balances that differ from their movements: {drifted}")
        typer.echo(
            "NOT BALANCED: " + "; ".join(problems)
            if problems
            else "balanced: the balances add up to zero and each agrees with its movements"
        )
    if not balanced:
        raise typer.Exit(1)


@db_app.command("backup")
def db_backup(
    file: Annotated[str, typer.Argument(help="The new file to write the copy to.")],
    *,
    database_url: DatabaseUrlOption = None,
    config: ConfigOption = None,
) -> None:
    """Copy a SQLite room's database to a new file, as it was at one moment, while the room
    goes on; then check the copy's ledger (exit code 1 if it does not balance)."""
    import asyncio
    from pathlib import Path

    from sqlalchemy.exc import SQLAlchemyError

    from mazziere.server.storage.backup import BackupError, backup_sqlite, sqlite_file

    settings = _server_settings(config, database_url=database_url)
    destination = Path(file).expanduser().absolute()
    try:
        source = sqlite_file(settings.database_url)
        if source is None:
            raise BackupError(
                "a PostgreSQL room is backed up with PostgreSQL's own pg_dump "
                "(docs/server.md, Backups)"
            )
        size = backup_sqlite(source, destination)
    except BackupError as problem:
        raise UsageProblem(str(problem)) from None
    copy = settings.model_copy(update={"database_url": f"sqlite+aiosqlite:///{destination}"})
    try:
        report = asyncio.run(_ledger_report(copy))
    except (OSError, SQLAlchemyError) as exc:  # no ledger: not a room's database
        destination.unlink(missing_ok=True)
        first = f"{exc}".splitlines()[0]
        raise UsageProblem(f"{source} is not a room's database (no copy kept): {first}") from None
    balanced = report["balanced"]
    typer.echo(
        f"backed up {source} to {destination} ({size / 1e6:,.1f} MB): "
        f"{report['accounts']:,} accounts, {report['entries']:,} movements, "
        + ("the ledger balanced" if balanced else "the ledger NOT BALANCED: mazziere db audit")
    )
    if not balanced:
        raise typer.Exit(1)


@db_app.command("reset-password")
def db_reset_password(
    name: Annotated[str, typer.Argument(help="The player's name.")],
    *,
    password: Annotated[
        str | None,
        typer.Option(
            envvar="MAZZIERE_NEW_PASSWORD",
            help="The new password (default: asked twice in a terminal, else made up and printed).",
        ),
    ] = None,
    database_url: DatabaseUrlOption = None,
    config: ConfigOption = None,
) -> None:
    """Give a player who forgot their password a new one (the room sends no e-mail): every
    session of the account ends, its failed log-ins are forgotten, its chips stay."""
    import secrets

    from mazziere.server.security import hash_password, name_failures_key, password_hasher
    from mazziere.server.storage import accounts as store

    settings = _server_settings(config, database_url=database_url)
    made_up = password is None and not sys.stdin.isatty()
    if password is None:
        password = (
            secrets.token_urlsafe(12)
            if made_up
            else typer.prompt(f"New password for {name}", hide_input=True, confirmation_prompt=True)
        )
    problem = store.password_problem(password)
    if problem is not None:
        raise UsageProblem(problem)
    hashed = hash_password(password, password_hasher(settings.password_profile))

    async def reset(session: AsyncSession) -> str:
        key = name_failures_key(name)
        account = await store.reset_password(session, name, hashed, failures_key=key)
        return account.display_name

    shown = _change_accounts(settings, reset)
    said = f"{shown} has a new password; every session of the account ended"
    typer.echo(f"{said}: {password}" if made_up else said)


@db_app.command("grant")
def db_grant(
    name: Annotated[str, typer.Argument(help="The player's name (a guest's: guest-<id>).")],
    amount: Annotated[int, typer.Argument(help="The chips to give (or take back).")],
    *,
    take_back: Annotated[
        bool, typer.Option("--take-back", help="Take the chips back from the wallet instead.")
    ] = False,
    database_url: DatabaseUrlOption = None,
    config: ConfigOption = None,
) -> None:
    """Give a player play chips from the room's grants (a club's prize, a mistake put
    right), or take them back to it: one movement of the ledger, which stays at zero."""

    from mazziere.server.storage import accounts as store
    from mazziere.server.storage import ledger

    settings = _server_settings(config, database_url=database_url)
    if not 1 <= amount <= MAX_GRANT:
        raise UsageProblem(f"give 1 to {MAX_GRANT:,} chips, not {amount:,}")

    async def grant(session: AsyncSession) -> tuple[str, int]:
        account, balance = await store.grant_chips(session, name, amount, take_back=take_back)
        return account.display_name, balance

    try:
        shown, balance = _change_accounts(settings, grant)
    except ledger.InsufficientFundsError:
        raise UsageProblem(f"{name}'s wallet holds less than {amount:,}: nothing taken") from None
    done = f"took {amount:,} chips back from" if take_back else f"gave {amount:,} chips to"
    typer.echo(f"{done} {shown}: balance {balance:,}")


@db_app.command("chat")
def db_chat(
    *,
    player: Annotated[
        str | None, typer.Option(help="Only this player's lines (a guest's: guest-<id>).")
    ] = None,
    table: Annotated[int | None, typer.Option(help="Only this table's lines.", min=1)] = None,
    last: Annotated[int, typer.Option(help="How many lines, the latest.", min=1)] = 50,
    database_url: DatabaseUrlOption = None,
    config: ConfigOption = None,
) -> None:
    """What was said at the tables, oldest first, with when and where: to read a complaint
    before deciding on it (`mazziere db suspend`)."""

    from mazziere.server.storage.chat import said_lines

    settings = _server_settings(config, database_url=database_url)

    async def read(session: AsyncSession) -> list[str]:
        found = await said_lines(session, player=player, table=table, last=last)
        return [str(line) for line in found]

    where = [f"by {player}" if player else "", f"at table {table}" if table else ""]
    _print_rows(
        _in_room(settings, read, failing="cannot read the tables' chat"),
        " ".join(["nothing was said", *filter(None, where)]),
    )


@db_app.command("players")
def db_players(
    *,
    guests: Annotated[bool, typer.Option("--guests", help="Guests too.")] = False,
    suspended: Annotated[
        bool, typer.Option("--suspended", help="Only the suspended players.")
    ] = False,
    last: Annotated[int, typer.Option(help="How many, the newest.", min=1)] = 50,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON list.")] = False,
    database_url: DatabaseUrlOption = None,
    config: ConfigOption = None,
) -> None:
    """The room's players, newest first: name, wallet, when they joined, and any suspension
    with its reason (guests only with --guests: every first visit makes one)."""

    from mazziere.server.storage import accounts as store

    settings = _server_settings(config, database_url=database_url)

    async def read(session: AsyncSession) -> list[store.PlayerRow]:
        return await store.players(session, guests=guests, suspended=suspended, last=last)

    _print_rows(
        _in_room(settings, read, failing="cannot read the players"),
        "no suspended player"
        if suspended
        else "no player yet"
        if guests
        else "no registered player yet (--guests lists the guests too)",
        as_json=as_json,
    )


@db_app.command("reports")
def db_reports(
    *,
    player: Annotated[
        str | None, typer.Option(help="Only the reports of this player (a guest's: guest-<id>).")
    ] = None,
    last: Annotated[int, typer.Option(help="How many, the latest.", min=1)] = 50,
    database_url: DatabaseUrlOption = None,
    config: ConfigOption = None,
) -> None:
    """The players' reports of other players, oldest first: who, whom, where and why (then
    `mazziere db chat` shows what was said)."""

    from mazziere.server.storage.reports import reports

    settings = _server_settings(config, database_url=database_url)

    async def read(session: AsyncSession) -> list[str]:
        return [str(line) for line in await reports(session, player=player, last=last)]

    _print_rows(
        _in_room(settings, read, failing="cannot read the reports"),
        f"nobody reported {player}" if player else "no report yet",
    )


@db_app.command("tables")
def db_tables(
    *,
    every: Annotated[
        bool, typer.Option("--all", help="The open tables nobody sits at too.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON list.")] = False,
    database_url: DatabaseUrlOption = None,
    config: ConfigOption = None,
) -> None:
    """The open tables where someone sits, by number: who sits where with how many chips,
    the hand being played, a cash table's chips (before a restart: which tables deal)."""

    from mazziere.server.storage.played import TableNow, tables_now

    settings = _server_settings(config, database_url=database_url)

    async def read(session: AsyncSession) -> list[TableNow]:
        return await tables_now(session, empty=every)

    _print_rows(
        _in_room(settings, read, failing="cannot read the tables"),
        "no open table" if every else "nobody sits at any table",
        as_json=as_json,
    )


@db_app.command("hands")
def db_hands(
    *,
    player: Annotated[
        str | None, typer.Option(help="Only the hands of this player (a guest's: guest-<id>).")
    ] = None,
    with_player: Annotated[
        str | None,
        typer.Option("--with", help="Only the hands this player was dealt into too."),
    ] = None,
    table: Annotated[int | None, typer.Option(help="Only this table's hands.", min=1)] = None,
    last: Annotated[int, typer.Option(help="How many hands, the latest.", min=1)] = 20,
    database_url: DatabaseUrlOption = None,
    config: ConfigOption = None,
) -> None:
    """The hands played, oldest first: when, where, and what each player won or lost (two
    players' hands together: --player and --with); `mazziere db hand N` prints one."""

    from mazziere.server.storage.played import played_hands

    settings = _server_settings(config, database_url=database_url)

    async def read(session: AsyncSession) -> list[str]:
        found = await played_hands(
            session, player=player, with_player=with_player, table=table, last=last
        )
        return [str(hand) for hand in found]

    _print_rows(
        _in_room(settings, read, failing="cannot read the hands"),
        "no hand was played" + (" so" if player or with_player or table else ""),
    )


@db_app.command("hand")
def db_hand(
    hand: Annotated[int, typer.Argument(help="The hand's number in the room.", min=1)],
    *,
    database_url: DatabaseUrlOption = None,
    config: ConfigOption = None,
) -> None:
    """One hand's whole history as the room stored it (PHH, every player's cards, the seed
    revealed): `mazziere replay` plays it back, step by step."""

    from mazziere.server.storage.played import hand_history

    settings = _server_settings(config, database_url=database_url)

    async def read(session: AsyncSession) -> str:
        return await hand_history(session, hand)

    typer.echo(_in_room(settings, read, failing="cannot read the hand"), nl=False)


@db_app.command("suspend")
def db_suspend(
    name: Annotated[str, typer.Argument(help="The player's name (a guest's: guest-<id>).")],
    *,
    reason: Annotated[
        str,
        typer.Option(help="Why: told to the player who tries to log in (1 to 200 characters)."),
    ],
    database_url: DatabaseUrlOption = None,
    config: ConfigOption = None,
) -> None:
    """Suspend a player (abuse at the tables, a shared account): every session of the
    account ends, its sockets close, and it cannot log in until reinstated; its chips stay
    (a seat left is played by the clock, then freed, its chips back to the wallet)."""
    from mazziere.server.storage import accounts as store
    from mazziere.server.storage.models import utc_now

    settings = _server_settings(config, database_url=database_url)
    why = " ".join(reason.split())
    if not 1 <= len(why) <= 200:
        raise UsageProblem(f"a reason has 1 to 200 characters, not {len(why)}")

    async def suspend(session: AsyncSession) -> str:
        return (await store.suspend(session, name, why, now=utc_now())).display_name

    shown = _change_accounts(settings, suspend)
    typer.echo(
        f"suspended {shown}: every session of the account ended; "
        f"`mazziere db reinstate {shown}` lets them log in again"
    )


@db_app.command("reinstate")
def db_reinstate(
    name: Annotated[str, typer.Argument(help="The player's name (a guest's: guest-<id>).")],
    *,
    database_url: DatabaseUrlOption = None,
    config: ConfigOption = None,
) -> None:
    """Lift a player's suspension: the account may log in again."""
    from mazziere.server.storage import accounts as store

    settings = _server_settings(config, database_url=database_url)

    async def reinstate(session: AsyncSession) -> str:
        return (await store.reinstate(session, name)).display_name

    shown = _change_accounts(settings, reinstate)
    typer.echo(f"reinstated {shown}: the account may log in again")


MAX_GRANT = 1_000_000_000
"""The most chips one grant gives (a typo of a few zeros is refused, not paid)."""


def _change_accounts(settings: Settings, change: Callable[[AsyncSession], Awaitable[T]]) -> T:
    """Run ``change`` on the room's database and commit it: an operator's command on a
    player's account (:func:`_in_room`)."""
    return _in_room(settings, change, failing="cannot reach the accounts", commit=True)


def _print_rows(rows: Sequence[Any], nothing: str, *, as_json: bool = False) -> None:
    """An operator's command's answer: a line for each row (as ``str`` says it), or one JSON
    list of them (dataclasses; times in ISO 8601); ``nothing`` when there are none."""
    import dataclasses

    if as_json:
        as_text = lambda value: value.isoformat()  # noqa: E731 (the only kind JSON lacks: times)
        typer.echo(json.dumps([dataclasses.asdict(row) for row in rows], default=as_text))
        return
    for row in rows:
        typer.echo(str(row))
    if not rows:
        typer.echo(nothing)


def _in_room(
    settings: Settings,
    work: Callable[[AsyncSession], Awaitable[T]],
    *,
    failing: str,
    commit: bool = False,
) -> T:
    """Run ``work`` in a session of the room's database (committed with ``commit``, else a
    reading one): an operator's command.  No such account (``LookupError``), a change that
    does not apply (``ValueError``: suspended already, say), or a database that cannot be
    reached or is not a room's (said after ``failing``), is a usage problem: one line,
    nothing changed."""
    import asyncio

    from sqlalchemy.exc import SQLAlchemyError

    async def run() -> T:
        database = _existing_room(settings)
        try:
            if not commit:
                async with database.reading() as session:
                    return await work(session)
            async with database.session() as session:
                done = await work(session)
                await session.commit()
                return done
        finally:
            await database.dispose()

    try:
        return asyncio.run(run())
    except (LookupError, ValueError) as refused:  # no such account; nothing to do
        raise UsageProblem(str(refused)) from None
    except (OSError, SQLAlchemyError) as exc:  # unreachable, or not a room's database
        raise UsageProblem(f"{failing}: {exc}".splitlines()[0]) from None


async def _ledger_report(settings: Settings) -> dict[str, Any]:
    """The ledger's audit (``storage.ledger.audit``), its balances by kind of account, and
    whether it balances (the total zero, no account drifted)."""
    from mazziere.server.storage import ledger

    database = _existing_room(settings)
    try:
        async with database.reading() as session:
            total, drifted = await ledger.audit(session)
            by_kind = await ledger.balances_by_kind(session)
            accounts, entries = await ledger.size(session)
    finally:
        await database.dispose()
    known = ("grants", "house", "wallet", "table", "tournament")
    shown = {kind: by_kind[kind] for kind in known if kind in by_kind}
    shown |= {kind: amount for kind, amount in sorted(by_kind.items()) if kind not in known}
    return {
        "accounts": accounts,
        "entries": entries,
        "total": total,
        "drifted": drifted,
        "by_kind": shown,
        "balanced": total == 0 and not drifted,
    }


@app.command()
def loadtest(
    *,
    players: Annotated[int, typer.Option(help="Bot players over WebSockets.", min=2)] = 100,
    tables: Annotated[
        int | None, typer.Option(help="Tables (default: one for every five players).", min=1)
    ] = None,
    minutes: Annotated[float, typer.Option(help="How long to measure.", min=0.01)] = 1.0,
    think: Annotated[
        str, typer.Option(help="A player's think time in seconds: LOW-HIGH, or 0 (raw).")
    ] = "1-3",
    url: Annotated[
        str | None, typer.Option(help="A room already running (default: start one).")
    ] = None,
    server_pid: Annotated[
        int | None, typer.Option(help="With --url: its process, to read CPU and memory.")
    ] = None,
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            # Not the room's own database by default: a load test's bots sign up by thousands.
            help="The database of the room it starts: sqlite+aiosqlite:///path/new.db (a file "
            "that does not exist yet) or postgresql+asyncpg://... (in a schema of its own, "
            "dropped at the end).  Default: a temporary SQLite file, deleted at the end.",
        ),
    ] = None,
    workers: Annotated[int, typer.Option(help="Load generator processes.", min=1)] = 2,
    generator_nice: Annotated[
        int,
        typer.Option(
            help="Niceness of the load generator's processes (10: the room is served "
            "first, as with players on their own machines; 0: they compete as equals).",
            min=0,
            max=19,
        ),
    ] = 10,
    next_hand: Annotated[
        float | None, typer.Option(help="Seconds between hands (default: the room's).", min=0)
    ] = None,
    drops: Annotated[
        float, typer.Option(help="Dropped connections per player per minute.", min=0)
    ] = 0.2,
    chats: Annotated[float, typer.Option(help="Chat lines per player per minute.", min=0)] = 0.5,
    json_line: Annotated[bool, typer.Option("--json", help="End with one line of JSON.")] = False,
) -> None:
    """Benchmark the room: bot players over real WebSockets; latencies from their side."""
    from mazziere.loadtest import LoadRun, run

    low, _, high = think.partition("-")
    try:
        span = (float(low), float(high or low))
    except ValueError:
        raise UsageProblem(f"--think: not LOW-HIGH seconds: {think!r}") from None
    if span[0] < 0 or span[1] < span[0]:
        raise UsageProblem(f"--think: not LOW-HIGH seconds: {think!r}")
    if server_pid is not None and url is None:
        raise UsageProblem("--server-pid: only with --url (the process of a room already running)")
    if database_url is not None:
        if url is not None:
            raise UsageProblem("--database-url: only for the room the load test starts, not --url")
        from mazziere.server.storage.backup import BackupError, sqlite_file
        from mazziere.server.storage.database import room_database_url

        try:
            database_url = room_database_url(database_url)
        except ValueError as error:
            raise UsageProblem(f"--database-url: {error}") from None
        with contextlib.suppress(BackupError):  # (in memory: nobody else's)
            existing = sqlite_file(database_url)
            if existing is not None and existing.exists():
                # Perhaps the room's own: its bots would sign up there by thousands.
                raise UsageProblem(
                    f"--database-url: {existing} exists: the load test's room takes a new file"
                )
    load = LoadRun(
        players=players,
        tables=tables if tables is not None else max(1, -(-players // 5)),
        minutes=minutes,
        think=span,
        url=url,
        server_pid=server_pid,
        database_url=database_url,
        workers=workers,
        generator_nice=generator_nice,
        next_hand_seconds=next_hand,
        drops_per_minute=drops,
        chats_per_minute=chats,
    )
    try:
        report = run(load, say=lambda line: typer.echo(line, err=True))
    except RuntimeError as error:  # the room failed to start or to seat the players
        typer.echo(f"mazziere loadtest: {error}", err=True)
        raise typer.Exit(1) from None
    for line in report.lines():
        typer.echo(line)
    if json_line:
        typer.echo(report.to_json())


# --- end of the online room -----------------------------------------------------------


# --- provably fair deals: `mazziere verify-deck` -----------------------------------


@app.command("verify-deck")
def verify_deck(
    path: Annotated[str, typer.Argument(help="A hand history (.phh) with its _seed.")],
) -> None:
    """Check a hand's cards against its revealed seed and the commitment made before the deal."""
    from pathlib import Path

    from mazziere.fair import verify

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UsageProblem(f"cannot read {path}: {error}") from None
    typer.echo(f"{path}: {verify(text).describe()}")


# --- end of verify-deck ------------------------------------------------------------


# --- the room's WebSocket protocol: `mazziere protocol-doc` --------------------------


@app.command("protocol-doc")
def protocol_doc() -> None:
    """Print docs/protocol.md: the WebSocket messages and their JSON Schema, from the code."""
    from mazziere.server.protocol import schema_markdown

    typer.echo(schema_markdown(), nl=False)


# --- end of protocol-doc -----------------------------------------------------------


def run_app(typer_app: typer.Typer, args: list[str], *, prog_name: str) -> int:
    """Run a Typer app's command: bad input is one line on stderr and exit code 2."""
    command = typer.main.get_command(typer_app)
    try:
        # Out of standalone mode, click hands back a command's ``typer.Exit`` code as the result.
        code = command.main(args=args or ["--help"], prog_name=prog_name, standalone_mode=False)
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        return 130
    except typer.TyperException as exc:  # usage errors: bad option, missing argument...
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        print(f"{prog_name}: error: {message}", file=sys.stderr)
        return 2
    except ValueError as exc:  # our precise errors: cards, rules, players
        print(f"{prog_name}: error: {exc}", file=sys.stderr)
        return 2
    return code if isinstance(code, int) else 0


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the command; bad input is one line and exit code 2."""
    return run_app(app, sys.argv[1:] if argv is None else argv, prog_name="mazziere")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
