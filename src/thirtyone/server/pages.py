"""The browser pages of ``thirtyone serve``: plain HTML, CSS and ES modules from ``thirtyone/web/`` (no
build step, nothing third-party), and the JSON form of a finished game's record for the replay page.

==============================  ==============================================================
``GET /``                       the lobby (``web/index.html``)
``GET /t/{code}``               a table: play, or watch without a seat (``web/table.html``,
                                its code and rules filled in; 404 for an unknown code: a small
                                HTML page linking to the lobby for browsers, JSON otherwise)
``GET /r/{code}``               a finished game's step-through replay (``web/replay.html``)
``GET /static/…``               the CSS and the ES modules (not the pages' HTML templates, which
                                are served filled in at the paths above)
``GET /i18n/{lang}.json``       a language's messages for the pages (:func:`thirtyone.i18n.catalog_json`);
                                404 for a language without a catalog
``GET /api/tables/{code}/record.json``  the record as JSON, with every replayed step
==============================  ==============================================================
"""

from __future__ import annotations

import html
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import Scope

from thirtyone.errors import RecordError
from thirtyone.i18n import LANGUAGES, RTL, catalog_json, messages, negotiate
from thirtyone.record import GameRecord, format_action
from thirtyone.server.errors import NotFoundError, UnavailableError
from thirtyone.server.serialize import JSON, cards, result_json, rules_json, spectator_view_json, value
from thirtyone.server.service import TableService

__all__ = ["STATIC", "add_pages", "record_json", "wants_html", "not_found_page"]

STATIC = Path(__file__).resolve().parent.parent / "web"
"""The folder of the pages' files."""

_NO_STORE = {"Cache-Control": "no-cache"}  # pages are small; a new server version shows at once

_NOT_FOUND = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Thirty-One: {title}</title><link rel="stylesheet" href="/static/style.css"><link rel="icon" href="data:,">
</head>
<body>
<header class="bar" role="banner"><h1>Thirty-One</h1></header>
<main id="main"><h2>{heading}</h2>
<p>{advice}</p>
<p><a class="button primary" href="/">{link}</a></p></main>
</body>
</html>
"""


def wants_html(request: Request) -> bool:
    """True when the request comes from a browser page (it accepts ``text/html``)."""
    return "text/html" in request.headers.get("accept", "")


def not_found_page(
    heading: str, advice: str, *, lang: str = "en", link: str = "See the open tables and create one"
) -> HTMLResponse:
    """The 404 page a browser gets: ``heading`` and ``advice`` (plain text, escaped here) and a
    link to the lobby (its words ``link``), in the language ``lang``."""
    text = _NOT_FOUND.replace('lang="en"', f'lang="{html.escape(lang)}" dir="{"rtl" if lang in RTL else "ltr"}"')
    for key, shown in (("title", heading), ("heading", heading), ("advice", advice), ("link", link)):
        text = text.replace("{" + key + "}", html.escape(shown))
    return HTMLResponse(text, status_code=404, headers=_NO_STORE)


class _Assets(StaticFiles):
    """The pages' files but their HTML: a template such as ``table.html`` has placeholders
    (``{{code}}``) that only :func:`add_pages`' routes fill in; raw, it is no page (404)."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        if Path(path).suffix.lower() in (".html", ".htm"):
            raise HTTPException(404)
        return await super().get_response(path, scope)


def add_pages(app: FastAPI, service: TableService) -> None:
    """Add the pages above to ``app``; ``service`` finds the tables. An unknown code is a 404: a
    small HTML page with a link to the lobby when the request accepts ``text/html`` (a browser),
    else the API's JSON ``{"error", "code"}``."""
    app.mount("/static", _Assets(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers=_NO_STORE)

    async def page(name: str, code: str, request: Request) -> Response:
        try:
            runner = await service.runner(code)
        except NotFoundError:
            if not wants_html(request):
                raise  # an API client: the JSON error
            words = messages(negotiate(request.headers.get("accept-language", "")))
            return not_found_page(
                words("notfound.heading", code=code[:40]),
                words("notfound.advice"),
                lang=words.lang,
                link=words("notfound.link"),
            )
        text = (STATIC / name).read_text(encoding="utf-8")
        for key, shown in (("code", runner.code), ("describe", runner.rules.describe())):
            text = text.replace("{{" + key + "}}", html.escape(shown))
        return HTMLResponse(text, headers=_NO_STORE)

    @app.get("/i18n/{lang}.json", include_in_schema=False)
    async def catalog(lang: str) -> Response:
        if lang not in LANGUAGES:
            raise NotFoundError(f"no messages for the language {lang[:20]!r}: use one of {', '.join(LANGUAGES)}")
        # the catalogs change only with a new server version: a day in the browser's cache is safe
        return JSONResponse(catalog_json(lang), headers={"Cache-Control": "public, max-age=86400"})

    @app.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str, request: Request) -> Response:
        return await page("table.html", code, request)

    @app.get("/r/{code}", include_in_schema=False)
    async def replay_page(code: str, request: Request) -> Response:
        return await page("replay.html", code, request)

    @app.get("/api/tables/{code}/record.json")
    async def record_as_json(code: str) -> JSON:
        clean, text = await service.record(code)
        data = record_json(GameRecord.loads(text))
        data["code"] = clean
        return data


def record_json(record: GameRecord) -> JSON:
    """A game record as JSON for the replay page: ``seats`` (names), ``rules`` (every option),
    ``describe``, ``preset``, ``winner``, ``places``, ``event``, ``date``, ``rounds`` (each:
    ``round``, ``dealer``, ``deck``, ``commitment``, ``salt``, ``actions`` as record lines such as
    ``"1 draw stock"``, ``result``) and ``steps``: the game after the deal and after each action
    (``action_count + 1`` of them), each with ``seat`` and ``action`` (``null`` for the first),
    ``round``, ``line`` (the record's line), ``view`` (what the table shows, as
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
                    "line": None if seat is None or action is None else format_action(seat, action),
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
