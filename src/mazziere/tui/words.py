"""The client's words, in Italian and English: action buttons and the running log of a hand.

Button names follow the game being played, read from the rule set and the
hand's view, never from a rule set's name: Poker all'italiana says *Apri*
and *Passo* in the opening round, *Busso*, *Parol*, *Punto*, *Rilancio*,
*Vedo* after the draw, *Cip* and *Parole* where the rules have forced blinds
and split the pot on parole.  Hold'em in Italian speaks as Italian rooms do,
with the same verbs: *Passo* (fold), *Busso* (check), *Vedo* (call), *Punto*,
*Rilancio*, *All-in*, the *piccolo buio* and the *grande buio* (the streets
keep their names: flop, turn, river); in English it uses the usual terms.

>>> from mazziere.game.core import ActionKind, LegalActions
>>> from mazziere.rules import find_rules
>>> context = Context(find_rules("italian-classic"), opening_round=True)
>>> legal = LegalActions((0, frozenset({ActionKind.CHECK, ActionKind.BET, ActionKind.FOLD}),
...                       0, 10, 500))
>>> words = Words("it")
>>> words.action(ActionKind.BET, context, legal, amount=20)
'Apri 20'
>>> words.action(ActionKind.CHECK, context, legal)
'Passo'
>>> words.action(ActionKind.CHECK, Context(find_rules("italian-32")), legal)
'Cip'
>>> Words("en").action(ActionKind.BET, context, legal, amount=20)
'Open 20'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from mazziere.cards import Card
from mazziere.evaluate import evaluate
from mazziere.game.core import (
    ActionKind,
    BetsCollected,
    CardsMucked,
    CardsShown,
    ForcedBet,
    HoleCardsDealt,
    LegalActions,
    PlayerActed,
    Pot,
    PotAwarded,
    RakeTaken,
    Record,
    UncalledBetReturned,
)
from mazziere.game.holdem import BoardDealt
from mazziere.game.italian import Discarded, PotCarried, StockReshuffled
from mazziere.room.structure import Stakes
from mazziere.rules import RuleSet
from mazziere.tui.render import cards_text, chips

__all__ = ["LANGUAGES", "Context", "Narrator", "UnknownLanguageError", "Words"]

LANGUAGES = ("it", "en")


class UnknownLanguageError(ValueError):
    """A language the client does not speak."""


@dataclass(frozen=True, slots=True)
class Context:
    """Where a hand is, for naming its actions: the rule set, and the Italian moments that
    change a word (the opening round, the blind opening before the deal)."""

    rules: RuleSet
    opening_round: bool = False
    """Italian poker's first round with an opening requirement: a check passes the word."""
    blind: int | None = None
    """Before the deal: which blind is offered (0 buio, 1 controbuio, 2 over)."""
    last_round: bool = False
    """Italian poker's round after the draw."""


_BLIND_NAMES = ("Buio", "Controbuio", "Over")


