"""The server's own HTTP endpoints (an :class:`~fastapi.APIRouter`): ``GET /api/health``
(``{"ok": true, "version": …}``) and ``GET /api/presets`` (the presets, every rule option, the
bot levels and the limits a client should know; docs/server-protocol.md, "HTTP")."""

from __future__ import annotations

from fastapi import APIRouter

from thirtyone import __version__
from thirtyone.errors import ThirtyOneError
from thirtyone.rules import OPTIONS
from thirtyone.rules import PRESETS
from thirtyone.rules import Rules
from thirtyone.server.autoplay import BOT_LEVELS
from thirtyone.server.deps import Settings
from thirtyone.server.limits import MAX_NAME
from thirtyone.server.limits import MAX_SEATS
from thirtyone.server.serialize import JSON

__all__ = ["router"]

router = APIRouter()


@router.get("/api/health")
async def health() -> JSON:
    return {"ok": True, "version": __version__}


@router.get("/api/presets")
async def presets(settings: Settings) -> JSON:
    return {
        "presets": {name: rules.options() for name, rules in PRESETS.items()},
        "options": {
            name: {
                "kind": spec.kind,
                "choices": list(spec.choices) or None,
                "low": spec.low if spec.kind == "int" else None,
                "high": spec.high if spec.kind == "int" else None,
                "only": list(spec.only) or None,
                "mode": spec.mode or _only_mode(name),
                "rule": spec.rule,
                "help": spec.help,
            }
            for name, spec in OPTIONS.items()
        },
        "bot_levels": list(BOT_LEVELS),
        "limits": {"max_seats": MAX_SEATS, "max_name": MAX_NAME, **settings.limits_json()},
    }


def _only_mode(option: str) -> str | None:
    """The one mode (``draw``/``widow``) where an on/off option can be turned on, when the rules
    refuse it in the other (``throw_down`` needs draw mode, R6.6); ``None`` when both take it."""
    spec = OPTIONS[option]
    if spec.kind != "bool":
        return None
    modes = []
    for preset in ("scat", "widow"):  # a preset of each mode, with the option turned on
        try:
            rules = Rules(**{**PRESETS[preset].options(), option: True})
        except ThirtyOneError:
            continue
        modes.append(rules.mode)
    return modes[0] if len(modes) == 1 else None
