"""The one registry of bots and levels (:mod:`thirtyone.bots.levels`): every level resolves to a
bot, the faces (server, terminal game, arena, simulate, the simulator's vector env) read their
levels, budgets and simulator bots from it, ``expert-v1`` is today's expert, and bad names and
budgets are refused with one clear line."""

from __future__ import annotations

import hashlib

import pytest

from thirtyone import Game
from thirtyone import Rules
from thirtyone.bots import BOTS
from thirtyone.bots import LEVELS
from thirtyone.bots import ExpertBot
from thirtyone.bots import UnknownBotError
from thirtyone.bots import make_bot
from thirtyone.bots import parse_bot_list
from thirtyone.bots.levels import BOT_INFO
from thirtyone.bots.levels import LEVEL_INFO
from thirtyone.bots.levels import LEVEL_SPECS
from thirtyone.bots.levels import MAX_EXPERT_SECONDS
from thirtyone.bots.levels import MAX_EXPERT_WORLDS
from thirtyone.bots.levels import SIM_BOTS
from thirtyone.bots.levels import SIM_EXACT_BOTS
from thirtyone.bots.levels import TABLE_EXPERT_SECONDS
from thirtyone.bots.levels import THINKING_LEVELS
from thirtyone.bots.levels import level
from thirtyone.bots.levels import parse_budget
from thirtyone.bots.levels import resolve
from thirtyone.bots.levels import sim_policy
from thirtyone.bots.levels import takes_budget
from thirtyone.cli import main


def test_every_level_resolves_to_a_built_in_bot_with_its_table_budget() -> None:
    for name, info in LEVEL_INFO.items():
        assert info.bot in BOT_INFO, name
        assert make_bot(name, 1).name == info.bot
        assert make_bot(info.spec, 1).name == info.bot
        assert level(name.upper()) is info
        assert resolve(name) == info.bot
        if info.seconds is not None:
            bot = make_bot(info.spec, 1)
            assert isinstance(bot, ExpertBot)
            assert bot.seconds == info.seconds
    assert LEVEL_INFO["hard"].spec == f"expert:{TABLE_EXPERT_SECONDS:g}s" == "expert:0.4s"
    assert THINKING_LEVELS == ("medium", "hard")
    assert list(LEVEL_SPECS) == ["easy", "medium", "hard", "random"]


def test_every_built_in_bot_is_made_by_its_name_and_the_aliases_are_the_levels() -> None:
    assert list(BOTS) == list(BOT_INFO) == ["random", "basic", "heuristic", "expert", "judge", "expert-v1"]
    for name, info in BOT_INFO.items():
        assert make_bot(name, 2).name == name
        assert takes_budget(name) == info.budget
        assert (info.sim_policy is not None) >= info.sim_exact
    assert LEVELS == {"easy": "basic", "medium": "heuristic", "hard": "expert"}
    assert [name for name, info in BOT_INFO.items() if info.budget] == ["expert", "expert-v1"]


def test_thirtyone_bots_lists_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots"]) == 0
    out = capsys.readouterr().out
    for name, info in BOT_INFO.items():
        assert info.summary in out, name
    assert "expert (hard)" in out
    assert "  expert-v1 " in out


@pytest.mark.parametrize("spec", ["expert-v1:200", "expert-v1:0.05s", "expert-v1:20:engine", "EXPERT-V1:200"])
def test_expert_v1_takes_the_experts_budgets(spec: str) -> None:
    bot = make_bot(spec, 3)
    assert isinstance(bot, ExpertBot)
    assert bot.name == "expert-v1"
    plain = make_bot(spec.lower().replace("expert-v1", "expert"), 3)
    assert (bot.worlds, bot.seconds, bot.rollouts) == (plain.worlds, plain.seconds, plain.rollouts)  # type: ignore[attr-defined]
    assert parse_bot_list(f"basic,{spec}", 3)[1] == spec.lower()


# The digest of expert-v1's estimates (every action and mean, in order) at the six first decisions
# of these games, as the expert before the belief (commit f71cdab) made them: expert-v1 keeps them,
# with its rollout policy's fixes since (the heuristic takes a pile card, 56d7718, or a widow card
# that makes 31 rather than knock; the digests were 1e9f47e7f2e1b11921d3004d6520f588 and
# 159353c629c4eebe00f8f5fef4f47d32 before them).
V1_DIGESTS = {"scat": "45a9769c95de7d30c4505ed266d1fe6b", "widow": "64b05ac027b4c9c68018e4c3d67d1695"}


