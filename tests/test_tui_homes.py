"""The terminal game's homes where the app's tests do not reach them: the session's chance steps
(the next deal waits for the person, every other step is taken at once), its bot turns (the one
bot turn's failure, a stale choice), and the record of a game whose next deal waits."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from collections.abc import Sequence
from dataclasses import replace

import pytest
from rich.text import Text

from support.tui import SIZE
from support.tui import ada_moves_first
from support.tui import make_app
from support.tui import settle
from support.tui import to_my_move
from thirtyone import Discard
from thirtyone import Draw
from thirtyone import Game
from thirtyone import Knock
from thirtyone import Rules
from thirtyone.actions import STOCK
from thirtyone.actions import Action
from thirtyone.bots.expert import Analysis
from thirtyone.bots.expert import ExpertBot
from thirtyone.bots.turn import BotFailure
from thirtyone.events import Reshuffled
from thirtyone.events import RoundEnded
from thirtyone.events import RoundStarted
from thirtyone.i18n import messages
from thirtyone.record import GameRecord
from thirtyone.refusals import IllegalActionError
from thirtyone.tui.autosave import recorded
from thirtyone.tui.controls import Controls
from thirtyone.tui.hints import Hints
from thirtyone.tui.keys import WaitingFor
from thirtyone.tui.prepare import Preparation
from thirtyone.tui.session import HUMAN
from thirtyone.tui.session import BotTurn
from thirtyone.tui.session import PlaySession
from thirtyone.tui.session import StaleMoveError
from thirtyone.tui.settings import PlaySettings
from thirtyone.tui.status import Status
from thirtyone.tui.threads import off_thread
from thirtyone.views import Phase
from thirtyone.views import PlayerView


def session_of(preset: str = "scat", players: int = 3, seed: int = 7, bots: str = "basic") -> PlaySession:
    return PlaySession(PlaySettings.create(Rules.preset(preset), players, bots, seed=seed, fast=True))


def you_first(players: int) -> int:
    """A seed of ``scat`` whose first move is the person's."""
    return next(seed for seed in range(100) if session_of(players=players, seed=seed).human_to_move)


def play_to_round_end(session: PlaySession) -> None:
    """Play (the person knocks or draws and discards the first card) until a round has ended."""
    while not session.round_over:
        if session.human_to_move:
            legal = session.view().legal_actions
            session.play(Knock() if Knock() in legal else legal[0])
        else:
            assert session.bot_move() is None


def test_the_move_that_ends_a_round_leaves_the_table_until_the_next_deal_is_taken() -> None:
    session = session_of()
    play_to_round_end(session)
    game = session.game
    result = game.last_result
    assert result is not None
    assert result.round == game.round == 1  # nothing dealt yet
    shown = [type(event) for event in session.next_events()]
    assert shown[-1] is RoundEnded
    assert shown.count(RoundStarted) == 1
    view = session.view()
    assert (view.round, view.current_seat, view.legal_actions) == (1, None, ())
    assert view.hand == result.hands[HUMAN]  # the hand as the showdown showed it
    assert view.knocker == result.knocker
    session.deal_next()
    assert not session.round_over
    assert game.round == 2
    assert [type(event) for event in session.next_events()][:1] == [RoundStarted]
    assert session.view().hand == game.hand(HUMAN)


def test_deal_next_is_refused_while_a_round_is_under_way_and_changes_nothing() -> None:
    session = session_of()
    before = session.game.position()
    events = len(session.game.events)
    with pytest.raises(IllegalActionError) as refused:
        session.deal_next()
    assert refused.value.code == "no_chance_due"
    assert session.game.position() == before
    assert len(session.game.events) == events


def test_the_game_is_the_same_as_a_game_that_deals_by_itself() -> None:
    """Chance steps taken one at a time play the game ``--seed`` names: the same as
    ``Game(rules, players, seed=...)`` given the same moves."""
    session = session_of(seed=11)
    game = Game(Rules.preset("scat"), 3, seed=11)
    while not session.game.is_over:
        if session.round_over:
            session.deal_next()
            continue
        seat = session.game.current_seat
        if seat == HUMAN:
            action = session.view().legal_actions[0]
            session.play(action)
        else:
            assert session.bot_move() is None
            action = session.game.round_logs[-1].actions[-1][1]
        game.apply(action, seat=seat)
    assert session.game.events == game.events


class FromTheStock:
    """Draws from the stock and discards what it drew: it never knocks, so the stock runs out."""

    name = "from-the-stock"

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        if view.phase is Phase.DISCARD:
            assert view.hand is not None
            return Discard(view.hand[-1])
        return Draw(STOCK)


