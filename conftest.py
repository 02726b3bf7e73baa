"""What pytest collects beyond tests/: the doctests of every module (pyproject.toml's addopts), but not
those of a module whose optional extra the test extra leaves out: agents/sb3.py needs the ``rl`` extra
(torch and Stable-Baselines3; an unpinned torch pulls a build of several GB), and its tests skip without it."""

from __future__ import annotations

import importlib.util

collect_ignore = [] if importlib.util.find_spec("stable_baselines3") else ["src/thirtyone/agents/sb3.py"]
