// Drag a card of your hand onto the discard pile (discard it) or onto a widow card (swap the two);
// anywhere else it goes back, and the page says where it may go.
import { pretty, showAlert } from "./common.js";
import { t } from "./i18n.js";
import { exchanges, pickKey } from "./picks.js";
import { act } from "./socket.js";
import { $, legalMove, myTurn, state } from "./state.js";

/** Hold ``card`` (its ``node``) from a pointer press; ``redraw`` draws the hand again once it is let
 * go, for what came while it was held (the hand is not drawn under a held card). */
export function startDrag(event, node, card, redraw) {
  if (event.button !== 0 || !myTurn()) return;
  state.drag = { node, card, x: event.clientX, y: event.clientY, moved: false, pointer: event.pointerId, redraw };
  node.setPointerCapture(event.pointerId);
  node.addEventListener("pointermove", moveDrag);
  node.addEventListener("pointerup", endDrag);
  node.addEventListener("pointercancel", cancelDrag);
}

function dropTargets() {
  const targets = [];
  if (!state.drag) return targets;
  const card = state.drag.card;
  const discard = legalMove("discard", { card });
  if (discard) targets.push({ node: $("discard"), move: discard });
  for (const node of document.querySelectorAll("#widow [data-card]")) {
    const swap = exchanges().get(pickKey([card], [node.dataset.card]));
    if (swap) targets.push({ node, move: swap });
  }
  return targets;
}

function moveDrag(event) {
  if (!state.drag || event.pointerId !== state.drag.pointer) return;
  const dx = event.clientX - state.drag.x;
  const dy = event.clientY - state.drag.y;
  if (!state.drag.moved && Math.hypot(dx, dy) < 8) return;
  if (!state.drag.moved) {
    state.drag.moved = true;
    state.drag.node.classList.add("dragging");
    for (const target of dropTargets()) target.node.classList.add("drop-target");
  }
  state.drag.node.style.translate = `${dx}px ${dy}px`;
}

function endDrag(event) {
  if (!state.drag || event.pointerId !== state.drag.pointer) return;
  const { card, moved } = state.drag;
  const targets = dropTargets();
  cancelDrag();
  if (!moved) return;
  // the click that follows a drag's release is the drag's, not a tap on the card: a loaded page may
  // run its timers before it comes, so it is swallowed when it comes (clickAfterDrag), and forgotten
  // at the next press of a pointer or a key if it never does
  state.suppressClick = true;
  document.addEventListener("pointerdown", forgetDragClick, { capture: true, once: true });
  document.addEventListener("keydown", forgetDragClick, { capture: true, once: true });
  const under = document.elementsFromPoint(event.clientX, event.clientY);
  const hit = targets.find((target) =>
    under.some((element) => target.node === element || target.node.contains(element)),
  );
  if (hit) {
    act(hit.move);
    return;
  }
  if (card === state.view.taken_from_pile) showAlert(t("drag.kept", { card: pretty(card) }), "info");
  else if (targets.length)
    showAlert(
      t(targets.some((target) => target.node === $("discard")) ? "drag.back_pile" : "drag.back_widow", {
        card: pretty(card),
      }),
      "info",
    );
  else showAlert(t("drag.back", { card: pretty(card) }), "info");
}

// one function, so that a drag's listeners are not added again while an earlier drag's still wait
function forgetDragClick() {
  state.suppressClick = false;
}

function cancelDrag() {
  if (!state.drag) return;
  const { node, redraw } = state.drag;
  node.classList.remove("dragging");
  node.style.translate = "";
  node.removeEventListener("pointermove", moveDrag);
  node.removeEventListener("pointerup", endDrag);
  node.removeEventListener("pointercancel", cancelDrag);
  for (const target of document.querySelectorAll(".drop-target")) target.classList.remove("drop-target");
  state.drag = null;
  redraw();
}
