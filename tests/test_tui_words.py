"""The terminal game's words, from real engine games: every round result, refusal and revealed
widow below is what the engine produced, narrated from its data (loss kinds, refusal codes,
``Acted.revealed``), never from the engine's English."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from helpers import scripted_game
from thirtyone import Game
from thirtyone import IllegalActionError
from thirtyone import Position
from thirtyone import Rules
from thirtyone import full_deck
from thirtyone import parse_cards
from thirtyone.events import RoundResult
from thirtyone.tui.screens import RoundEndScreen
from thirtyone.tui.words import Narrator
from thirtyone.tui.words import refusal_text
from thirtyone.views import Phase

YOU_ADA_BEA = ("you", "Ada (basic)", "Bea (basic)")


def showdown(
    rules: Rules,
    hands: tuple[str, ...],
    remaining: tuple[int, ...],
    knocker: int,
    to_move: int,
    *,
    stock: str = "4c",
    moves: tuple[str, ...] = ("draw stock", "discard 4c"),
) -> RoundResult:
    """Play the last turns after a knock from a draw-mode position and return the engine's result."""
    used = parse_cards(" ".join(hands) + " " + stock)
    pile = tuple(card for card in full_deck() if card not in used)
    position = Position(
        rules=rules,
        dealer=knocker,
        to_move=to_move,
        phase=Phase.TURN,
        hands=tuple(parse_cards(hand) for hand in hands),
        stock=tuple(parse_cards(stock)),
        discard_pile=pile,
        remaining=remaining,
        knocker=knocker,
    )
    game = Game.from_position(position, seed=1)
    for move in moves:
        game.apply(move)
    assert game.last_result is not None
    return game.last_result


def lines_of(narrator: Narrator, result: RoundResult) -> list[str]:
    return [line.plain for line in narrator.result_lines(result)]


def test_r6_5_knocker_alone_lowest_loses_two_and_the_dole_is_said() -> None:
    result = showdown(Rules.preset("scat"), ("Ah Kh 2c", "9s 8d 2h", "As Ks 3d"), (4, 3, 4), knocker=1, to_move=0)
    assert [(loss.seat, loss.lives, loss.kind) for loss in result.losses] == [(1, 2, "knocker_alone_lowest")]
    narrator = Narrator(YOU_ADA_BEA, Rules.preset("scat"))
    narrator.remaining = [4, 3, 4]
    assert lines_of(narrator, result) == [
        "Round 1: showdown, Ada knocked.",
        "Ada lost 2 lives: knocked and alone had the lowest hand (R6.5).",
        "Ada is on the dole now: one more loss and out.",
    ]


def test_a_player_on_the_grace_life_who_loses_is_out_and_the_showdown_table_says_so() -> None:
    rules = Rules.preset("scat")
    result = showdown(rules, ("9s 8d 2h", "Ah Kh 2c", "As Ks 3d"), (1, 2, 4), knocker=0, to_move=1,
                      stock="4c 5c", moves=("draw stock", "discard 4c", "draw stock", "discard 5c"),
                      )  # fmt: skip
    narrator = Narrator(YOU_ADA_BEA, rules)
    narrator.remaining = [1, 2, 4]
    lines = lines_of(narrator, result)
    assert "You were on the dole and are out: knocked and alone had the lowest hand (R6.5)." in lines
    assert not any("lost 2 lives" in line for line in lines)
    assert "You are out." not in lines  # said once
    screen = RoundEndScreen(result, narrator.result_lines(result), YOU_ADA_BEA, rules, before=(1, 2, 4))
    console = Console(width=76, file=io.StringIO(), record=True)
    console.print(screen.render_result())
    row = next(line.strip() for line in console.export_text().splitlines() if line.strip().startswith("you"))
    assert "−1" in row
    assert "−2" not in row
    assert row.rstrip().endswith("out")


