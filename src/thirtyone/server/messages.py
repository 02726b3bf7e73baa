"""What a table tells its clients, built from its game and what is stored of it: the messages of
``docs/server-protocol.md`` (``welcome``, ``state``, ``table``, ``ack``, ``deal``, ``round_end``,
``history``, ``chat``, ``rematch``),
the TABLE object, the deals list of ``GET /api/tables/{code}/deals``, and the game record kept
when the game ends.

Pure functions over plain values (:class:`~thirtyone.server.store.TableData`, the engine's
:class:`~thirtyone.engine.Game`, :class:`~thirtyone.server.fair.Deal`): no I/O, no clock, no
asyncio. Who gets which message, and when, is :mod:`thirtyone.server.runner`'s.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence

from thirtyone.engine import Game
from thirtyone.record import Fairness, GameRecord
from thirtyone.rules import Rules
from thirtyone.server.config import ServerSettings
from thirtyone.server.fair import CHAIN_SCHEME, DEAL_SCHEME, Deal
from thirtyone.server.serialize import JSON, event_json, result_json, spectator_view_json, view_json
from thirtyone.server.store import CLOSED, FINISHED, PLAYING, ActionData, ChatData, TableData

__all__ = [
    "welcome_message",
    "table_json",
    "table_message",
    "seat_view",
    "ack_message",
    "round_news",
    "seat_news",
    "round_history",
    "history_message",
    "chat_json",
    "chat_message",
    "rematch_message",
    "deals_json",
    "table_record",
    "scheme",
    "seeds",
]


def welcome_message(data: TableData, seat: int | None, settings: ServerSettings) -> JSON:
    """``welcome``: the table's code, the connection's ``seat`` (``None``: a spectator), its name
    and role, and the limits on what the client sends."""
    return {
        "type": "welcome",
        "table": data.code,
        "seat": seat,
        "name": None if seat is None else data.seats[seat].name,
        "role": "spectator" if seat is None else "player",
        "limits": settings.limits_json(),
    }


def scheme(data: TableData) -> str:
    """The table's fairness scheme: :data:`~thirtyone.server.fair.CHAIN_SCHEME` (a salt chain
    committed to at creation, and client seeds), or for a table of an older server
    :data:`~thirtyone.server.fair.DEAL_SCHEME` (each deal committed to alone)."""
    return CHAIN_SCHEME if data.commitment is not None else DEAL_SCHEME


def seeds(data: TableData) -> list[str | None]:
    """Each seat's client seed (lowercase hex; ``None`` for none), in seat order."""
    return [seat.seed for seat in data.seats]


def table_json(
    data: TableData,
    rules: Rules,
    settings: ServerSettings,
    connected: Sequence[bool],
    spectators: int,
    deadline: float | None,
) -> JSON:
    """The table's public information (docs/server-protocol.md, "TABLE"), from what is stored
    (``data``: never a change still being written) with ``rules`` (the table's options), whether
    each seat is ``connected``, how many ``spectators`` watch and the turn ``deadline`` (Unix
    seconds, ``None`` when no timer runs). ``commitment`` is the table's salt chain commitment,
    published from its creation on (for an older table: the current deal's, while it is played)."""
    if data.commitment is not None:
        commitment: str | None = data.commitment
    else:
        commitment = data.deals[-1].commitment if data.status == PLAYING and data.deals else None
    return {
        "code": data.code,
        "status": data.status,
        "preset": data.preset,
        "describe": rules.describe(),
        "rules": dict(data.options),
        "players": data.players,
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "level": s.level,
                "name": s.name,
                "taken": s.taken,
                "connected": s.kind == "bot" or connected[s.seat],
                "reserved": s.reserved_hash is not None and not s.taken,
                "seeded": s.seed is not None,
            }
            for s in data.seats
        ],
        "spectators": spectators,
        "seq": data.seq,
        "round": data.deals[-1].round if data.deals else 0,
        "commitment": commitment,
        "scheme": scheme(data),
        "turn_timer": settings.turn_timer,
        "turn_deadline": deadline,
        "bot_delay": settings.bot_delay,
        "winner": data.winner if data.status == FINISHED else None,
        "close_reason": data.close_reason if data.status == CLOSED else None,
        "created_at": data.created_at.isoformat(),
        "share_path": f"/t/{data.code}",
        "record_path": f"/api/tables/{data.code}/record" if data.record is not None else None,
        "public": data.public,
        "hints": data.hints,
        "rematch": data.rematch,
        "rematch_of": data.rematch_of,
    }


def table_message(table: JSON) -> JSON:
    """``table``: the TABLE object (someone joined, connected or left)."""
    return {"type": "table", "table": table}


def seat_view(game: Game | None, seat: int | None) -> JSON | None:
    """What ``seat`` sees of the game (``None``: a spectator, the public view); ``None`` before
    the game starts."""
    if game is None:
        return None
    return spectator_view_json(game) if seat is None else view_json(game.view(seat))


def ack_message(action: ActionData) -> JSON:
    """``ack``: the sender's action is stored, as seq ``action.seq``."""
    return {"type": "ack", "seq": action.seq, "action": action.action}


