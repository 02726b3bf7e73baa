// Loaded before a page's modules, as a classic script: when one of the page's files fails to load
// (the network, or a server that refused it), the module graph never runs and the page would stay
// blank. Here the page says so (#load-failed, worded by the server in the reader's language) and
// loads itself again, after 2, 4, 8 … seconds (at most 30) for the tries in a row in this tab.
(() => {
  const TRIES = "thirtyone.load-tries";
  let failed = false;

  function tries() {
    try {
      return Number(sessionStorage.getItem(TRIES)) || 0;
    } catch {
      return 0;
    }
  }

  function remember(count) {
    try {
      if (count) sessionStorage.setItem(TRIES, String(count));
      else sessionStorage.removeItem(TRIES);
    } catch {
      // no storage (a private window may refuse it): every retry waits the shortest time
    }
  }

  function show() {
    const notice = document.getElementById("load-failed");
    if (notice) notice.hidden = false;
  }

  function fail() {
    if (failed) return;
    failed = true;
    const count = tries();
    remember(count + 1);
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", show);
    else show();
    setTimeout(() => location.reload(), Math.min(30, 2 ** (count + 1)) * 1000);
  }

  addEventListener(
    "error",
    (event) => {
      const element = event.target;
      if (
        element instanceof HTMLScriptElement ||
        (element instanceof HTMLLinkElement && element.rel === "stylesheet")
      ) {
        fail();
      }
    },
    true, // a script's or a stylesheet's error does not bubble: caught on its way down
  );
  addEventListener("load", () => {
    if (!failed) remember(0);
  });
})();
