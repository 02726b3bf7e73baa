"""What the tests share, one module a job; no test module imports another (tests/test_quality.py
checks it), so that editing one test breaks no other.

- :mod:`support.server`: a test server's app on a temp SQLite file, its WebSocket clients, the
  seeded choices of a basic bot, games dealt from committed deals, ``thirtyone serve``'s command line
  up to Uvicorn.
- :mod:`support.processes`: ``thirtyone serve`` in a subprocess, and a free port.
- :mod:`support.postgres`: a throwaway PostgreSQL, a new database on it, its rows.
- :mod:`support.web`: the browser at a real test server (Chromium driven by Playwright) and what a
  person does on its pages; :mod:`support.web_layout`: where things lie on a page;
  :mod:`support.axe`: axe-core's accessibility check of a page.
- :mod:`support.tui`: the terminal game under Textual's pilot and what its screen shows.
- :mod:`support.sim`: the engine side of the simulator's cross-checks.
- :mod:`support.review`: the review's budget, games of random bots, ``thirtyone review`` in process.
- :mod:`support.judging`: whether the judge may show its values (hints), set by the test.

The core's rule tests take their exact deals from tests/helpers.py (it imports the core only: they
run with nothing but pytest and hypothesis installed), the command line's tests their one-line
errors from tests/cli_helpers.py. tests/conftest.py puts tests/ on the path."""
