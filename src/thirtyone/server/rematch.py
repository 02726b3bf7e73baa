"""Play again: a finished table's rematch, with the same seats, people and bots.

``POST /api/tables/{code}/rematch`` with a seat token of the finished (or closed) table
(``Authorization: Bearer SEAT_TOKEN``): the first person to ask makes the rematch — a new table
with the same rules, the same seat count, the bots at their seats with their levels and names,
and each person's seat kept for that person (by the hash of the token that held it) — and
becomes its host; everyone at the old table hears of it (``rematch``, and TABLE's ``rematch``).
Each person who asks, first or not, is seated at their own seat of the rematch under their own
name and gets its token; when the last of them has taken their seat, the game starts. A seat kept
for someone who does not come can be given to a bot by the rematch's host
(``POST /api/tables/{code}/seats/{seat}/bot``). A rematch is private or listed, and has hints on
or off, as its old table did.
"""

from __future__ import annotations

from thirtyone.server.errors import AuthError
from thirtyone.server.errors import ConflictError
from thirtyone.server.errors import UnavailableError
from thirtyone.server.fair import new_chain
from thirtyone.server.limits import hash_token
from thirtyone.server.limits import new_token
from thirtyone.server.rows import OPEN
from thirtyone.server.rows import PLAYING
from thirtyone.server.rows import SeatData
from thirtyone.server.rows import StaleError
from thirtyone.server.rows import new_table
from thirtyone.server.serialize import JSON
from thirtyone.server.service import TableService

__all__ = ["rematch"]


async def rematch(service: TableService, code: str, token: str) -> JSON:
    """Take the seat of ``token``'s holder at table ``code``'s rematch, making it first if there
    is none. Returns ``{"code", "seat", "token", "table"}`` of the rematch, and ``"host_token"``
    for the one who made it.

    Raises:
        NotFoundError: for an unknown code.
        AuthError: when ``token`` opens no seat of the table (someone not at the table, a spectator).
        ConflictError: while the game is not over (``not_over``), or when the person has taken
            their seat at the rematch already (``seat_taken``).
        DatabaseError: when it could not be stored (nothing changed).
    """
    old = await service.runner(code)
    seat = old.authenticate(token)
    if seat is None:
        raise AuthError("only a player at this table can ask for a rematch: give your seat token")
    data = old.data
    if data.status in (OPEN, PLAYING):
        raise ConflictError(
            f"table {old.code} is {data.status}: a rematch is offered once its game is over", "not_over"
        )
    host_token: str | None = None
    if data.rematch is None:
        host_token = new_token()
        chain = new_chain(service.settings.randomness)  # its deals no one can choose, as any new table's
        for _ in range(20):
            new = new_table(
                service.settings.randomness.table_code(),
                old.rules,
                [_seat(s) for s in data.seats],
                hash_token(host_token),
                chain,
                public=data.public,
                hints=data.hints,
                rematch_of=old.code,
            )
            try:
                if await service.db.write(service.store.create, new):
                    await old.link_rematch(new.code)
                    break
            except StaleError:  # someone else made it meanwhile (in this process or another)
                host_token = None
                stored = await service.db.read(service.store.load, old.code)
                if stored is not None and stored.table.rematch is not None:
                    await old.link_rematch(stored.table.rematch)
                break
        else:  # pragma: no cover - 20 collisions among 887 million codes
            raise UnavailableError("could not find a free table code; try again", "busy")
    if data.rematch is None:  # pragma: no cover - the link is stored or read above
        raise UnavailableError("the rematch could not be made; try again", "busy")
    new_runner = await service.runner(data.rematch)
    name = data.seats[seat].name or "Guest"
    taken, seat_token = await new_runner.join(name, seat, claim=hash_token(token))
    made: JSON = {"code": new_runner.code, "seat": taken, "token": seat_token, "table": new_runner.table_json()}
    if host_token is not None:
        made["host_token"] = host_token
    return made


def _seat(seat: SeatData) -> SeatData:
    """A seat of the old table as the rematch has it: a bot as it was, a person's kept for them."""
    if seat.kind == "bot":
        return SeatData(seat.seat, "bot", seat.level, seat.name)
    if seat.token_hash is None:  # nobody took it (the table was closed before its game started)
        return SeatData(seat.seat, "human", None, None)
    return SeatData(seat.seat, "human", None, seat.name, None, reserved_hash=seat.token_hash)
