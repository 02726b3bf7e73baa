// Seats around an oval table: where each seat's plate goes on a stage of a given size, the
// reader's seat at the bottom and the others clockwise in seat order (play passes to the left,
// R2.1), spaced evenly along the oval, as large as they can be without touching each other or
// the cards in the middle.

/** Place ``count`` plates (``plate``: {w, h} at scale 1) around a ``width`` x ``height`` stage,
 * seat offset 0 at the bottom, 1 to its left and on clockwise, the ``centre`` box ({w, h} at
 * scale 1, or a function of the scale giving its {w, h}) in the middle. Returns {scale, plate: {w, h}, centre: {w, h}, spots: [{x, y}] (the
 * plates' top-left corners by offset), felt: {x, y, w, h}}. */
export function placeSeats({ width, height, count, plate, centre, margin = 6, gap = 6, scales = [1.2, 0.45] }) {
  let best = null;
  for (let scale = scales[0]; scale >= scales[1] - 1e-9; scale -= 0.03) {
    const layout = attempt(width, height, count, plate, centre, margin, gap, scale);
    best = layout;
    if (layout.fits) return layout;
  }
  return best;
}

function attempt(width, height, count, plate, centre, margin, gap, scale) {
  const pw = Math.round(plate.w * Math.min(scale, plate.maxScale || scale));
  const ph = Math.round(plate.h * Math.min(scale, plate.maxScale || scale));
  const middle = typeof centre === "function" ? centre(scale) : { w: centre.w * scale, h: centre.h * scale };
  const cw = middle.w;
  const ch = middle.h;
  const cx = width / 2;
  const cy = height / 2;
  const rx = Math.max(0, width / 2 - pw / 2 - margin);
  const ry = Math.max(0, height / 2 - ph / 2 - margin);
  // the oval's length measured in plates (a step across is a plate's width, a step down its
  // height), so that plates side by side and plates one above the other are spaced alike
  const steps = 720;
  const points = [];
  let total = 0;
  let last = null;
  for (let i = 0; i <= steps; i++) {
    const t = Math.PI / 2 + (2 * Math.PI * i) / steps;
    const point = { x: cx + rx * Math.cos(t), y: cy + ry * Math.sin(t) };
    if (last) total += Math.hypot((point.x - last.x) / pw, (point.y - last.y) / ph);
    point.at = total;
    points.push(point);
    last = point;
  }
  const spots = [];
  let j = 0;
  for (let k = 0; k < count; k++) {
    const want = (total * k) / count;
    while (j < points.length - 1 && points[j].at < want) j++;
    spots.push({ x: Math.round(points[j].x - pw / 2), y: Math.round(points[j].y - ph / 2) });
  }
  const boxes = spots.map((s) => ({ x: s.x - gap / 2, y: s.y - gap / 2, w: pw + gap, h: ph + gap }));
  const box = { x: cx - cw / 2, y: cy - ch / 2, w: cw, h: ch };
  let fits = rx > 0 && ry > 0;
  for (let a = 0; a < boxes.length && fits; a++) {
    if (overlap(boxes[a], box)) fits = false;
    for (let b = a + 1; b < boxes.length && fits; b++) if (overlap(boxes[a], boxes[b])) fits = false;
  }
  const felt = {
    x: margin + pw * 0.32,
    y: margin + ph * 0.42,
    w: width - 2 * margin - pw * 0.64,
    h: height - 2 * margin - ph * 0.84,
  };
  return { scale, fits, plate: { w: pw, h: ph }, centre: { w: cw, h: ch }, spots, felt };
}

function overlap(a, b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** The largest box centred on a ``width`` x ``height`` stage that keeps ``gap`` px clear of every
 * plate (``layout`` from placeSeats) and ``margin`` px inside the stage: {w, h} in px, at most
 * ``maxW`` wide (the widest of the boxes of about the same area: text reads better wide). */
export function clearRoom({ width, height, layout, gap = 8, margin = 6, maxW = 480 }) {
  const cx = width / 2;
  const cy = height / 2;
  const seats = layout.spots.map((spot) => ({ x: spot.x, y: spot.y, w: layout.plate.w, h: layout.plate.h }));
  let best = { w: 0, h: 0 };
  for (let w = Math.min(maxW, width - 2 * margin); w >= 80; w -= 4) {
    let half = Math.min(cy, height - cy) - margin;
    for (const seat of seats) {
      if (seat.x >= cx + w / 2 + gap || seat.x + seat.w <= cx - w / 2 - gap) continue; // beside the box
      if (seat.y + seat.h <= cy) half = Math.min(half, cy - (seat.y + seat.h) - gap);
      else if (seat.y >= cy) half = Math.min(half, seat.y - gap - cy);
      else half = 0;
    }
    const h = Math.max(0, Math.floor(2 * half));
    if (w * h > best.w * best.h * 1.15) best = { w, h };
  }
  return best;
}