def test_a_reshuffle_is_taken_at_once() -> None:
    """R4.3: a draw from an empty stock waits for no one: the session takes the reshuffle at once
    (a chance step nobody needs to see), and the draw is played."""
    session = session_of(players=2, seed=3)
    session.bots[1] = FromTheStock()
    person = FromTheStock()
    while not any(isinstance(event, Reshuffled) for event in session.game.events):
        assert not session.round_over, "the round ended before the stock ran out"
        if session.human_to_move:
            session.play(person.choose(session.view(), session.view().legal_actions))
        else:
            assert session.bot_move() is None
        assert not session.game.is_chance()
    assert isinstance(session.game.round_logs[-1].actions[-1][1], Draw)  # the draw that waited for it


class Raising:
    name = "raising"

    def choose(self, view: object, legal: object) -> object:
        raise RuntimeError("no idea")


class Stubborn:
    name = "stubborn"

    def choose(self, view: object, legal: object) -> object:
        return Knock() if len(legal) > 3 else "knock"  # type: ignore[arg-type]


@pytest.mark.parametrize(("bot", "error", "action"), [(Raising(), RuntimeError, None), (Stubborn(), None, "'knock'")])
def test_a_bot_that_fails_is_said_as_its_failure_and_nothing_is_played(
    bot: object, error: type[Exception] | None, action: str | None
) -> None:
    session = session_of(players=2, seed=next(s for s in range(50) if session_of(players=2, seed=s).game.current_seat))
    session.bots[1] = bot  # type: ignore[assignment]
    events = list(session.game.events)
    failure = session.bot_move()
    assert isinstance(failure, BotFailure)
    assert failure.seat == 1
    assert (type(failure.error) if failure.error else None) is error
    assert (failure.action or "").startswith(action or "")
    assert session.game.events == events


def test_a_bots_choice_for_a_position_that_has_passed_is_not_played() -> None:
    session = session_of(players=2, seed=next(s for s in range(50) if session_of(players=2, seed=s).game.current_seat))
    turn = session.bot_turn()
    assert session.bot_move() is None  # play moves on meanwhile
    events = list(session.game.events)
    with pytest.raises(StaleMoveError):
        session.play_bot(turn, turn.view.legal_actions[0])
    assert session.game.events == events


def test_a_game_whose_next_deal_waits_is_recorded_with_that_deal() -> None:
    """A record holds every round begun: saved while a showdown shows, it takes the next deal on a
    copy, the deal the game then takes; the game itself still waits."""
    session = session_of()
    assert recorded(session.game) is session.game  # a round under way: the game as it is
    play_to_round_end(session)
    game = session.game
    ahead = recorded(game)
    assert ahead is not game
    assert game.is_chance()  # still waiting
    assert ahead.round == 2
    record = GameRecord.from_game(ahead)
    assert record.replay().events == ahead.events
    session.deal_next()
    assert game.round_logs[1].deck == ahead.round_logs[1].deck


# ------------------------------------------------------------------ hints, status, threads


class NoScreen:
    """Stands in for the app where a home needs none of it (no worker, no timer is started)."""

    size = type("Size", (), {"width": 80, "height": 24})()

    def __init__(self) -> None:
        self.workers: list[str] = []

    def run_worker(self, work: Coroutine[object, object, None], *, name: str, **options: object) -> None:
        work.close()  # not run: the search is not what is tested
        self.workers.append(name)


def hints_of(session: PlaySession, *, ready: bool = True) -> tuple[Hints, list[Text], list[str]]:
    preparation = Preparation(lambda: "loaded")
    if ready:
        preparation.wait()
    shown: list[Text] = []
    told: list[str] = []
    hints = Hints(
        NoScreen(),  # type: ignore[arg-type]
        session,
        preparation,
        messages("en"),
        width=lambda: 78,
        show=shown.append,
        tell=told.append,
        status=lambda: None,
    )
    return hints, shown, told


def test_a_hint_out_of_turn_says_why_there_is_none() -> None:
    session = session_of()
    hints, shown, told = hints_of(session)
    view = session.view()
    out = replace(view, current_seat=1, seats=(view.seats[0]._replace(out=True), *view.seats[1:]))
    hints.ask(out)
    hints.ask(replace(view, current_seat=None))
    assert told == [
        "Hints are for your own move: ask with ? when it is your turn (you are out of this game).",
        "Hints are for your own move: ask with ? when it is your turn (nobody is to move).",
    ]
    assert shown == []


def test_a_hint_with_one_move_says_it_without_a_search_and_a_timed_one_says_its_seconds() -> None:
    session = PlaySession(PlaySettings.create(Rules.preset("scat"), 3, "basic", seed=you_first(3), hint_seconds=0.5))
    hints, shown, _ = hints_of(session)
    view = session.view()
    hints.ask(replace(view, legal_actions=view.legal_actions[:1]))
    assert shown[-1].plain.startswith("Hint: ")
    assert shown[-1].plain.endswith("(the only move)")
    assert hints.app.workers == []  # type: ignore[attr-defined]
    hints.clear()
    hints.ask(view)
    assert hints.app.workers == ["hint"]  # type: ignore[attr-defined]
    assert "0.5 s" in hints.text.plain  # thinking for the settings' seconds, not a number of deals