@pytest.mark.parametrize("preset", ["scat", "widow"])
def test_expert_v1_plays_the_moves_of_the_expert_before_the_belief(preset: str) -> None:
    game = Game(Rules.preset(preset), 3, seed=8)
    rows = []
    while not game.is_over and len(rows) < 6:
        seat = game.current_seat
        assert seat is not None
        view = game.view(seat)
        if len(view.legal_actions) > 1:
            analysis = make_bot("expert-v1:12:engine", seat).analyse(view)  # type: ignore[attr-defined]
            rows.append([(str(e.action), e.mean.hex()) for e in analysis.estimates])
        game.apply(make_bot("heuristic", 0).choose(view, view.legal_actions))
    assert len(rows) == 6
    assert hashlib.sha256(repr(rows).encode()).hexdigest()[:32] == V1_DIGESTS[preset]


def test_the_arena_and_simulate_play_exactly_the_registrys_simulator_bots() -> None:
    from thirtyone.arena import play
    from thirtyone.cli import options
    from thirtyone.cli import simulate

    assert play.SIM_BOTS is SIM_BOTS is options.SIM_BOTS is simulate.SIM_BOTS
    assert SIM_BOTS == {"random": "random", "basic": "basic", "easy": "basic"}
    assert SIM_EXACT_BOTS == ("random", "basic")
    for name, policy in SIM_BOTS.items():
        assert BOT_INFO[resolve(name)].sim_exact
        assert sim_policy(name) == policy


def test_the_simulators_policies_are_the_registrys() -> None:
    from thirtyone.sim.codes import POLICIES

    assert {info.sim_policy for info in BOT_INFO.values() if info.sim_policy} == set(POLICIES)
    assert [sim_policy(name) for name in ("easy", "Medium", "hard", "random", "expert-v1", "basic:3")] == [
        "basic",
        "heuristic",
        None,
        "random",
        None,
        None,
    ]


def test_the_vector_envs_seats_are_the_registrys_simulator_bots() -> None:
    pytest.importorskip("numba")
    from thirtyone.agents.vector import _seats
    from thirtyone.sim.errors import SimInputError

    for name in [*BOT_INFO, *LEVEL_INFO]:
        policy = sim_policy(name)
        if policy is None:
            with pytest.raises(SimInputError, match="is not agent"):
                _seats(["agent", name], 2)
        else:
            assert _seats(["agent", name.upper()], 2) == ("agent", policy)


def test_the_simulator_knows_its_policies_by_their_own_names_only() -> None:
    """The levels are the bots' registry's (a layer above the simulator): ``sim`` plays
    ``basic``, not ``easy``; the arena, ``simulate`` and the vector env translate."""
    pytest.importorskip("numba")
    from thirtyone.sim import SimInputError
    from thirtyone.sim import play_rounds

    with pytest.raises(SimInputError, match="unknown policy 'easy': the simulator plays random, basic, heuristic"):
        play_rounds(Rules(), 2, rounds=1, policy="easy")


def test_the_server_reads_its_levels_from_the_registry() -> None:
    pytest.importorskip("sqlalchemy")
    from thirtyone.server import autoplay
    from thirtyone.server import service

    assert autoplay.BOT_LEVELS == LEVEL_SPECS
    assert autoplay.BOT_LEVELS is not LEVEL_SPECS  # serve --bot adds to the server's own
    assert autoplay.THINKING_LEVELS == THINKING_LEVELS
    assert autoplay.HARD_SECONDS == LEVEL_INFO["hard"].seconds == TABLE_EXPERT_SECONDS
    assert {
        **{name: name for name in LEVEL_INFO},
        "basic": "easy",
        "heuristic": "medium",
        "expert": "hard",
    } == service.LEVEL_NAMES


def test_the_terminal_game_reads_its_expert_budget_from_the_registry() -> None:
    from thirtyone.tui.settings import PLAY_EXPERT_SECONDS
    from thirtyone.tui.settings import play_bot_spec

    assert PLAY_EXPERT_SECONDS == TABLE_EXPERT_SECONDS
    assert play_bot_spec("hard") == play_bot_spec("expert") == LEVEL_INFO["hard"].spec
    assert play_bot_spec("expert-v1") == f"expert-v1:{TABLE_EXPERT_SECONDS:g}s"
    assert play_bot_spec("hard:200") == "hard:200"
    assert play_bot_spec("medium") == "medium"


def test_serve_refuses_a_level_the_registry_has() -> None:
    from thirtyone.cli.serve import ServeError
    from thirtyone.cli.serve import bot_levels

    for name in [*LEVEL_INFO, *(name for name in BOT_INFO if name.isidentifier())]:
        with pytest.raises(ServeError, match="exists already"):
            bot_levels([f"{name}=basic"])