class Words:
    """The client's vocabulary in one language (``"it"`` or ``"en"``)."""

    def __init__(self, lang: str) -> None:
        if lang not in LANGUAGES:
            raise UnknownLanguageError(f"unknown language {lang!r} (known: it, en)")
        self.lang = lang
        self.it = lang == "it"

    def pick(self, italian: str, english: str) -> str:
        """The text in this language.

        >>> Words("en").pick("mano", "hand")
        'hand'
        """
        return italian if self.it else english

    def me(self) -> str:
        """The human player's name at the table.

        >>> Words("it").me(), Words("en").me()
        ('Tu', 'You')
        """
        return self.pick("Tu", "You")

    # ------------------------------------------------------------ buttons

    def action(
        self,
        kind: ActionKind,
        context: Context,
        legal: LegalActions,
        *,
        amount: int | None = None,
        discards: int = 0,
    ) -> str:
        """The label of an action button.

        >>> from mazziere.rules import find_rules
        >>> legal = LegalActions((0, frozenset({ActionKind.DRAW}), 0, 0, 4))
        >>> context = Context(find_rules("italian-32"))
        >>> Words("it").action(ActionKind.DRAW, context, legal, discards=0)
        'Servito'
        >>> Words("it").action(ActionKind.DRAW, context, legal, discards=3)
        'Cambio 3 carte'
        """
        italian = context.rules.traits.italian_terms
        if kind is ActionKind.DRAW:
            if not discards:
                return self.pick("Servito", "Stand pat")
            if discards == 1:
                return self.pick("Cambio 1 carta", "Change 1 card")
            return self.pick(f"Cambio {discards} carte", f"Change {discards} cards")
        if context.blind is not None:
            name = _BLIND_NAMES[min(context.blind, 2)]
            if kind is ActionKind.CHECK:
                return self.pick("Passo", "Pass")
            if kind in (ActionKind.BET, ActionKind.RAISE):
                return f"{name} {chips(legal.min_to)}"
        if kind is ActionKind.FOLD:
            if italian and context.opening_round and not legal.to_call:
                return self.pick("Esco", "Fold")
            return self.pick("Passo", "Fold")
        if kind is ActionKind.CHECK:
            if italian and context.opening_round:
                return self.pick("Passo", "Pass")
            if italian and context.rules.forced_blinds:
                return self.pick("Cip", "Check")
            return self.pick("Busso", "Check")
        if kind is ActionKind.CALL:
            return f"{self.pick('Vedo', 'Call')} {chips(legal.to_call)}"
        if kind is ActionKind.BET:
            shown = chips(amount if amount is not None else legal.min_to)
            if italian and context.opening_round:
                return f"{self.pick('Apri', 'Open')} {shown}"
            return f"{self.pick('Punto', 'Bet')} {shown}"
        if kind is ActionKind.RAISE:
            shown = chips(amount if amount is not None else legal.min_to)
            return f"{self.pick('Rilancio a', 'Raise to')} {shown}"
        if kind is ActionKind.ALL_IN:
            return f"All-in {chips(legal.max_to)}" if legal.max_to else "All-in"
        if kind is ActionKind.PAROL:
            return self.parol_word(context.rules).capitalize()
        if kind is ActionKind.SHOW:
            return self.pick("Mostro", "Show")
        if kind is ActionKind.MUCK:
            return self.pick("Non mostro", "Muck")
        return kind.value

    def stakes(self, stakes: Stakes, rules: RuleSet, players: int | None = None) -> str:
        """A table's stakes in this language (Hold'em's blinds are *bui* in Italian); with
        ``players``, only the blinds a hand of that many takes.

        >>> from mazziere.rules import find_rules
        >>> Words("it").stakes(Stakes(small_blind=5, big_blind=10), find_rules("holdem"))
        'bui 5/10'
        >>> Words("en").stakes(Stakes(small_blind=5, big_blind=10), find_rules("holdem"))
        'blinds 5/10'
        """
        text = stakes.describe(rules, players)
        if self.it and text.startswith("blinds "):
            text = "bui " + text.removeprefix("blinds ")
        return text

    def parol_word(self, rules: RuleSet) -> str:
        """``parol`` (the pot is carried) or ``parole`` (the pot is split).

        >>> from mazziere.rules import find_rules
        >>> Words("it").parol_word(find_rules("italian-32"))
        'parole'
        """
        return "parole" if rules.parole_splits_pot and not rules.parol else "parol"


# --------------------------------------------------------------- narration

Names = Sequence[str]
CardsFormat = Callable[[Sequence[Card | None]], Text]


@dataclass(slots=True)
class _State:
    dealt: bool = False
    drawn: bool = False
    last_round: bool = False
    street: str = ""
    board: list[Card] = field(default_factory=list)
    pots: tuple[Pot, ...] = ()
    shown: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    pending: list[CardsShown] = field(default_factory=list)
    forced: list[ForcedBet] = field(default_factory=list)
    blind_raises: int = 0
    received: bool = False
    next_pot: int = 0
    """The first collected pot no award has covered yet."""


