"""What the routes take from the request and the application: the table service and the server's
settings (FastAPI dependencies, from ``app.state``), a bearer token, a client's address and a
table's link."""

from __future__ import annotations

from typing import Annotated
from typing import cast

from fastapi import Depends
from fastapi import Request
from starlette.requests import HTTPConnection

from thirtyone.server.config import ServerSettings
from thirtyone.server.errors import AuthError
from thirtyone.server.limits import address_key
from thirtyone.server.service import TableService

__all__ = ["Service", "Settings", "service_of", "settings_of", "bearer", "address", "share_url", "NO_STORE"]

NO_STORE = {"Cache-Control": "no-store"}
"""On the answers that carry a token: no cache, shared or the browser's, keeps them."""


def service_of(connection: HTTPConnection) -> TableService:
    """The application's table service."""
    return cast(TableService, connection.app.state.service)


def settings_of(connection: HTTPConnection) -> ServerSettings:
    """The application's settings."""
    return cast(ServerSettings, connection.app.state.settings)


Service = Annotated[TableService, Depends(service_of)]
"""A route's table service (a FastAPI dependency)."""
Settings = Annotated[ServerSettings, Depends(settings_of)]
"""A route's server settings (a FastAPI dependency)."""


def bearer(request: Request, which: str = "host") -> str:
    """The token of ``Authorization: Bearer TOKEN``.

    Raises:
        AuthError: when there is none, naming the ``which`` token it needs.
    """
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise AuthError(f"give the {which} token: Authorization: Bearer {which.upper()}_TOKEN")
    return token.strip()


def address(connection: HTTPConnection) -> str:
    """The client's address as the limits count it (:func:`~thirtyone.server.limits.address_key`)."""
    return address_key(connection.client.host if connection.client else None)


def share_url(settings: ServerSettings, code: str) -> str:
    """A table's link: under the server's ``public_url``, or relative to the server (the path
    alone) when none is set; never from the request's ``Host``, which the client writes."""
    return f"{settings.public_url or ''}/t/{code}"
