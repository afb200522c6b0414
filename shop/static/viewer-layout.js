/**
 * Where the 3D view (viewer.js) puts the copies it shows, and in which symbol colour: plain
 * functions of the kit's manifest, without three.js.
 *
 * A plate's manifest entry says which parts it holds and how many (``parts``), not where
 * each copy lies (that is only in its 3MF file), so a plate is shown as a grid of its copies
 * on a bed of the printer's size; the plate's picture on the page shows the printed
 * arrangement. A part printed in several colours (a ship per player) is shown once per colour,
 * side by side.
 */

/**
 * The centre of each copy on the bed, ``at`` ([x, y] in mm, the whole centred on 0, 0), and
 * for a plate the bed's size ``bed`` ([x, y] in mm, at least the grid's), else null.
 * ``sizes`` are the copies' bounding boxes ({x, y} in mm); ``settings`` the manifest's.
 */
export function layout(sizes, settings, plate) {
  const gap = settings.plate_spacing || 6;
  const cellX = Math.max(...sizes.map((s) => s.x)) + gap;
  const cellY = Math.max(...sizes.map((s) => s.y)) + gap;
  const n = sizes.length;
  let columns = n;
  if (plate) {
    const bedX = settings.bed ? settings.bed.x : cellX * n;
    const fit = Math.max(1, Math.floor((bedX + gap) / cellX));
    columns = Math.min(fit, Math.max(1, Math.ceil(Math.sqrt((n * cellY) / cellX))));
  }
  const rows = Math.ceil(n / columns);
  const at = sizes.map((_, i) => {
    const column = i % columns;
    const row = Math.floor(i / columns);
    return [(column - (columns - 1) / 2) * cellX, ((rows - 1) / 2 - row) * cellY];
  });
  let bed = null;
  if (plate) {
    const grid = [columns * cellX + gap, rows * cellY + gap];
    bed = settings.bed ? [Math.max(settings.bed.x, grid[0]), Math.max(settings.bed.y, grid[1])] : grid;
  }
  return { at, bed };
}

/** The colour of the symbol layer: the plate's colour change's (or symbol part's), else the kit's. */
export function symbolFrom(plate, settings) {
  if (plate && plate.colour_change) return plate.colour_change.colour;
  if (plate && plate.symbol_part) return plate.symbol_part.colour;
  return settings.symbol_colour;
}