class Narrator:
    """Turns a hand's records, as the player sees them, into lines of a running log.

    ``names`` by position; ``me`` the human's position (``None``: watching);
    ``players`` dealt in (the classic deck depends on it).

    >>> from mazziere.cards import parse_cards
    >>> from mazziere.game.core import ActionKind, HoleCardsDealt, PlayerActed
    >>> from mazziere.rules import find_rules
    >>> narrator = Narrator(find_rules("italian-classic"), ["Bot 2", "Tu", "Bot 3"], me=1,
    ...                     words=Words("it"))
    >>> [t.plain for t in narrator.lines(HoleCardsDealt((1, tuple(parse_cards("Ah Ad 7c 8c 9s")))))]
    ['Le tue carte: A♥ A♦ 7♣ 8♣ 9♠']
    >>> [t.plain for t in narrator.lines(PlayerActed((0, ActionKind.BET, 20, 20, False, False)))]
    ['Bot 2 apre con 20']
    >>> [t.plain for t in narrator.lines(PlayerActed((1, ActionKind.CALL, 20, 20, False, False)))]
    ['Tu vedi 20']
    """

    def __init__(
        self,
        rules: RuleSet,
        names: Names,
        *,
        me: int | None,
        words: Words,
        four_colour: bool = False,
        opening: bool = True,
    ) -> None:
        self.rules = rules
        self.names = list(names)
        self.me = me
        self.words = words
        self.four_colour = four_colour
        self.draws = rules.traits.draw
        self.opening = opening and bool(rules.opening_ladder)
        """Whether the first round has an opening requirement (classic: yes)."""
        self._state = _State()

    # ---------------------------------------------------------------- helpers

    def _cards(self, cards: Sequence[Card | None]) -> Text:
        return cards_text(cards, four_colour=self.four_colour)

    def _say(self, position: int, third: str, second: str) -> Text:
        """A line about ``position``: third person, or second person for the player."""
        if position == self.me:
            return Text(f"{self.words.me()} {second}", style="bold")
        return Text(f"{self.names[position]} {third}")

    def _verb(self, position: int, it3: str, it2: str, en3: str, en2: str) -> Text:
        if self.words.it:
            return self._say(position, it3, it2)
        return self._say(position, en3, en2)

    def _name(self, position: int) -> str:
        return self.words.me() if position == self.me else self.names[position]

    def _together(self, positions: Sequence[int]) -> str:
        names = [self._name(p) for p in positions]
        if len(names) == 1:
            return names[0]
        return f"{', '.join(names[:-1])} {self.words.pick('e', 'and')} {names[-1]}"

    def resume(self, view: Any) -> None:
        """Tell a hand from its middle on: take the state its earlier records would have left
        from the seat's view of the hand now (``view``: ``HandView``-like, as a snapshot
        gives it to a client that joins or comes back during the hand), so that the next
        words are the right ones (a pass after the deal is not a blind opening declined, a
        bet after the draw is not an opening).

        >>> from mazziere.game.core import ActionKind, PlayerActed
        >>> from mazziere.rules import find_rules
        >>> from types import SimpleNamespace
        >>> narrator = Narrator(find_rules("italian-classic"), ["ann", "bob"], me=None,
        ...                     words=Words("en"))
        >>> narrator.resume(SimpleNamespace(betting_round=2, drawn=[0, 1], blind_raisers=[],
        ...                 hole=[[None] * 5] * 2, board=[], pots=(), folded=[False] * 2))
        >>> bet = PlayerActed((0, ActionKind.BET, 20, 20, False, False))
        >>> [t.plain for t in narrator.lines(bet)]
        ['ann bets 20']
        """
        state = self._state
        drawn = list(getattr(view, "drawn", None) or ())
        state.dealt = not self.draws or int(getattr(view, "betting_round", 1)) >= 1
        state.drawn = any(count is not None for count in drawn)
        state.last_round = self.draws and int(getattr(view, "betting_round", 0)) == 2
        mine = drawn[self.me] if self.me is not None and self.me < len(drawn) else None
        state.received = bool(mine)
        state.blind_raises = len(getattr(view, "blind_raisers", None) or ())
        state.board = [card for card in getattr(view, "board", None) or () if card is not None]
        state.pots = tuple(view.pots)
        state.shown = {
            position: tuple(cards)
            for position, cards in enumerate(view.hole)
            if position != self.me and cards and None not in cards and not view.folded[position]
        }

    def describe(self, position: int) -> str | None:
        """The hand ``position`` showed, in words (``None`` if it cannot be named yet)."""
        cards = self._state.shown.get(position)
        if cards is None:
            return None
        try:
            if self.draws:
                value = evaluate(cards, rules=self.rules, players=len(self.names))
            else:
                if len(self._state.board) < 5:
                    return None
                value = evaluate(cards, rules=self.rules, board=self._state.board)
        except ValueError:
            return None
        return value.describe(self.words.lang)

    # ------------------------------------------------------------------ lines

    def lines(self, record: Record) -> list[Text]:
        """What ``record`` (already as the player may see it) adds to the log."""
        state = self._state
        out: list[Text] = []
        if not isinstance(record, ForcedBet) and state.forced:
            out.extend(self._forced_lines())
        if isinstance(record, ForcedBet):
            state.forced.append(record)
        elif isinstance(record, HoleCardsDealt):
            out.extend(self._dealt(record))
        elif isinstance(record, PlayerActed):
            out.append(self._acted(record))
        elif isinstance(record, UncalledBetReturned):
            amount = chips(record.amount)
            if record.position == self.me:
                it, en = f"{amount} non visti tornano a te", f"Uncalled {amount} returned to you"
            else:
                owner = self._name(record.position)
                it, en = (
                    f"{amount} non visti tornano a {owner}",
                    f"Uncalled {amount} returned to {owner}",
                )
            out.append(Text(self.words.pick(it, en), style="dim"))
        elif isinstance(record, BetsCollected):
            state.pots = record.pots
            if len(record.pots) > 1:
                out.append(self._pots_line(record.pots))
        elif isinstance(record, CardsShown):
            state.shown[record.position] = tuple(c for c in record.cards if c is not None)
            if self.draws or len(state.board) == 5:
                out.append(self._shown(record))
            else:
                state.pending.append(record)
        elif isinstance(record, CardsMucked):
            out.append(
                self._verb(
                    record.position,
                    "non mostra le carte",
                    "non mostri le carte",
                    "mucks",
                    "muck",
                )
            )
        elif isinstance(record, RakeTaken):
            out.append(
                Text(
                    self.words.pick(
                        f"Rake: {chips(record.amount)}", f"Rake: {chips(record.amount)}"
                    ),
                    style="dim",
                )
            )
        elif isinstance(record, PotAwarded):
            out.extend(self._flush_pending())
            out.append(self._awarded(record))
        else:
            out.extend(self._other(record))
        return out

    def settle(self) -> list[Text]:
        """Lines held back to be told together (the forced bets), once a batch of records is
        told.

        >>> from mazziere.game.core import ForcedBet
        >>> from mazziere.rules import find_rules
        >>> narrator = Narrator(find_rules("italian-classic"), ["Bot 2", "Tu"], me=1,
        ...                     words=Words("it"))
        >>> narrator.lines(ForcedBet((0, 10, "invito", False, False))), narrator.lines(
        ...     ForcedBet((1, 10, "invito", False, False)))
        ([], [])
        >>> [line.plain for line in narrator.settle()]
        ["Tutti mettono l'invito di 10"]
        """
        return self._forced_lines() if self._state.forced else []

    def finish(self) -> list[Text]:
        """Lines still held back at the end of the hand."""
        out = self._forced_lines() if self._state.forced else []
        out.extend(self._flush_pending())
        return out

    # forced bets -----------------------------------------------------------

    def _forced_lines(self) -> list[Text]:
        state = self._state
        forced, state.forced = state.forced, []
        out: list[Text] = []
        everyone = [r for r in forced if r.kind in ("invito", "ante")]
        if everyone and len(everyone) == len(self.names) and len({r.amount for r in everyone}) == 1:
            amount = chips(everyone[0].amount)
            word = "l'invito" if everyone[0].kind == "invito" else "l'ante"
            word_en = "the invito" if everyone[0].kind == "invito" else "the ante"
            out.append(
                Text(
                    self.words.pick(
                        f"Tutti mettono {word} di {amount}",
                        f"Everyone posts {word_en} of {amount}",
                    ),
                    style="dim",
                )
            )
            forced = [r for r in forced if r not in everyone]
        for record in forced:
            out.append(self._forced(record))
        return out

    def _forced(self, record: ForcedBet) -> Text:
        amount = chips(record.amount)
        it_names = {
            "invito": "l'invito",
            "ante": "l'ante",
            "small_blind": "il piccolo buio",
            "big_blind": "il grande buio",
            "straddle": "lo straddle",
            "buio": "il buio",
            "controbuio": "il controbuio",
            "over": "l'over",
            "post": "il post",
        }
        en_names = {"small_blind": "the small blind", "big_blind": "the big blind"}
        if record.kind == "dead":
            if self.rules.parol:
                line = self._verb(
                    record.position,
                    f"paga {amount} di adeguamento",
                    f"paghi {amount} di adeguamento",
                    f"pays {amount} to join the parol pot",
                    f"pay {amount} to join the parol pot",
                )
            else:
                line = self._verb(
                    record.position,
                    f"versa {amount} morti nel piatto",
                    f"versi {amount} morti nel piatto",
                    f"posts {amount} dead",
                    f"post {amount} dead",
                )
        else:
            it_name = it_names.get(record.kind, record.kind)
            en_name = en_names.get(record.kind, f"the {record.kind.replace('_', ' ')}")
            line = self._verb(
                record.position,
                f"mette {it_name} ({amount})",
                f"metti {it_name} ({amount})",
                f"posts {en_name} ({amount})",
                f"post {en_name} ({amount})",
            )
        if record.all_in:
            line.append(self.words.pick(" ed è all-in", " and is all-in"))
        line.stylize("dim")
        return line

    # deal --------------------------------------------------------------------

    def _dealt(self, record: HoleCardsDealt) -> list[Text]:
        state = self._state
        first = not state.drawn
        if first:
            state.dealt = True
        if record.position != self.me or None in record.cards:
            return []
        if first:
            line = Text(self.words.pick("Le tue carte: ", "Your cards: "), style="bold")
        elif state.received:
            line = Text(
                self.words.pick("Ricevi la quarta carta: ", "Your fourth card: "), style="bold"
            )
        else:
            state.received = True
            line = Text(self.words.pick("Ricevi: ", "You get: "), style="bold")
        line.append_text(self._cards(record.cards))
        return [line]

    # actions -----------------------------------------------------------------

    def _acted(self, record: PlayerActed) -> Text:
        state = self._state
        kind = record.kind
        p = record.position
        to = chips(record.to)
        added = chips(record.added)
        before_deal = self.draws and not state.dealt
        # After a blind opening the pot is open: nobody needs the opening cards any more.
        opening_round = (
            self.draws
            and self.opening
            and state.dealt
            and not state.drawn
            and not state.blind_raises
        )
        if self.draws and state.drawn:
            state.last_round = True
        it = self.words.it
        if kind is ActionKind.FOLD:
            line = self._verb(p, "passa", "passi", "folds", "fold")
        elif kind is ActionKind.CHECK:
            if before_deal:
                line = self._declined_blind(p)
            elif opening_round:
                line = self._verb(p, "passa la parola", "passi la parola", "passes", "pass")
            elif self.rules.traits.italian_terms and self.rules.forced_blinds:
                line = self._verb(p, "dice cip", "dici cip", "checks", "check")
            else:
                line = self._verb(p, "bussa", "bussi", "checks", "check")
        elif kind is ActionKind.PAROL:
            word = self.words.parol_word(self.rules)
            line = self._verb(p, f"dice {word}", f"dici {word}", f"says {word}", f"say {word}")
        elif kind is ActionKind.CALL:
            # Italian says what the call makes ("vede 80" after a raise to 80), English
            # what it adds ("calls 40").
            line = self._verb(p, f"vede {to}", f"vedi {to}", f"calls {added}", f"call {added}")
        elif kind is ActionKind.BET:
            if before_deal:
                line = self._verb(
                    p,
                    f"apre al buio con {to}",
                    f"apri al buio con {to}",
                    f"opens blind with {to}",
                    f"open blind with {to}",
                )
            elif opening_round:
                line = self._verb(
                    p, f"apre con {to}", f"apri con {to}", f"opens with {to}", f"open with {to}"
                )
            else:
                line = self._verb(p, f"punta {to}", f"punti {to}", f"bets {to}", f"bet {to}")
        elif kind is ActionKind.RAISE:
            if before_deal:
                if state.blind_raises >= 2:
                    line = self._verb(
                        p,
                        f"fa l'over a {to}",
                        f"fai l'over a {to}",
                        f"makes the over, {to}",
                        f"make the over, {to}",
                    )
                else:
                    line = self._verb(
                        p,
                        f"fa il controbuio a {to}",
                        f"fai il controbuio a {to}",
                        f"raises blind to {to}",
                        f"raise blind to {to}",
                    )
            else:
                line = self._verb(
                    p, f"rilancia a {to}", f"rilanci a {to}", f"raises to {to}", f"raise to {to}"
                )
        else:
            line = self._say(p, kind.value, kind.value)
        if before_deal and kind in (ActionKind.BET, ActionKind.RAISE):
            state.blind_raises += 1
        if record.all_in:
            mine = p == self.me
            suffix = (
                (" e sei all-in" if mine else " ed è all-in")
                if it
                else (" and are all-in" if mine else " and is all-in")
            )
            line.append(suffix, style="bold yellow")
        if record.timed_out:
            line.append(self.words.pick(" (tempo scaduto)", " (time out)"), style="italic")
        return line

    def _declined_blind(self, position: int) -> Text:
        """A check before the deal: the blind opening, the controbuio or the over declined."""
        raises = self._state.blind_raises
        if raises == 0:
            return self._verb(
                position,
                "non apre al buio",
                "non apri al buio",
                "does not open blind",
                "do not open blind",
            )
        if raises == 1:
            return self._verb(
                position,
                "non fa il controbuio",
                "non fai il controbuio",
                "does not raise blind",
                "do not raise blind",
            )
        return self._verb(
            position,
            "non fa l'over",
            "non fai l'over",
            "does not make the over",
            "do not make the over",
        )

    # pots --------------------------------------------------------------------

    def _pot_name(self, index: int, count: int) -> str:
        if count <= 1:
            return self.words.pick("il piatto", "the pot")
        if index == 0:
            return self.words.pick("il piatto principale", "the main pot")
        return self.words.pick(f"il piatto laterale {index}", f"side pot {index}")

    def _pots_line(self, pots: Sequence[Pot]) -> Text:
        main = self.words.pick("Piatto principale", "Main pot")
        side = self.words.pick("laterale", "side pot")
        parts = [f"{main} {chips(pots[0].amount)}"]
        parts.extend(f"{side} {i}: {chips(pot.amount)}" for i, pot in enumerate(pots[1:], start=1))
        return Text(" · ".join(parts), style="cyan")

    def _shown(self, record: CardsShown) -> Text:
        line = self._verb(record.position, "mostra ", "mostri ", "shows ", "show ")
        line.append_text(self._cards(record.cards))
        name = self.describe(record.position)
        if name:
            line.append(f": {name}", style="bold")
        return line

    def _flush_pending(self) -> list[Text]:
        state = self._state
        pending, state.pending = state.pending, []
        return [self._shown(record) for record in pending]

    def _won_pots(self, record: PotAwarded) -> str:
        """The pots an award covers, each named with its amount.

        At the showdown the engine may award as one the pots that came to have the same
        contenders (a hand that wins nothing is out of them all): its amount is then the
        main pot and a side pot together, and each of them is named.
        """
        state = self._state
        pots = state.pots
        amount = chips(record.amount)
        if len(pots) <= 1 or state.next_pot >= len(pots):
            count = max(len(pots), record.pot + 1)
            return f"{self._pot_name(record.pot, count)} ({amount})"
        covered: list[int] = []
        total = 0
        while state.next_pot < len(pots) and (not covered or total < record.amount):
            covered.append(state.next_pot)
            total += pots[state.next_pot].amount
            state.next_pot += 1
        if len(covered) == 1 and total == record.amount:
            return f"{self._pot_name(covered[0], len(pots))} ({amount})"
        named = [f"{self._pot_name(i, len(pots))} ({chips(pots[i].amount)})" for i in covered]
        text = f" {self.words.pick('e', 'and')} ".join(named)
        if total != record.amount:  # the rake came out of them
            text += self.words.pick(f", {amount} tolto il rake", f", {amount} after the rake")
        return text

    def _awarded(self, record: PotAwarded) -> Text:
        pot = self._won_pots(record)
        if len(record.winners) == 1:
            winner = record.winners[0]
            line = self._verb(winner, f"vince {pot}", f"vinci {pot}", f"wins {pot}", f"win {pot}")
            name = self.describe(winner)
            if name:
                line.append(self.words.pick(f" con {name}", f" with {name}"))
        else:
            who = self._together(record.winners)
            shares = ", ".join(
                f"{self._name(w)} {chips(s)}"
                for w, s in zip(record.winners, record.shares, strict=True)
            )
            line = Text(
                self.words.pick(
                    f"{who} si dividono {pot}: {shares}",
                    f"{who} split {pot}: {shares}",
                )
            )
        line.stylize("bold green")
        return line

    # game-specific records -------------------------------------------------

    def _other(self, record: Record) -> list[Text]:
        state = self._state
        if isinstance(record, BoardDealt):
            cards = [c for c in record.cards if c is not None]
            state.board.extend(cards)
            line = Text(f"{record.street.value.capitalize()}: ", style="bold")
            line.append_text(self._cards(cards))
            out = [line]
            if len(state.board) == 5:
                out.extend(self._flush_pending())
            return out
        if isinstance(record, Discarded):
            return [self._discarded(record)]
        if isinstance(record, StockReshuffled):
            return [
                Text(
                    self.words.pick(
                        "Il mazzo è finito: gli scarti vengono rimescolati",
                        "The stock ran out: the discards are reshuffled",
                    ),
                    style="dim",
                )
            ]
        if isinstance(record, PotCarried):
            amount = chips(record.amount)
            if record.parol:
                text = self.words.pick(
                    f"Tutti dicono parol: il piatto ({amount}) diventa piatto di parol",
                    f"Everyone says parol: the pot ({amount}) becomes a parol pot",
                )
            else:
                text = self.words.pick(
                    f"Nessuno apre: il piatto ({amount}) resta in tavola",
                    f"Nobody opens: the pot ({amount}) stays on the table",
                )
            return [Text(text, style="bold magenta")]
        return []

    def _discarded(self, record: Discarded) -> Text:
        self._state.drawn = True
        position = record.position
        cards = record.cards
        count = len(cards)
        it_cards = "carta" if count == 1 else "carte"
        en_cards = "card" if count == 1 else "cards"
        if not count:
            line = self._verb(position, "è servito", "sei servito", "stands pat", "stand pat")
        elif position == self.me and None not in cards:
            line = self._verb(
                position, "", f"cambi {count} {it_cards}: ", "", f"change {count} {en_cards}: "
            )
            line.append_text(self._cards(cards))
        else:
            line = self._verb(
                position,
                f"cambia {count} {it_cards}",
                f"cambi {count} {it_cards}",
                f"changes {count} {en_cards}",
                f"change {count} {en_cards}",
            )
        if record.timed_out:
            line.append(self.words.pick(" (tempo scaduto)", " (time out)"), style="italic")
        return line
