"""A game's record over HTTP (an :class:`~fastapi.APIRouter`): ``GET /api/tables/{code}/record``,
the record (TOML, ``thirtyone verify`` checks it) once the game is over or the table closed, and
``GET /api/tables/{code}/record.json``, the same as JSON with every step replayed: the replay
page's data (``/r/{code}``). Both come from the record the table wrote from its history.
``GET /api/tables/{code}/review`` is the expert's review of that game, made once on a worker
(:mod:`thirtyone.server.kept_reviews`): ``200`` when it is kept, ``202`` while it is being made."""

from __future__ import annotations

import json

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from fastapi.responses import PlainTextResponse
from fastapi.responses import Response

from thirtyone import narration
from thirtyone.errors import RecordError
from thirtyone.events import Acted
from thirtyone.record import GameRecord
from thirtyone.record import format_action
from thirtyone.server.deps import Service
from thirtyone.server.errors import UnavailableError
from thirtyone.server.kept_reviews import RETRY_SECONDS
from thirtyone.server.serialize import JSON
from thirtyone.server.serialize import action_json
from thirtyone.server.serialize import cards
from thirtyone.server.serialize import phrase_json
from thirtyone.server.serialize import result_json
from thirtyone.server.serialize import rules_json
from thirtyone.server.serialize import spectator_view_json
from thirtyone.server.serialize import value

__all__ = ["router", "record_json"]

router = APIRouter()


@router.get(
    "/api/tables/{code}/record",
    response_class=PlainTextResponse,
    responses={200: {"content": {"application/toml": {}}, "description": "the game record (TOML)"}},
)
async def record(code: str, service: Service) -> Response:
    clean, text = await service.record(code)
    return PlainTextResponse(
        text,
        media_type="application/toml",
        headers={"Content-Disposition": f'attachment; filename="thirtyone-{clean}.toml"'},
    )


@router.get("/api/tables/{code}/record.json")
async def record_as_json(code: str, service: Service) -> JSON:
    clean, text = await service.record(code)
    data = record_json(GameRecord.loads(text))
    data["code"] = clean
    return data


@router.get(
    "/api/tables/{code}/review",
    response_class=JSONResponse,
    responses={
        200: {
            "content": {"application/json": {}},
            "description": '{"code", "status": "ready", "review"}: the review of every seat, kept with the game',
        },
        202: {
            "content": {"application/json": {}},
            "description": '{"code", "status": "pending", "retry_after"}: the review is being made; ask again',
        },
    },
)
async def review(code: str, service: Service) -> Response:
    clean, kept = await service.review(code)
    if kept is None:
        pending = {"code": clean, "status": "pending", "retry_after": RETRY_SECONDS}
        return JSONResponse(pending, status_code=202, headers={"Retry-After": str(RETRY_SECONDS)})
    head = json.dumps({"code": clean, "status": "ready"})[:-1]
    return Response(f'{head}, "review": {kept}}}', media_type="application/json")  # as kept: not parsed again


def record_json(record: GameRecord) -> JSON:
    """A game record as JSON for the replay page: ``seats`` (names), ``rules`` (every option),
    ``describe``, ``preset``, ``winner``, ``places``, ``event``, ``date``, ``rounds`` (each:
    ``round``, ``dealer``, ``deck``, ``commitment``, ``salt``, ``actions`` as record lines such as
    ``"1 draw stock"``, ``result``) and ``steps``: the game after the deal and after each action
    (``action_count + 1`` of them), each with ``seat``, ``action`` and the action's data
    (:func:`~thirtyone.server.serialize.action_json`; ``null`` for the first),
    ``round``, ``line`` (the record's line), ``said`` (the move's phrases,
    :func:`thirtyone.narration.acted`, as :func:`~thirtyone.server.serialize.phrase_json` writes
    them; empty for the first), ``view`` (what the table shows, as
    :func:`~thirtyone.server.serialize.spectator_view_json` without its history), ``hands`` and
    ``values`` by seat (every hand open: the game is over; a value only for three cards),
    ``results`` (the result of each round this step ended, in order: usually none or one, two when
    the action ended a round and the next deal was a 31, R5.2) and ``ended`` (the last of them,
    else ``null``). With ``fairness`` the salt chain's ``commitment`` and the seats' ``seeds``
    (``null`` for a record of an older server, whose rounds each have their own commitment).

    Raises:
        UnavailableError: when the record does not replay (``damaged``; it was stored by this server,
            so this means the database was changed).
    """
    moves = [(seat, action) for rnd in record.rounds for seat, action in rnd.actions]
    steps: list[JSON] = []
    before = 0  # rounds ended before this step
    try:
        for index, game in enumerate(record.replay_steps()):
            seat, action = moves[index - 1] if index else (None, None)
            results = [log.result for log in game.round_logs if log.result is not None]
            view = spectator_view_json(game)
            view["history"] = []
            steps.append(
                {
                    "seat": seat,
                    "action": None if action is None else str(action),
                    **action_json(action),
                    "line": None if seat is None or action is None else format_action(seat, action),
                    "said": []
                    if seat is None or action is None
                    else [phrase_json(phrase) for phrase in narration.acted(Acted(seat, action))],
                    "round": game.round,
                    "view": view,
                    "hands": [cards(game.hand(s)) for s in range(game.players)],
                    "values": [
                        value(game.hand_value(s)) if len(game.hand(s)) == 3 and not game.is_out(s) else None
                        for s in range(game.players)
                    ],
                    "results": [result_json(result.public()) for result in results[before:]],
                    "ended": result_json(results[-1].public()) if len(results) > before else None,
                }
            )
            before = len(results)
    except RecordError as error:
        raise UnavailableError(f"the stored record does not replay: {error}", "damaged") from None
    return {
        "seats": list(record.seats),
        "rules": rules_json(record.rules),
        "describe": record.rules.describe(),
        "preset": record.preset,
        "differs": record.rules.nearest_preset()[1],
        "winner": record.winner,
        "places": None if record.places is None else list(record.places),
        "event": record.event,
        "date": record.date,
        "fairness": None
        if record.fairness is None
        else {"commitment": record.fairness.commitment, "seeds": list(record.fairness.seeds)},
        "rounds": [
            {
                "round": rnd.round,
                "dealer": rnd.dealer,
                "deck": cards(rnd.deck),
                "commitment": rnd.commitment,
                "salt": rnd.salt,
                "actions": [format_action(seat, action) for seat, action in rnd.actions],
                "result": None if rnd.result is None else result_json(rnd.result),
            }
            for rnd in record.rounds
        ],
        "steps": steps,
    }
