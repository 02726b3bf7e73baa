"""The browser pages of ``thirtyone serve`` (an :class:`~fastapi.APIRouter`): plain HTML, CSS and ES
modules from ``thirtyone/web/`` (no build step, nothing third-party).

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
==============================  ==============================================================

The replay page's data, the record as JSON, is :mod:`thirtyone.server.routes_records`'.
"""

from __future__ import annotations

import html
from pathlib import Path

from fastapi import APIRouter
from fastapi import FastAPI
from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.responses import JSONResponse
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import Scope

from thirtyone.i18n import LANGUAGES
from thirtyone.i18n import RTL
from thirtyone.i18n import catalog_json
from thirtyone.i18n import messages
from thirtyone.i18n import negotiate
from thirtyone.server.deps import Service
from thirtyone.server.errors import NotFoundError

__all__ = ["STATIC", "router", "mount_static", "wants_html", "not_found_page"]

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
    (``{{code}}``) that only :data:`router`'s routes fill in; raw, it is no page (404)."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        if Path(path).suffix.lower() in (".html", ".htm"):
            raise HTTPException(404)
        return await super().get_response(path, scope)


router = APIRouter(include_in_schema=False)
"""The pages above but the static files (:func:`mount_static`). An unknown code is a 404: a small
HTML page with a link to the lobby when the request accepts ``text/html`` (a browser), else the
API's JSON ``{"error", "code"}``."""


def mount_static(app: FastAPI) -> None:
    """Serve the pages' CSS and ES modules under ``/static`` (not their HTML templates)."""
    app.mount("/static", _Assets(directory=STATIC), name="static")


def _filled(name: str, request: Request, **values: str) -> HTMLResponse:
    """The page ``name`` with its placeholders filled: ``{{key}}`` by ``values`` and
    ``{{load_failed}}`` by what the page says when its files fail to load (``web/js/boot.js``), in
    the language of ``?lang=`` or else of the request's ``Accept-Language`` (the page's modules,
    which choose the language of everything else, may be what failed)."""
    asked = request.query_params.get("lang", "")
    lang = asked if asked in LANGUAGES else negotiate(request.headers.get("accept-language", ""))
    text = (STATIC / name).read_text(encoding="utf-8")
    for key, shown in {**values, "load_failed": messages(lang)("page.load_failed")}.items():
        text = text.replace("{{" + key + "}}", html.escape(shown))
    return HTMLResponse(text, headers=_NO_STORE)


@router.get("/")
async def lobby_page(request: Request) -> HTMLResponse:
    return _filled("index.html", request)


async def _page(name: str, code: str, request: Request, service: Service) -> Response:
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
    return _filled(name, request, code=runner.code, describe=runner.rules.describe())


@router.get("/i18n/{lang}.json")
async def catalog(lang: str) -> Response:
    if lang not in LANGUAGES:
        raise NotFoundError(f"no messages for the language {lang[:20]!r}: use one of {', '.join(LANGUAGES)}")
    # the catalogs change only with a new server version: a day in the browser's cache is safe
    return JSONResponse(catalog_json(lang), headers={"Cache-Control": "public, max-age=86400"})


@router.get("/t/{code}")
async def table_page(code: str, request: Request, service: Service) -> Response:
    return await _page("table.html", code, request, service)


@router.get("/r/{code}")
async def replay_page(code: str, request: Request, service: Service) -> Response:
    return await _page("replay.html", code, request, service)
