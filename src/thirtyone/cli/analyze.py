"""``thirtyone analyze``: the odds of a variant (:mod:`thirtyone.arena.odds`), exact where the cards
can be enumerated and simulated on the compiled simulator elsewhere, each figure saying which.

It prints one table a section (``--json``: the same figures as JSON, intervals included) and with
``--chart DIR`` writes the charts as SVG (:mod:`thirtyone.arena.odds_charts`). ``DIR`` must be a new
folder or one without charts unless ``--overwrite``, which removes them first (so no chart of an
earlier run is left among the new ones). The sizes of the simulations are options (0 skips a
section); the seed makes every simulated figure repeatable. Ctrl-C prints what was done, marked
partial (and writes its charts), and exits with status 130; SIGTERM (``timeout``, ``kill``) does the
same with 143 (:func:`thirtyone.cli.stopping.stopping`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import secrets
from pathlib import Path

from rich.console import Console

from thirtyone.arena.odds_options import CHART_FILES
from thirtyone.arena.odds_options import EXPERT_ROUNDS
from thirtyone.arena.odds_options import FALLBACK
from thirtyone.arena.odds_options import JUDGE
from thirtyone.arena.odds_options import JUDGE_ROUNDS
from thirtyone.arena.odds_options import SIZES
from thirtyone.arena.odds_options import OddsError
from thirtyone.arena.odds_options import Sizes
from thirtyone.arena.odds_options import check_size
from thirtyone.arena.odds_options import knocks_bot
from thirtyone.arena.report import progress_bar
from thirtyone.cli.options import add_players_argument
from thirtyone.cli.options import add_rules_arguments
from thirtyone.cli.options import make_folder
from thirtyone.cli.options import output_folder
from thirtyone.cli.options import rules_from_args
from thirtyone.cli.options import seed_number
from thirtyone.cli.options import whole_number
from thirtyone.cli.stopping import Stop
from thirtyone.cli.stopping import stopping

__all__ = ["configure", "run"]

_DEFAULTS = Sizes()


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``analyze``."""
    add_players_argument(parser)
    parser.add_argument(
        "--seed", type=seed_number, default=None, metavar="S", help="seed: same seed, same figures (default: random)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON (with every 95%% interval)")
    parser.add_argument(
        "--chart",
        default=None,
        metavar="DIR",
        help=f"write the charts as SVG into this folder ({', '.join(CHART_FILES)}); new, or one without charts "
        "unless --overwrite",
    )
    parser.add_argument("--overwrite", action="store_true", help="replace the charts already in --chart DIR")
    sizes = parser.add_argument_group("sizes of the simulations (0 skips a section)")
    for name, (high, what) in SIZES.items():
        default = getattr(_DEFAULTS, name)
        shown = (
            f"{default:,}"
            if default is not None
            else f"{JUDGE_ROUNDS['draw']} with the judge in draw mode, {JUDGE_ROUNDS['widow']:,} in widow mode; "
            f"{EXPERT_ROUNDS} with an expert"
        )
        sizes.add_argument(
            f"--{name.replace('_', '-')}",
            type=whole_number,
            default=default,
            metavar="N",
            help=f"{what}, 0-{high:,} (default {shown})",
        )
    sizes.add_argument(
        "--expert",
        default=None,
        metavar="NAME",
        help=f"the bot in every seat for the knocks: {JUDGE}, {JUDGE}:PATH or an expert and its budget "
        f"(expert:100, hard:0.1s) (default: {JUDGE} where it plays the table, else {FALLBACK})",
    )
    add_rules_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Analyse the rules and print the figures; 0 when every section was done, 130 when Ctrl-C
    stopped it and 143 when SIGTERM did (after printing what was done, marked partial)."""
    # numpy (and matplotlib for charts) only when analysing: the other commands run without them
    from thirtyone.arena.odds import Advance
    from thirtyone.arena.odds import Analysis
    from thirtyone.arena.odds_charts import write_charts
    from thirtyone.arena.odds_report import render

    rules = rules_from_args(args)
    players = rules.check_players(args.players)
    for name in SIZES:
        if getattr(args, name) is not None:
            check_size(name, getattr(args, name), f"--{name.replace('_', '-')}")
    knocks_bot(args.expert, rules, players, "--expert")
    sizes = Sizes(**{name: getattr(args, name) for name in SIZES}, expert=args.expert)
    folder = output_folder(args.chart, args.overwrite, "--chart", "charts", _earlier_charts, OddsError)
    seed: int = args.seed if args.seed is not None else secrets.randbits(32)
    analysis = Analysis(rules, players, sizes, seed)
    if folder is not None:
        make_folder(folder, "--chart", OddsError)
        for name in CHART_FILES:
            (folder / name).unlink(missing_ok=True)
    console = Console(stderr=True)
    stopped: Stop | None = None
    with stopping() as stop, contextlib.ExitStack() as bars:

        def progress(label: str, total: int) -> Advance:
            bars.close()  # the bar of the section before
            advance: Advance = bars.enter_context(progress_bar(console, total, label=label))
            return advance

        try:
            analysis.run(progress)
        except KeyboardInterrupt:
            stopped = stop
            analysis.stopped = stop.word
    data = analysis.to_dict()
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        Console().print(render(data))
    if folder is not None:
        written = write_charts(analysis, folder)
        console.print(f"charts: {', '.join(str(path) for path in written)}", markup=False, soft_wrap=True)
    if stopped is not None:
        console.print(f"thirtyone: {stopped.word}: the results above are partial", markup=False)
        return stopped.status
    return 0


def _earlier_charts(folder: Path) -> list[str]:
    """The charts an earlier run left in ``folder``."""
    return [name for name in CHART_FILES if (folder / name).exists()]
