"""``thirtyone serve``: tables to play Thirty-One over the network (FastAPI on Uvicorn, SQLAlchemy 2
with Alembic migrations; an SQLite file by default, PostgreSQL by URL). Needs the ``server`` extra:
``pip install 'thirtyone[server]'``.

A face of the project: it talks to the core only through its public API. The server is the one
authority over every game (the engine checks every action); each connection gets only what its
seat may know (``Game.view(seat)``), spectators only what is public; every action is in the
database before it is acknowledged, so a killed server resumes every table where it was; every
deal is committed to (SHA-256 of a secret salt and the deck order) before it is dealt and revealed
after its round, and the game records keep both for ``thirtyone verify``.

===============  ====================================================================
``app``          :func:`create_app`: the application, its routers and error answers
``routes_*``     one router a resource: ``server`` (health, presets), ``tables``,
                 ``records`` (the record, the replay's data), ``socket`` (the WebSocket);
                 ``deps`` what they take from the app; ``middleware`` limits and headers
``service``      creating tables, the lobby, the runners of the tables being served
``runner``       one table: every change to it (one at a time), catching up
``table``        a table's state: what is stored, its history, its game; moves on a copy
``history``      a table's deals and actions as they grow: what is stored, told and recorded
``seating``      joining, seats and tokens, seeds, a seat for a bot, the game's start
``broadcast``    what each connection is told; ``state_json`` the state, serialized once
``connections``  a table's WebSocket clients, each with its send queue
``messages``     what a table tells its clients (pure functions)
``autoplay``     a table's bots and turn timer
``randomness``   every random choice the server makes, from one source
``store``        every database read and write; ``rows`` what is stored, each field once;
                 ``appends`` the actions' writes; ``models`` the tables; ``db`` opening
                 and migrating the database; ``migrations`` the Alembic scripts
``fair``         the committed deals; ``serialize`` the JSON of views and events
``limits``       names, codes, tokens (hashed, compared in constant time), rates
``pages``        the browser pages (lobby, table, replay; files in ``thirtyone/web/``)
``hints``        the expert's hint for the player to move (``{"type": "hint"}``)
``cluster``      several processes on one PostgreSQL: table leases, LISTEN/NOTIFY fan-out
===============  ====================================================================

The protocol: ``docs/server-protocol.md``; several processes: ``docs/server-cluster.md``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING
from typing import Any

if TYPE_CHECKING:
    from thirtyone.server.app import create_app
    from thirtyone.server.config import ServerSettings
    from thirtyone.server.errors import ServerError

__all__ = ["create_app", "ServerSettings", "ServerError"]

_HOMES = {"create_app": "app", "ServerSettings": "config", "ServerError": "errors"}
"""Where each name of ``__all__`` is defined. They are imported when first asked for, so that a
bot worker, which imports only :mod:`thirtyone.server.workers`, starts without the web framework
and the database (two seconds of imports before its first move)."""


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
