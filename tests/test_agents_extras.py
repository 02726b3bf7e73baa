"""The agent modules without their optional packages: importing one says, on one line, what to
install, and raises ``ModuleNotFoundError`` as a bare import would (so callers may catch either)."""

from __future__ import annotations

import importlib
import sys

import pytest

MISSING = [
    ("thirtyone.agents.gymnasium", "gymnasium", "agents"),
    ("thirtyone.agents.gymnasium", "pettingzoo", "agents"),
    ("thirtyone.agents.pettingzoo", "pettingzoo", "agents"),
    ("thirtyone.agents.pettingzoo", "gymnasium", "agents"),
    ("thirtyone.agents.openspiel", "pyspiel", "openspiel"),
    ("thirtyone.agents.ismcts", "pyspiel", "openspiel"),
    ("thirtyone.agents.solve", "pyspiel", "openspiel"),
    ("thirtyone.agents.sb3", "stable_baselines3", "rl"),
]


@pytest.mark.parametrize(("module", "missing", "extra"), MISSING)
def test_without_its_extra_an_agent_module_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, module: str, missing: str, extra: str
) -> None:
    monkeypatch.setitem(sys.modules, missing, None)  # an import of it now fails, as when it is absent
    for loaded in ("thirtyone.agents.gymnasium", "thirtyone.agents.pettingzoo", "thirtyone.agents.openspiel", module):
        monkeypatch.delitem(sys.modules, loaded, raising=False)  # imported afresh (gymnasium imports pettingzoo)
    with pytest.raises(ModuleNotFoundError) as caught:
        importlib.import_module(module)
    error = caught.value
    assert error.name is not None
    assert error.name.split(".")[0] == missing
    assert str(error).endswith(f" (pip install 'thirtyone[{extra}]')"), str(error)
    assert missing in str(error)
    assert "\n" not in str(error)