def round_news(game: Game | None, ended: Iterable[int], new: Sequence[Deal], data: TableData) -> list[JSON]:
    """What an action (or a start, or a catch-up) tells everyone, in round order: ``deal`` for each
    ``new`` deal (its commitment, and the seats' seeds it was dealt with), ``round_end`` for each
    round number in ``ended`` (its public result, and its deck and salt from the table's stored
    deals, revealed). A ``round_end`` has no ``history`` yet: :func:`seat_news` adds each seat's."""
    news: list[JSON] = []
    fresh = {deal.round: deal for deal in new}
    deals = {deal.round: deal for deal in data.deals}
    finished = set(ended)
    fairness = {"scheme": scheme(data), "seeds": seeds(data) if data.commitment is not None else None}
    for number in sorted(finished | set(fresh)):
        if number in fresh:
            deal = fresh[number]
            news.append({"type": "deal", "round": number, "commitment": deal.commitment, "seq": deal.seq, **fairness})
        if number in finished and game is not None:
            result = game.round_logs[number - 1].result
            deal = deals[number]
            news.append(
                {
                    "type": "round_end",
                    "round": number,
                    "result": None if result is None else result_json(result.public()),
                    "deck": " ".join(map(str, deal.deck)),
                    "salt": deal.salt,
                    "commitment": deal.commitment,
                    **fairness,
                }
            )
    return news


def seat_news(news: Sequence[JSON], game: Game | None, seat: int | None) -> list[JSON]:
    """``news`` (:func:`round_news`) as ``seat`` gets it (``None``: a spectator): each ``round_end``
    with that round's ``history`` as the seat saw it."""
    out: list[JSON] = []
    for message in news:
        if message["type"] == "round_end":
            message = {**message, "history": round_history(game, message["round"], seat)}
        out.append(message)
    return out


def round_history(game: Game | None, number: int, seat: int | None) -> list[JSON]:
    """Round ``number``'s events as ``seat`` saw them (``None``: a spectator), its last move
    included: the next state is already the next round's."""
    if game is None:  # pragma: no cover - a round ended, so there is a game
        return []
    return [event_json(event.for_seat(-1 if seat is None else seat)) for event in game.round_events(number)]


def history_message(game: Game | None, data: TableData, seat: int | None, chat: Sequence[ChatData]) -> JSON:
    """``history``: what a connection that opens mid-game needs to show the same log, results and
    scores as one that was there all along: every round so far (``round``, its ``events`` as
    ``seat`` saw them, the current round's as far as it has gone, and ``sources``: who played
    each of its actions in order, ``player``, ``bot`` or ``timer``), and the table's ``chat`` (its
    newest lines, oldest first)."""
    rounds: list[JSON] = []
    if game is not None:
        for log in game.round_logs:
            rounds.append(
                {
                    "round": log.round,
                    "events": round_history(game, log.round, seat),
                    "sources": [action.source for action in data.actions if action.round == log.round],
                }
            )
    return {"type": "history", "rounds": rounds, "chat": [chat_json(line) for line in chat]}


def chat_json(line: ChatData) -> JSON:
    """A chat line: ``id``, ``seat``, ``text`` or ``reaction`` (the other ``null``) and ``at`` (Unix seconds)."""
    return {
        "id": line.id,
        "seat": line.seat,
        "text": line.text,
        "reaction": line.reaction,
        "at": round(line.at.timestamp(), 3),
    }


def chat_message(line: ChatData) -> JSON:
    """``chat``: a line someone at the table said (:func:`chat_json`)."""
    return {"type": "chat", **chat_json(line)}


def rematch_message(data: TableData) -> JSON:
    """``rematch``: the finished table's rematch is open: its ``code`` and ``share_path`` (each
    person of the old table takes their seat there with ``POST /api/tables/{old}/rematch``)."""
    return {"type": "rematch", "code": data.rematch, "share_path": f"/t/{data.rematch}"}


def deals_json(data: TableData) -> JSON:
    """The table's ``code``, fairness ``scheme``, ``commitment`` (its salt chain's; ``null`` for an
    older table), the seats' ``seeds``, and ``deals``: every stored round's commitment, and the
    deck and salt of each round that has ended (every round of a finished or closed table)."""
    last = data.deals[-1].round if data.deals else 0  # a round has ended when the next is dealt or the game is over
    out: list[JSON] = []
    for deal in data.deals:
        ended = data.status in (FINISHED, CLOSED) or deal.round < last
        out.append(
            {
                "round": deal.round,
                "commitment": deal.commitment,
                "seq": deal.seq,
                "revealed": ended,
                "deck": " ".join(map(str, deal.deck)) if ended else None,
                "salt": deal.salt if ended else None,
            }
        )
    return {
        "code": data.code,
        "scheme": scheme(data),
        "commitment": data.commitment,
        "seeds": seeds(data),
        "deals": out,
    }


def table_record(
    game: Game, data: TableData, names: Sequence[str], deals: Mapping[int, Deal], reveal_all: bool = False
) -> str:
    """The game record (TOML text) of the table's ``game``, its seats called ``names``: the salt
    chain's commitment and the seats' seeds (``[fairness]``), and each round's salt from ``deals``
    (by round) once the round has ended (every round with ``reveal_all``, as when the host closes
    the table). A table of an older server gives each round its own commitment instead."""
    record = GameRecord.from_game(
        game,
        names,
        event=f"thirtyone serve, table {data.code}",
        date=data.created_at.date().isoformat(),
    )
    rounds = []
    for rnd in record.rounds:
        deal = deals.get(rnd.round)
        if deal is None:  # pragma: no cover - every round's deal is stored
            rounds.append(rnd)
            continue
        revealed = reveal_all or rnd.result is not None
        own = None if data.commitment is not None else deal.commitment
        rounds.append(dataclasses.replace(rnd, commitment=own, salt=deal.salt if revealed else None))
    fairness = None
    if data.commitment is not None:
        fairness = Fairness(data.commitment, tuple(seed or "" for seed in seeds(data)))
    return dataclasses.replace(record, rounds=tuple(rounds), fairness=fairness).dumps()