def test_r2_6_nobody_is_out_when_everyone_would_be() -> None:
    rules = Rules.preset("scat", lives=1, knock_penalty="plain")
    result = showdown(rules, ("9c 8d 2h", "9s 7d 3h"), (1, 1), knocker=1, to_move=0)
    assert result.saved_by_r2_6
    narrator = Narrator(("you", "Ada (basic)"), rules)
    narrator.remaining = [1, 1]
    lines = lines_of(narrator, result)
    assert "You and Ada were on the dole and would be out: lowest hand (R6.5)." in lines
    assert any(line.startswith("R2.6:") for line in lines)


def test_r6_5_tied_with_a_saved_knocker_names_the_knocker() -> None:
    rules = Rules.preset("scat")
    result = showdown(rules, ("9c 8d 2h", "9s 7d 3h", "As Ks 3d"), (4, 4, 4), knocker=1, to_move=2,
                      stock="4c 5c", moves=("draw stock", "discard 4c", "draw stock", "discard 5c"),
                      )  # fmt: skip
    kinds = {loss.seat: (loss.kind, loss.seats) for loss in result.losses}
    assert kinds == {0: ("lowest_knocker_saved", (1,))}
    narrator = Narrator(YOU_ADA_BEA, rules)
    assert "You lost 1 life: lowest hand; Ada (knocked) tied and is saved (R6.5)." in lines_of(narrator, result)


def test_two_players_out_together_on_the_bus() -> None:
    rules = Rules.preset("widow")
    position = Position(
        rules=rules,
        dealer=2,
        to_move=1,
        phase=Phase.TURN,
        hands=(parse_cards("As Ks 9s"), parse_cards("9c 8d 2h"), parse_cards("9h 8c 2d")),
        widow=parse_cards("4h 5d 6c"),
        widow_face_up=True,
        stock=tuple(card for card in full_deck() if card not in parse_cards("As Ks 9s 9c 8d 2h 9h 8c 2d 4h 5d 6c")),
        remaining=(4, 1, 1),
        knocker=0,
    )
    game = Game.from_position(position, seed=1)
    game.apply("pass")
    game.apply("pass")
    assert game.last_result is not None
    assert game.is_over
    narrator = Narrator(YOU_ADA_BEA, rules)
    narrator.remaining = [4, 1, 1]
    assert "Ada and Bea were on the bus and are out: lowest hand (R6.5)." in lines_of(narrator, game.last_result)


def test_r5_2_a_31_on_the_deal_is_got_in_the_deal() -> None:
    rules = Rules.preset("widow")
    game = scripted_game(rules, 4, 0, {2: "As Ks Qs"})
    result = game.round_logs[0].result
    assert result is not None
    assert result.end == "dealt_blitz"
    narrator = Narrator(("Sam", "Ada (basic)", "Bea (basic)", "Cy (random)"), rules)
    assert lines_of(narrator, result) == [
        "Round 1: Blitz on the deal! Bea was dealt 31.",
        "Sam, Ada, and Cy lost 1 life: Bea got 31 in the deal (R5.2).",
    ]


def test_r5_1_a_blitz_is_shown_by_its_seat() -> None:
    game = scripted_game(Rules.preset("scat"), 3, 2, {0: "As Ks 2d"}, upcard="Qs")
    game.apply("draw pile")
    game.apply("discard 2d")
    result = game.round_logs[0].result
    assert result is not None
    assert result.end == "blitz"
    narrator = Narrator(YOU_ADA_BEA, Rules.preset("scat"))
    lines = lines_of(narrator, result)
    assert lines[0] == "Round 1: Blitz! You showed 31."  # the game's word for it, as the page says it
    assert "Ada and Bea lost 1 life: you showed 31 (R5.1)." in lines


