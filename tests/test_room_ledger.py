"""The ledger: every chip movement is an entry and the balances always sum to zero."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mazziere.room.errors import InsufficientChipsError, LedgerError
from mazziere.room.ledger import Account, AccountKind, EntryKind, Ledger, Movement

PLAYERS = ["ann", "bob", "cal"]
ACCOUNTS = [Account.player(p) for p in PLAYERS] + [Account.stack(p) for p in PLAYERS]
ACCOUNTS += [Account.pot(), Account.house("rake"), Account.prize_pool(), Account.bank()]


def test_buy_in_hand_and_cash_out_balance() -> None:
    ledger = Ledger("table 1")
    for name in ("ann", "bob"):
        ledger.transfer(EntryKind.BUY_IN, Account.player(name), Account.stack(name), 1_000)
    ledger.transfer_all(
        [
            Movement(EntryKind.BET, Account.stack("ann"), Account.pot(), 200),
            Movement(EntryKind.BET, Account.stack("bob"), Account.pot(), 200),
            Movement(EntryKind.RAKE, Account.pot(), Account.house("rake"), 10),
            Movement(EntryKind.AWARD, Account.pot(), Account.stack("ann"), 390),
        ],
        hand=1,
    )
    ledger.transfer(EntryKind.CASH_OUT, Account.stack("ann"), Account.player("ann"), 1_190)
    assert ledger.balance(Account.player("ann")) == 190
    assert ledger.balance(Account.player("bob")) == -1_000
    assert ledger.balance(Account.stack("bob")) == 800
    assert ledger.balance(Account.pot()) == 0
    assert ledger.balance(Account.house("rake")) == 10
    assert ledger.total() == 0
    ledger.check()
    assert [e.number for e in ledger] == list(range(1, 8))
    assert all(e.hand == 1 for e in ledger[2:6])
    assert ledger.flows(EntryKind.BET) == 400


@pytest.mark.parametrize("amount", [0, -5, 1.5, True, "3"])
def test_bad_amounts_are_refused(amount: object) -> None:
    ledger = Ledger()
    with pytest.raises(LedgerError, match="positive int"):
        ledger.transfer(EntryKind.BUY_IN, Account.player("a"), Account.stack("a"), amount)  # type: ignore[arg-type]
    assert len(ledger) == 0


def test_same_account_twice_is_refused() -> None:
    with pytest.raises(LedgerError, match="to itself"):
        Ledger().transfer(EntryKind.BET, Account.pot(), Account.pot(), 5)


def test_internal_accounts_never_go_negative() -> None:
    ledger = Ledger()
    ledger.transfer(EntryKind.BUY_IN, Account.player("a"), Account.stack("a"), 50)
    with pytest.raises(InsufficientChipsError, match="stack:a holds 50"):
        ledger.transfer(EntryKind.BET, Account.stack("a"), Account.pot(), 51)
    with pytest.raises(InsufficientChipsError):
        ledger.transfer(EntryKind.PRIZE, Account.prize_pool(), Account.player("a"), 1)
    assert len(ledger) == 1
    assert ledger.balance(Account.stack("a")) == 50


def test_transfer_all_is_all_or_nothing() -> None:
    ledger = Ledger()
    ledger.transfer(EntryKind.BUY_IN, Account.player("a"), Account.stack("a"), 100)
    before = dict(ledger.balances())
    with pytest.raises(InsufficientChipsError, match="pot holds 100, cannot move 101"):
        ledger.transfer_all(
            [
                Movement(EntryKind.BET, Account.stack("a"), Account.pot(), 100),
                Movement(EntryKind.AWARD, Account.pot(), Account.stack("b"), 101),
            ]
        )
    assert dict(ledger.balances()) == before
    assert len(ledger) == 1


def test_external_accounts() -> None:
    assert Account.player("x").external and Account.bank().external
    for kind in (AccountKind.STACK, AccountKind.POT, AccountKind.HOUSE, AccountKind.PRIZE_POOL):
        assert not Account(kind, "x").external


def test_entries_for_and_str() -> None:
    ledger = Ledger()
    entry = ledger.transfer(
        EntryKind.CHIPS, Account.bank(), Account.stack("a"), 1500, note="starting stack"
    )
    assert str(entry) == "#1 chips: 1500 bank -> stack:a (starting stack)"
    assert ledger.entries_for(Account.stack("a")) == [entry]
    assert ledger.entries_for(Account.pot()) == []


movement = st.tuples(
    st.sampled_from(list(EntryKind)),
    st.sampled_from(ACCOUNTS),
    st.sampled_from(ACCOUNTS),
    st.integers(min_value=-3, max_value=400),
)


@given(st.lists(st.lists(movement, min_size=1, max_size=4), max_size=40))
def test_random_movements_keep_the_ledger_balanced(batches: list[list[tuple]]) -> None:
    """Whatever is asked, accepted movements keep the sum at zero; refused ones change nothing."""
    ledger = Ledger()
    model: dict[Account, int] = {}
    for batch in batches:
        before_entries = len(ledger)
        before = dict(ledger.balances())
        moves = [Movement(kind, src, dst, amount) for kind, src, dst, amount in batch]
        # Model of the expected outcome.
        scratch = dict(model)
        ok = True
        for move in moves:
            if move.amount == 0:
                continue
            if move.amount < 0 or move.source == move.destination:
                ok = False
                break
            if not move.source.external and scratch.get(move.source, 0) < move.amount:
                ok = False
                break
            scratch[move.source] = scratch.get(move.source, 0) - move.amount
            scratch[move.destination] = scratch.get(move.destination, 0) + move.amount
        if ok:
            ledger.transfer_all(moves)
            model = scratch
            assert len(ledger) == before_entries + sum(1 for m in moves if m.amount)
        else:
            with pytest.raises(LedgerError):
                ledger.transfer_all(moves)
            assert len(ledger) == before_entries
            assert dict(ledger.balances()) == before
        assert ledger.total() == 0
        for account in ACCOUNTS:
            assert ledger.balance(account) == model.get(account, 0)
            if not account.external:
                assert ledger.balance(account) >= 0
    ledger.check()


def test_forgotten_entries_leave_the_balances_and_the_audit() -> None:
    ledger = Ledger("table 1")
    for name in ("ann", "bob"):
        ledger.transfer(EntryKind.BUY_IN, Account.player(name), Account.stack(name), 1_000)
    for hand in range(1, 201):
        ledger.transfer_all(
            [
                Movement(EntryKind.BET, Account.stack("ann"), Account.pot(), 20),
                Movement(EntryKind.BET, Account.stack("bob"), Account.pot(), 20),
                Movement(
                    EntryKind.AWARD, Account.pot(), Account.stack("ann" if hand % 2 else "bob"), 40
                ),
            ],
            hand=hand,
        )
        ledger.forget(ledger.recorded - 3)  # the hand just played stays
    ledger.transfer(EntryKind.CASH_OUT, Account.stack("bob"), Account.player("bob"), 1_000)
    assert len(ledger) == 4 and ledger.recorded == 2 + 200 * 3 + 1
    assert [e.number for e in ledger] == [600, 601, 602, 603]
    assert [e.number for e in ledger.since(601)] == [602, 603]
    assert ledger.balance(Account.stack("ann")) == 1_000
    assert ledger.balance(Account.player("bob")) == 0
    assert Account.stack("bob") not in ledger.balances()
    assert ledger.total() == 0
    ledger.check()
    with pytest.raises(LedgerError, match="forgotten"):
        ledger.since(10)
    with pytest.raises(LedgerError, match="cannot forget"):
        ledger.forget(ledger.recorded + 1)
    ledger.forget(ledger.recorded)
    assert len(ledger) == 0
    ledger.check()


def test_the_audit_still_finds_a_drift_after_entries_are_forgotten() -> None:
    ledger = Ledger("t")
    ledger.transfer(EntryKind.BUY_IN, Account.player("a"), Account.stack("a"), 50)
    ledger.transfer(EntryKind.BET, Account.stack("a"), Account.pot(), 20)
    ledger.forget(1)
    ledger._balances[Account.pot()] += 1  # a bug that moved a chip outside the entries
    with pytest.raises(LedgerError, match="disagree"):
        ledger.check()


@given(st.lists(movement, max_size=60), st.lists(st.integers(min_value=0, max_value=60)))
def test_forgetting_at_any_point_changes_no_balance(moves: list[tuple], cuts: list[int]) -> None:
    """A ledger that forgets entries on the way has the balances of one that keeps them all."""
    whole, short = Ledger(), Ledger()
    for step, (kind, src, dst, amount) in enumerate(moves):
        for ledger in (whole, short):
            with contextlib.suppress(LedgerError):
                ledger.transfer(kind, src, dst, amount)
        if step < len(cuts):
            short.forget(min(cuts[step], short.recorded))
    assert short.balances() == whole.balances()
    assert short.recorded == whole.recorded
    assert list(short) == list(whole)[whole.recorded - len(short) :]
    short.check()
    assert short.total() == 0