LIMITS = (
    f"give 1 to {MAX_EXPERT_WORLDS:,} worlds per decision (expert:200) or more than 0 and up to "
    f"{MAX_EXPERT_SECONDS:,.0f} seconds (expert:0.5s)"
)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("grandmaster", "unknown bot 'grandmaster': choose one of random, basic, heuristic, expert, judge, expert-v1 "
         "(or easy, medium, hard), an installed one (ismcts, mini-eq, policy:PATH, ppo), "
         "or module:factory for a bot of your own"),
        ("expert:0", f"bad expert budget '0' in 'expert:0': {LIMITS}"),
        ("expert:-3", f"bad expert budget '-3' in 'expert:-3': {LIMITS}"),
        ("expert:1e9", f"bad expert budget '1e9' in 'expert:1e9': {LIMITS}"),
        ("expert:2000000", f"bad expert budget '2000000' in 'expert:2000000': {LIMITS}"),
        ("expert:1e9s", f"bad expert budget '1e9s' in 'expert:1e9s': {LIMITS}"),
        ("expert:0s", f"bad expert budget '0s' in 'expert:0s': {LIMITS}"),
        ("expert:-0.5s", f"bad expert budget '-0.5s' in 'expert:-0.5s': {LIMITS}"),
        ("expert:nans", f"bad expert budget 'nans' in 'expert:nans': {LIMITS}"),
        ("expert:infs", f"bad expert budget 'infs' in 'expert:infs': {LIMITS}"),
        ("expert:abc", f"bad expert budget 'abc' in 'expert:abc': {LIMITS}"),
        ("expert:", f"bad expert budget '' in 'expert:': {LIMITS}"),
        ("basic:", "bot 'basic' takes no budget: only expert and expert-v1 do (expert:200, expert:0.5s)"),
        ("Hard:abc", f"bad expert budget 'abc' in 'Hard:abc': {LIMITS}"),
        ("expert-v1:abc", "bad expert-v1 budget 'abc' in 'expert-v1:abc': give 1 to 1,000,000 worlds per decision "
         "(expert-v1:200) or more than 0 and up to 3,600 seconds (expert-v1:0.5s)"),
        ("expert:20:gpu", "bad expert rollouts 'gpu': give sim, engine or auto (expert:200:engine)"),
        ("basic:10", "bot 'basic' takes no budget: only expert and expert-v1 do (expert:200, expert:0.5s)"),
        ("medium:10", "bot 'heuristic' takes no budget: only expert and expert-v1 do (expert:200, expert:0.5s)"),
    ],
)  # fmt: skip
def test_unknown_bots_and_bad_budgets_are_refused_in_one_line(name: str, message: str) -> None:
    with pytest.raises(UnknownBotError) as caught:
        make_bot(name)
    assert str(caught.value) == message
    assert "\n" not in message


@pytest.mark.parametrize("name", ["grandmaster", "", "expert", "hard:0.4s"])
def test_an_unknown_level_is_refused_naming_the_levels(name: str) -> None:
    with pytest.raises(UnknownBotError, match=r"^unknown bot level .*: choose one of easy, medium, hard, random$"):
        level(name)


def test_a_budget_parses_to_worlds_seconds_and_rollouts() -> None:
    assert parse_budget("expert:200") == (200, None, "auto")
    assert parse_budget("hard:0.5s:sim") == (MAX_EXPERT_WORLDS, 0.5, "sim")
    assert parse_budget(f"expert:{MAX_EXPERT_SECONDS:g}s:engine") == (MAX_EXPERT_WORLDS, MAX_EXPERT_SECONDS, "engine")
    with pytest.raises(UnknownBotError, match="takes no budget"):
        parse_budget("random:3")


def test_the_experts_default_cap_keeps_a_decision_under_half_a_second_and_expert_v1_keeps_its_own() -> None:
    """Issue 15, item 4: p99 time per decision at the default budget under 0.5 s (the belief's
    worlds cost more); ``expert-v1`` keeps the budget it had."""
    from thirtyone.bots.expert import DEFAULT_SECONDS
    from thirtyone.bots.expert import DEFAULT_WORLDS
    from thirtyone.bots.expert import V1_DEFAULT_SECONDS

    expert, v1 = make_bot("expert"), make_bot("expert-v1")
    assert (expert.worlds, expert.seconds) == (DEFAULT_WORLDS, DEFAULT_SECONDS)  # type: ignore[attr-defined]
    assert DEFAULT_SECONDS < 0.5
    assert (v1.worlds, v1.seconds) == (1000, V1_DEFAULT_SECONDS) == (1000, 1.0)  # type: ignore[attr-defined]
    assert make_bot("expert-v1:0.2s").seconds == 0.2  # type: ignore[attr-defined]