def test_r7_2_the_widow_turned_up_by_the_openers_pass_is_narrated_from_the_event() -> None:
    game = Game(Rules.preset("widow"), 3, seed=4)
    opener = game.current_seat
    assert opener is not None
    widow = game.widow
    game.apply("pass")
    event = game.events[-1]
    assert event.revealed == widow  # type: ignore[union-attr]
    names = ("you", "Ada (basic)", "Bea (basic)")
    narrator = Narrator(names, game.rules)
    lines = [line.plain for line in narrator.describe(event.for_seat(0))]
    assert lines[1] == "The widow is turned face up: " + " ".join(card.pretty for card in widow) + "."


def test_r7_2_a_whole_hand_exchange_names_the_hand_laid_down() -> None:
    game = Game(Rules.preset("widow"), 3, seed=4)
    seat = game.current_seat
    assert seat is not None
    old = game.hand(seat)
    game.apply("exchange all")
    event = game.events[-1]
    narrator = Narrator(("you", "Ada (basic)", "Bea (basic)"), game.rules)
    line = narrator.describe(event.for_seat((seat + 1) % 3))[0].plain
    assert line.endswith("the old hand lies face up: " + " ".join(card.pretty for card in old))
    assert "(" not in line  # the face-down widow's cards are not shown to another seat


@pytest.mark.parametrize(
    ("moves", "words"),
    [
        (("draw pile",), "R4.2: you cannot discard {taken}, just taken from the discard pile; discard another"),
        ((), "R4.1: draw a card before you discard"),
    ],
)
def test_refusals_are_worded_from_their_code(moves: tuple[str, ...], words: str) -> None:
    game = Game(Rules.preset("scat"), 3, seed=2)
    taken = game.discard_pile[-1]
    for move in moves:
        game.apply(move)
    with pytest.raises(IllegalActionError) as refused:
        game.apply(f"discard {taken}")
    text = refusal_text(refused.value, YOU_ADA_BEA)
    assert text == words.format(taken=taken.pretty)


def test_second_knock_and_turn_refusals_name_the_players() -> None:
    game = Game(Rules.preset("scat"), 3, seed=2)
    first = game.current_seat
    assert first is not None
    game.apply("knock")
    with pytest.raises(IllegalActionError) as refused:
        game.apply("knock")
    names = tuple("you" if seat == game.current_seat else name for seat, name in enumerate(("Ann", "Ada", "Bea")))
    assert refusal_text(refused.value, names) == (f"R6.1: {names[first]} has already knocked; only one knock per round")
    other = next(seat for seat in range(3) if seat != game.current_seat)
    with pytest.raises(IllegalActionError) as wrong:
        game.apply("draw stock", seat=other)
    assert refusal_text(wrong.value, names) == f"R2.1: it is {names[game.current_seat or 0]}'s turn"


def test_you_as_the_saved_knocker_reads_in_the_second_person() -> None:
    result = showdown(Rules.preset("scat"), ("9c 8d 2h", "9s 7d 3h", "As Ks 3d"), (4, 4, 4), knocker=0, to_move=1,
                      stock="4c 5c", moves=("draw stock", "discard 4c", "draw stock", "discard 5c"),
                      )  # fmt: skip
    assert "Ada lost 1 life: lowest hand; you (knocked) tied and are saved (R6.5)." in lines_of(
        Narrator(YOU_ADA_BEA, Rules.preset("scat")), result
    )


def test_r6_5_widow_knocker_among_the_lowest_reads_for_you() -> None:
    rules = Rules.preset("scat", knock_penalty="widow")
    result = showdown(rules, ("9c 8d 2h", "9s 7d 3h", "As Ks 3d"), (4, 4, 4), knocker=0, to_move=1,
                      stock="4c 5c", moves=("draw stock", "discard 4c", "draw stock", "discard 5c"),
                      )  # fmt: skip
    lines = lines_of(Narrator(YOU_ADA_BEA, rules), result)
    assert "You lost 2 lives: knocked and held the lowest hand (R6.5)." in lines
    assert "Ada lost 1 life: lowest hand (R6.5)." in lines


