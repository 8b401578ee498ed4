"""Poker all'italiana: one hand of ``italian-classic`` or ``italian-32`` (RULES.md §3-5).

The betting (rounds, raises, all-ins, side pots, rake, awards) is the shared
core's (:class:`~mazziere.game.core.BettingHand`); this package adds what is
Italian, a module per concept (``hand``, ``showdown``, ``setup``, ``rules``,
``stock``, ``carry``, ``view``): the invito, the blind opening and the forced
blinds, the deal, the opening test and the dead hand, the draw with its
fourth card and reshuffle, the last round's first speaker, parol and parole,
the showdown's automatic showing, and the state the next hand needs
(:class:`ItalianCarry`).

A classic hand at four players where nobody opens: the pot is carried and
the next hand opens at Queens.

>>> import random
>>> hand = ItalianHand("italian-classic", [500] * 4, invito=10, rng=random.Random(4))
>>> hand.phase.value, hand.actor, sorted(k.value for k in hand.legal_actions().kinds)
('dealing', 0, ['bet', 'check', 'timeout'])
>>> hand.legal_actions().min_to  # the buio: the pot
40
>>> _ = hand.check()  # no blind opening: the cards are dealt
>>> while not hand.is_over:
...     _ = hand.check()
>>> carry = hand.carry
>>> carry.pot, carry.opening.name_it, hand.result.payoffs
(40, 'Q', (-10, -10, -10, -10))

An italian-32 hand: buio 50, controbuio 100, over 200; round 1 starts left of
the over.

>>> hand = ItalianHand("italian-32", [5000] * 4, buio=50, rng=random.Random(1))
>>> hand.bets, hand.actor, hand.legal_actions().to_call
([50, 100, 200, 0], 3, 200)
"""

from __future__ import annotations

# Each module's public names (its __all__), re-exported as they are.
from mazziere.game.italian import carry, hand, setup, view
from mazziere.game.italian.carry import *  # noqa: F403
from mazziere.game.italian.hand import *  # noqa: F403
from mazziere.game.italian.setup import *  # noqa: F403
from mazziere.game.italian.view import *  # noqa: F403

__all__: list[str] = []
__all__ += carry.__all__
__all__ += hand.__all__
__all__ += setup.__all__
__all__ += view.__all__
