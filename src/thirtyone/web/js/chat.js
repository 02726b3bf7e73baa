// The table chat: lines and quick reactions (each shown in the reader's language), bubbles at the
// seat, unread counts, and muting anyone for oneself.
import { h } from "./common.js";
import { t } from "./i18n.js";
import { bubble } from "./flights.js";
import { announce } from "./notices.js";
import { renderUnread, wide } from "./side.js";
import { send } from "./socket.js";
import { $, chatLines, muteKey, mutes, name, state } from "./state.js";

// the reactions' words are the reader's: each is sent as its key and shown in the language of whoever reads it
export const REACTIONS = Object.fromEntries(
  ["good_luck", "nice_hand", "well_played", "good_game", "unlucky", "wow", "laugh", "thinking"].map((key) => [
    key,
    t(`reaction.${key}`),
  ]),
);

export function hearChat(line, live) {
  if (chatLines.some((known) => known.id === line.id)) return;
  if (live && line.seat === state.mySeat) {
    $("chat-note").textContent = ""; // said: an earlier refusal no longer holds
    // the box keeps a line until the table takes it (as the server cleans it), not what was typed since
    if (line.text && $("chat-text").value.normalize("NFC").trim() === line.text) $("chat-text").value = "";
  }
  chatLines.push(line);
  if (chatLines.length > 200) chatLines.shift();
  if (live && !mutes.has(line.seat)) {
    bubble(line.seat, line.reaction ? REACTIONS[line.reaction] || line.reaction : line.text, "chat");
    if (!(state.sideOpen || wide()) || state.panel !== "chat") {
      if (line.seat !== state.mySeat) state.unread++;
    }
    if (line.seat !== state.mySeat)
      announce(`${name(line.seat)} says: ${line.reaction ? REACTIONS[line.reaction] || line.reaction : line.text}`);
  }
  renderUnread();
  renderChat();
}

export function renderChat() {
  const list = $("chat-lines");
  const shown = chatLines.filter((line) => !mutes.has(line.seat));
  list.replaceChildren(
    ...shown.map((line) =>
      h(
        "li",
        { class: line.seat === state.mySeat ? "mine" : null, "data-id": line.id },
        h("span", { class: "from" }, `${name(line.seat)}:`),
        line.reaction
          ? h("span", { class: "reaction" }, REACTIONS[line.reaction] || line.reaction)
          : h("span", { class: "text" }, line.text),
      ),
    ),
  );
  list.scrollTop = list.scrollHeight;
  const others = state.table
    ? state.table.seats.filter((s) => s.kind === "human" && s.taken && s.seat !== state.mySeat)
    : [];
  $("mute-list").replaceChildren(
    ...others.map((s) =>
      h(
        "li",
        {},
        h("span", {}, name(s.seat)),
        h(
          "button",
          {
            type: "button",
            class: "small",
            "aria-pressed": String(mutes.has(s.seat)),
            "data-seat": s.seat,
            onclick: () => toggleMute(s.seat),
          },
          mutes.has(s.seat) ? "Muted" : "Mute",
        ),
      ),
    ),
  );
  $("chat-form").hidden = state.mySeat === null;
  $("reactions").hidden = state.mySeat === null;
  if (state.mySeat === null) $("chat-note").textContent = t("chat.spectator");
}

function toggleMute(seat) {
  if (mutes.has(seat)) mutes.delete(seat);
  else mutes.add(seat);
  localStorage.setItem(muteKey, JSON.stringify([...mutes]));
  renderChat();
}

export function sendChat(message) {
  $("chat-note").textContent = "";
  send({ type: "chat", ...message });
}