def test_a_schwimmen_player_on_the_grace_life_was_swimming() -> None:
    rules = Rules.preset("schwimmen")
    position = Position(
        rules=rules,
        dealer=2,
        to_move=1,
        phase=Phase.TURN,
        hands=(parse_cards("As Ks 9s"), parse_cards("7c 8d 9h"), parse_cards("7h 8c 9d")),
        widow=parse_cards("Th Jd Qc"),
        widow_face_up=True,
        stock=tuple(card for card in full_deck(32) if card not in parse_cards("As Ks 9s 7c 8d 9h 7h 8c 9d Th Jd Qc")),
        remaining=(4, 1, 4),
        knocker=0,
        turn=3,
    )
    game = Game.from_position(position, seed=1)
    game.apply("pass")
    game.apply("pass")
    result = game.round_logs[0].result
    assert result is not None
    narrator = Narrator(YOU_ADA_BEA, rules)
    narrator.remaining = [4, 1, 4]
    assert "Ada was swimming (schwimmt) and is out: lowest hand (R6.5)." in lines_of(narrator, result)


@pytest.mark.parametrize(
    ("lang", "names", "said"),
    [
        ("en", YOU_ADA_BEA, "Round 1: showdown, you knocked."),
        ("de", ("du", "Ada (basic)", "Bea (basic)"), "Runde 1: Aufdecken. Du hast geklopft."),
        ("cs", ("vy", "Ada (basic)", "Bea (basic)"), "Kolo 1: vyhodnocení. Vy jste klepali."),
        ("de", ("Sam", "Ada (basic)", "Bea (basic)"), "Runde 1: Aufdecken. Geklopft hat: Sam."),
    ],
)
def test_the_headline_of_your_own_knock_is_cased_as_its_sentence_needs(
    lang: str, names: tuple[str, ...], said: str
) -> None:
    """Regression: German said "Aufdecken. du hast geklopft." (the pronoun after a full stop)."""
    from thirtyone.i18n import messages

    result = showdown(Rules.preset("scat"), ("Ah Kh Qh", "9s 8d 2h", "As Ks 3d"), (4, 4, 4), knocker=0, to_move=1,
                      moves=("draw stock", "discard 4c", "draw stock", "discard 2c"), stock="4c 2c")  # fmt: skip
    narrator = Narrator(names, Rules.preset("scat"), t=messages(lang))
    assert narrator.headline(result).plain == said


def test_issue40_records_keep_the_bots_kind_and_every_screen_translates_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 40, item 7: a German game's record kept "Ada (einfach)" and "du"; it keeps the kinds
    and the default name in English, and a review in German says them in German, "(seat 2)"
    of a simulated game's seats included."""
    from thirtyone.bots.review import Reviewer
    from thirtyone.i18n import messages
    from thirtyone.record import GameRecord
    from thirtyone.tui.autosave import Autosave
    from thirtyone.tui.review_text import review_lines
    from thirtyone.tui.session import PlaySession
    from thirtyone.tui.settings import PlaySettings

    settings = PlaySettings.create(Rules.preset("scat"), 3, "easy,hard", seed=5, lang="de", record=tmp_path / "g.toml")
    session = PlaySession(settings)
    assert session.names == ("du", "Ada (einfach)", "Bea (Experte)")
    session.play(session.view().legal_actions[0])
    Autosave(session).save()
    record = GameRecord.loads((tmp_path / "g.toml").read_text(encoding="utf-8"))
    assert record.seats == ("you", "Ada (basic)", "Bea (expert)")

    game = Game(Rules.preset("mini"), 2, seed=1)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    simulated = GameRecord.from_game(game, ["basic (seat 0)", "heuristic (seat 1)"])
    review = Reviewer(simulated, [1], worlds=2).review()
    console = Console(width=120, file=io.StringIO(), record=True, color_system=None)
    for line in review_lines(messages("de"), review, "g.toml"):
        console.print(line)
    text = console.export_text()
    assert "heuristisch (Platz 1)" in text
    assert "(seat" not in text
