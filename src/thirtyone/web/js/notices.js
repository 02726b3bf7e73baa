// Telling the reader: the live region that screen readers read, and the toast for a moment.
import { $ } from "./state.js";

/** Say lines in the live region (together). */
export function announce(...lines) {
  if (lines.length) $("announce").textContent = lines.join(". ");
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
