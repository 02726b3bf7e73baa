"""What a table tells its clients, built from what is stored of it, its history and its game: the
messages of ``docs/server-protocol.md`` (``welcome``, ``table``, ``ack``, ``deal``, ``round_end``,
``reveal``, ``history``, ``chat``, ``rematch``; ``state`` is :mod:`thirtyone.server.state_json`'s),
the TABLE object and the deals list of ``GET /api/tables/{code}/deals``.

Pure functions over plain values (:class:`~thirtyone.server.db_store.TableData`, the table's
:class:`~thirtyone.server.history.TableHistory`, the engine's :class:`~thirtyone.engine.Game`):
no I/O, no clock, no asyncio. Who gets which message, and when, is
:mod:`thirtyone.server.broadcast`'s.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence

from thirtyone.engine import Game
from thirtyone.rules import Rules
from thirtyone.server.autoplay import Pace
from thirtyone.server.config import ServerSettings
from thirtyone.server.fair import CHAIN_SCHEME
from thirtyone.server.fair import DEAL_SCHEME
from thirtyone.server.fair import Deal
from thirtyone.server.history import ActionData
from thirtyone.server.history import TableHistory
from thirtyone.server.history import ended_rounds
from thirtyone.server.history import round_result
from thirtyone.server.rows import CLOSED
from thirtyone.server.rows import FINISHED
from thirtyone.server.rows import PLAYING
from thirtyone.server.rows import ChatData
from thirtyone.server.rows import TableData
from thirtyone.server.serialize import JSON
from thirtyone.server.serialize import event_json
from thirtyone.server.serialize import result_json
from thirtyone.server.serialize import spectator_view_json
from thirtyone.server.serialize import view_json

__all__ = [
    "welcome_message",
    "heading_json",
    "table_json",
    "table_message",
    "seat_view",
    "ack_message",
    "round_news",
    "seat_news",
    "waiting_rounds",
    "withheld_rounds",
    "reveal_message",
    "round_history",
    "history_message",
    "chat_json",
    "chat_message",
    "rematch_message",
    "deals_json",
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


def heading_json(data: TableData, rules: Rules) -> JSON:
    """What the table message and the lobby's summary of a table open with: its ``code``,
    ``status`` and ``preset``, and ``rules`` (its options) in the library's words (``describe``) and
    as data (``differs``: each option that differs from the nearest preset, by name)."""
    return {
        "code": data.code,
        "status": data.status,
        "preset": data.preset,
        "describe": rules.describe(),
        "differs": rules.nearest_preset()[1],
    }


def table_json(
    data: TableData,
    history: TableHistory,
    rules: Rules,
    settings: ServerSettings,
    connected: Sequence[bool],
    spectators: int,
    pace: Pace | None,
) -> JSON:
    """The table's public information (docs/server-protocol.md, "TABLE"), from what is stored
    (``data`` and ``history``: never a change still being written) with ``rules`` (the table's options), whether
    each seat is ``connected``, how many ``spectators`` watch and the ``pace`` of its bots and
    timer (its turn timer and deadline, the showdown being read, each seat's timeouts in a row and
    whether it is away; ``None``: nothing runs yet). ``commitment`` is the table's salt chain
    commitment, published from its creation on (for an older table: the current deal's, while it
    is played)."""
    if pace is None:
        pace = Pace.still(settings, data)
    if data.commitment is not None:
        commitment: str | None = data.commitment
    else:
        commitment = history.deals[-1].commitment if data.status == PLAYING and history.deals else None
    return {
        **heading_json(data, rules),
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
                "timeouts": pace.timeouts[s.seat],
                "away": pace.away[s.seat],
            }
            for s in data.seats
        ],
        "spectators": spectators,
        "seq": data.seq,
        "round": history.round,
        "commitment": commitment,
        "scheme": scheme(data),
        "turn_timer": pace.turn_timer,
        "turn_deadline": pace.deadline,
        "timeouts_to_bot": pace.timeouts_to_bot,
        "showdown": pace.showdown,
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


def ack_message(action: ActionData, number: int) -> JSON:
    """``ack``: the sender's action is stored, as seq ``action.seq``: its notation and its id
    ``number`` (:mod:`thirtyone.action_ids`)."""
    return {"type": "ack", "seq": action.seq, "action": action.action, "id": number}


def _hides_a_hand(game: Game | None, number: int) -> bool:
    """Whether round ``number`` has ended with a result that the table is not shown whole: a 31
    (R5.1), after which only the 31 hands are shown."""
    result = round_result(game, number)
    return result is not None and result.public().hands != result.hands


def _over(game: Game | None, data: TableData) -> bool:
    return data.status in (FINISHED, CLOSED) or (game is not None and game.is_over)


def waiting_rounds(game: Game | None, data: TableData) -> set[int]:
    """The ended rounds whose deck and salt wait for the game's end while it is played (R5.7): each
    round whose result hides a hand (a 31, R5.1) and, on a salt-chain table, every round that ended
    after the first of them, since round ``r``'s salt is the link of round ``r + 1``'s
    (:mod:`thirtyone.fairness`): a later salt would give the hidden round's deck away. Rounds
    before the first 31 stay revealed (nobody can work out a later salt from an earlier one); an
    older table's deals are not linked, so there only the 31 rounds wait. Round numbers from 1."""
    ended = ended_rounds(game)
    hidden = [number for number in ended if _hides_a_hand(game, number)]
    if not hidden:
        return set()
    if data.commitment is None:
        return set(hidden)
    return {number for number in ended if number >= hidden[0]}


def withheld_rounds(game: Game | None, data: TableData) -> set[int]:
    """The rounds whose deck and salt are withheld now: :func:`waiting_rounds` while the game is
    being played, none once it is over (the last round ended, or the table finished or closed)."""
    return set() if _over(game, data) else waiting_rounds(game, data)


def _deal_reveal(deal: Deal, fairness: JSON) -> JSON:
    return {"deck": " ".join(map(str, deal.deck)), "salt": deal.salt, "commitment": deal.commitment, **fairness}


def _fairness(data: TableData) -> JSON:
    return {"scheme": scheme(data), "seeds": seeds(data) if data.commitment is not None else None}


def reveal_message(game: Game | None, history: TableHistory, data: TableData, told: Iterable[int] = ()) -> JSON | None:
    """``reveal``, once the game is over: every round that waited for its end
    (:func:`waiting_rounds`, which then holds the round that ended the game too) but those in
    ``told`` (revealed by a ``round_end`` in the same news),
    each ``{"round", "deck", "salt", "commitment", "scheme", "seeds"}`` as a ``round_end`` reveals
    it; ``None`` while the game is played or when nothing waited."""
    if not _over(game, data):
        return None
    skip = set(told)
    fairness = _fairness(data)
    rounds = [
        {"round": number, **_deal_reveal(deal, fairness)}
        for number in sorted(waiting_rounds(game, data) - skip)
        if (deal := history.deal(number)) is not None
    ]
    return {"type": "reveal", "rounds": rounds} if rounds else None


def round_news(
    game: Game | None, history: TableHistory, ended: Iterable[int], new: Sequence[Deal], data: TableData
) -> list[JSON]:
    """What an action (or a start, a close, or a catch-up) tells everyone, in round order: ``deal``
    for each ``new`` deal (its commitment, and the seats' seeds it was dealt with), ``round_end`` for
    each round number in ``ended`` (its public result, from the game, and its deck and salt from
    the table's history: revealed, unless they wait for the game's end, :func:`withheld_rounds`, R5.7), and once
    the game is over :func:`reveal_message` for what waited. A ``round_end`` has no ``history`` yet:
    :func:`seat_news` adds each seat's."""
    news: list[JSON] = []
    fresh = {deal.round: deal for deal in new}
    finished = set(ended)
    fairness = _fairness(data)
    withheld = withheld_rounds(game, data)
    for number in sorted(finished | set(fresh)):
        if number in fresh:
            deal = fresh[number]
            news.append({"type": "deal", "round": number, "commitment": deal.commitment, "seq": deal.seq, **fairness})
        stored = history.deal(number)
        if number in finished and stored is not None:
            result = round_result(game, number)
            deal = stored
            revealed = number not in withheld
            news.append(
                {
                    "type": "round_end",
                    "round": number,
                    "result": None if result is None else result_json(result.public()),
                    "revealed": revealed,
                    **_deal_reveal(deal, fairness),
                    **({} if revealed else {"deck": None, "salt": None}),
                }
            )
    reveal = reveal_message(game, history, data, finished)
    if reveal is not None:
        news.append(reveal)
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
    viewer = -1 if seat is None else seat
    return [event_json(event.for_seat(viewer), game.rules, viewer) for event in game.round_events(number)]


def history_message(game: Game | None, history: TableHistory, seat: int | None, chat: Sequence[ChatData]) -> JSON:
    """``history``: what a connection that opens mid-game needs to show the same log, results and
    scores as one that was there all along: every round so far (``round``, its ``events`` as
    ``seat`` saw them, the current round's as far as it has gone, and ``sources``: who played
    each of its actions in order, ``player``, ``bot`` or ``timer``), and the table's ``chat`` (its
    newest lines, oldest first)."""
    rounds = [
        {
            "round": deal.round,
            "events": round_history(game, deal.round, seat),
            "sources": [action.source for action in history.round_actions(deal.round)],
        }
        for deal in history.deals
    ]
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


def deals_json(data: TableData, history: TableHistory, withheld: Iterable[int] = ()) -> JSON:
    """The table's ``code``, fairness ``scheme``, ``commitment`` (its salt chain's; ``null`` for an
    older table), the seats' ``seeds``, and ``deals``: every stored round's commitment, and the
    deck and salt of each round that has ended (every round of a finished or closed table) but
    those ``withheld`` until the game's end (:func:`withheld_rounds`, R5.7)."""
    last = history.round  # a round has ended when the next is dealt or the game is over
    waits = set(withheld)
    out: list[JSON] = []
    for deal in history.deals:
        ended = (data.status in (FINISHED, CLOSED) or deal.round < last) and deal.round not in waits
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
