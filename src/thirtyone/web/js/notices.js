// Telling the reader: the live region that screen readers read, and the toast for a moment.
import { $ } from "./state.js";

const ENDED = /[.!?…。！？؟۔]$/u; // a line that ends its own sentence (in any of the page's languages)

/** Say lines in the live region (together), one sentence each: a line that ends with its own
 * full stop gets no second one ("You lose 2 lives (R6.5). Game over: Ann wins"). */
export function announce(...lines) {
  if (lines.length)
    $("announce").textContent = lines.reduce((said, line) => `${said}${ENDED.test(said) ? " " : ". "}${line}`);
}

export function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  announce(text);
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => {
    box.hidden = true;
  }, 2600);
}
