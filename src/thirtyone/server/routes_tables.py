"""The tables' HTTP endpoints (an :class:`~fastapi.APIRouter`; docs/server-protocol.md, "HTTP"):

=========================================  =====================================================
``GET  /api/tables?status=open``           the lobby, a page at a time: open tables (``playing``: to watch)
``POST /api/tables``                       create a table → code, share path, host token
``GET  /api/tables/{code}``                its public information and the public view
``POST /api/tables/{code}/join``           take a seat by name → seat and its token
``POST /api/tables/{code}/close``          close it (``Authorization: Bearer HOST_TOKEN``)
``POST /api/tables/{code}/seats/{seat}/bot``  give a free or left seat to a bot (host token)
``POST /api/tables/{code}/rematch``        play again: the rematch's seat (``Bearer SEAT_TOKEN``)
``GET  /api/tables/{code}/deals``          every deal's commitment; deck and salt once revealed
=========================================  =====================================================
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter
from fastapi import Request
from fastapi import Response
from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field
from pydantic import StrictBool
from pydantic import StrictInt

from thirtyone.rules import OPTIONS
from thirtyone.server.deps import NO_STORE
from thirtyone.server.deps import Service
from thirtyone.server.deps import Settings
from thirtyone.server.deps import address
from thirtyone.server.deps import bearer
from thirtyone.server.deps import share_url
from thirtyone.server.errors import InputError
from thirtyone.server.rematch import rematch
from thirtyone.server.serialize import JSON
from thirtyone.server.service import LEVEL_NAMES
from thirtyone.server.service import LOBBY_PAGE
from thirtyone.server.service import SeatRequest

__all__ = ["router"]

router = APIRouter()


class _SeatBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: str = "human"
    level: str | None = None


class _CreateBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    preset: str = "scat"
    options: dict[str, str | bool | int | float | None] = Field(default_factory=dict)
    seats: list[_SeatBody]
    name: str | None = None
    public: StrictBool = False
    hints: StrictBool = True
    seed: str | None = Field(default=None, description="not taken here: give your seed when you join")


class _JoinBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    seat: StrictInt | None = None  # a seat number only: not true, "3" or 2.0
    seed: str | None = Field(
        default=None,
        description="your client seed: 16-64 random bytes as hex or base64, made after seeing the table's commitment",
    )


class _BotBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    level: str = "medium"


@router.get("/api/tables")
async def lobby(service: Service, status: str = "open", limit: int = LOBBY_PAGE, offset: int = 0) -> JSON:
    return await service.lobby(status, limit, offset)


@router.post("/api/tables", status_code=201)
async def create(body: _CreateBody, request: Request, response: Response, service: Service, settings: Settings) -> JSON:
    response.headers.update(NO_STORE)
    if body.seed is not None:
        raise InputError(
            "seed: give your seed when you join, after seeing the table's commitment (create the table "
            "without a name, then join it with your name and seed)",
            "bad_seed",
        )
    created = await service.create(
        body.preset,
        _typed_options(body.options),
        [SeatRequest(seat.type, seat.level) for seat in body.seats],
        body.name,
        address(request),
        public=body.public,
        hints=body.hints,
    )
    created["share_url"] = share_url(settings, created["code"])
    return created


@router.get("/api/tables/{code}")
async def table(code: str, service: Service) -> JSON:
    runner = await service.runner(code)
    info, view = await runner.public()
    return {"table": info, "view": view}


@router.post("/api/tables/{code}/join")
async def join(code: str, body: _JoinBody, response: Response, service: Service, settings: Settings) -> JSON:
    response.headers.update(NO_STORE)
    runner = await service.runner(code)
    seat, token = await runner.join(body.name, body.seat, body.seed)
    return {
        "code": runner.code,
        "seat": seat,
        "token": token,
        "share_url": share_url(settings, runner.code),
        "table": runner.table_json(),
    }


@router.post("/api/tables/{code}/close")
async def close(code: str, request: Request, service: Service) -> JSON:
    return {"table": await service.close(code, bearer(request))}


@router.post("/api/tables/{code}/seats/{seat}/bot")
async def seat_bot(code: str, seat: int, request: Request, service: Service, body: _BotBody | None = None) -> JSON:
    runner = await service.runner(code)
    level = LEVEL_NAMES.get((body.level if body else "medium").strip().lower(), "")
    await runner.give_to_bot(bearer(request), seat, level)
    return {"table": runner.table_json()}


@router.post("/api/tables/{code}/rematch")
async def play_again(code: str, request: Request, response: Response, service: Service, settings: Settings) -> JSON:
    response.headers.update(NO_STORE)
    made = await rematch(service, code, bearer(request, "seat"))
    made["share_url"] = share_url(settings, made["code"])
    return made


@router.get("/api/tables/{code}/deals")
async def deals(code: str, service: Service) -> JSON:
    runner = await service.runner(code)
    return runner.deals_json()


_JSON_TYPES: dict[str, tuple[type, str]] = {
    "bool": (bool, "true or false"),
    "int": (int, "a JSON number"),
    "choice": (str, "it as text"),
}
"""The JSON type of each kind of rule option (bool is no int here), and how to send it."""


def _typed_options(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` as sent, once every known option has its kind's JSON type: ``true`` or
    ``false``, a whole number, or a choice as text (``"30.5"``). The rules would read text such as
    ``"3"`` as a number; over the wire a value is what it says. Unknown options, and ``null`` (an
    option of the other mode, as ``GET /api/presets`` lists them), are left to the rules, which
    name what they refuse.

    Raises:
        InputError: naming the option, the values it takes, and what was sent instead.
    """
    for name, value in options.items():
        spec = OPTIONS.get(name)
        if spec is None or value is None:
            continue
        kind, send = _JSON_TYPES[spec.kind]
        if type(value) is not kind:
            raise InputError(f"option {name} is {spec.describe_values()}: send {send}, not {json.dumps(value)}")
    return options