async def test_a_hint_that_fails_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    def fails(self: ExpertBot, view: PlayerView, legal: object = None) -> Analysis:
        raise RuntimeError("no deals \x1b[2J")

    monkeypatch.setattr(ExpertBot, "analyse", fails)
    app = make_app("scat", 3, 8)
    async with app.run_test(size=SIZE) as pilot:
        await to_my_move(app, pilot)
        await pilot.press("?")
        await settle(app, pilot)
        assert app.hints.text.plain == "No hint here: no deals \\x1b[2J"
        assert app.hints.analysis is None


def test_the_title_keeps_the_game_round_and_seed_when_nothing_else_fits() -> None:
    session = session_of(seed=123456)
    hints, _, _ = hints_of(session)
    status = Status(session, Controls(), hints)
    view = session.view()
    assert status.title_text(view, 80) == Text("Thirty-One · Scat · game 1 · round 1 · seed 123456")
    assert status.title_text(view, 20).plain == "game 1 · round 1 · seed 123456"


def test_the_experts_state_goes_on_a_line_of_its_own_when_the_status_line_has_no_room() -> None:
    session = session_of(seed=you_first(3))
    hints, _, _ = hints_of(session, ready=False)
    hints.expert_used = True
    status = Status(session, Controls(), hints)
    line = status.status_text(session.view(), WaitingFor.YOU, 40).plain
    first, second = line.split("\n")
    assert first.startswith("Your turn")
    assert second.startswith("Expert getting ready")
    assert status.status_text(session.view(), WaitingFor.SHOWDOWN, 40).plain.count("Expert") == 0  # nobody is to move


def test_off_thread_hands_back_what_the_work_raised() -> None:
    def broken() -> int:
        raise KeyError("lost")

    with pytest.raises(KeyError, match="lost"):
        asyncio.run(off_thread(broken))


def test_a_bot_turn_is_refused_when_no_bot_is_to_move() -> None:
    session = session_of(players=2, seed=you_first(2))
    with pytest.raises(IllegalActionError) as refused:
        session.bot_turn()
    assert refused.value.code == "not_your_turn"
    play_to_round_end(session)
    with pytest.raises(IllegalActionError) as refused:
        session.bot_turn()
    assert refused.value.code == "chance_due"


# ------------------------------------------------------------------ the bots' pace


async def test_a_bots_search_from_a_game_that_has_passed_is_thrown_away(monkeypatch: pytest.MonkeyPatch) -> None:
    gate = threading.Event()

    def held(self: ExpertBot, view: PlayerView, legal: tuple[Action, ...]) -> Action:
        assert gate.wait(30)
        return legal[0]

    monkeypatch.setattr(ExpertBot, "choose", held)
    app = make_app("scat", 3, ada_moves_first(3), bots="hard:5,basic")
    played: list[BotTurn] = []
    async with app.run_test(size=SIZE) as pilot:
        play_bot = app.session.play_bot
        monkeypatch.setattr(app.session, "play_bot", lambda turn, choice: played.append(turn) or play_bot(turn, choice))
        await pilot.pause()
        assert app.pacing.thinking
        app.new_game()  # another game while Ada searches
        gate.set()
        await settle(app, pilot)
        await to_my_move(app, pilot)
        assert app._exception is None
    assert all(turn.position[0] == 2 for turn in played)  # the first game's search was not played


async def test_f_during_a_bots_pause_shows_its_turn_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pause after a searching bot's turn is waited out in short steps: ``f`` shows the turn
    and the game goes on, and the pause then ends without showing it twice."""
    monkeypatch.setattr(ExpertBot, "choose", lambda self, view, legal: legal[0])
    app = make_app("scat", 3, ada_moves_first(3), bots="hard:5,basic", fast=False, delay=10.0)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3000):  # until Ada's turn has been played, and its pause runs
            if app.game.round_logs[0].actions and not app.pacing.thinking:
                break
            await pilot.pause(0.01)
        assert [seat for seat, _ in app.game.round_logs[0].actions] == [1, 1]
        await pilot.press("f")
        await settle(app, pilot)
        await to_my_move(app, pilot)
        ada = [line for line in app.log_lines if line.startswith("Ada ")]
        assert len(ada) == 2  # drew and discarded, said once
        assert app._exception is None


# ------------------------------------------------------------------ the message under the status line


async def test_a_message_longer_than_its_room_is_cut_with_an_ellipsis() -> None:
    app = make_app("scat", 3, 7)
    async with app.run_test(size=SIZE) as pilot:
        await to_my_move(app, pilot)
        app.set_feedback("a refusal long enough to wrap " * 40, error=True)
        await pilot.pause()
        lines = app.message.plain.split("\n")
        assert 1 <= len(lines) <= 4
        assert lines[-1].endswith("…")
        assert all(len(line) <= SIZE[0] - 2 for line in lines)
