// Plain-language help for the store's filters, by filter id: what the filter does to the picture, when it may help
// a reader, and what each parameter changes. The store's own description (spec wording) stays available as a
// tooltip; a filter we have no text for shows that description alone.

export const FILTER_HELP = {
  blur: {
    summary: 'Softens the image: every pixel becomes the average of the square of pixels around it.',
    use: 'Takes the edge off fine noise and grain; detail finer than the square is lost as well.',
    params: { n: 'Size of the square, in pixels (odd: 3, 5, 7 …). Larger is smoother. 1 changes nothing.' },
  },
  sharpen: {
    summary: 'Crisps edges by pushing each pixel away from the average brightness of its neighbours.',
    use: 'Makes fine lines and margins stand out; it also makes noise stronger. The outermost pixel ring stays as it was.',
    params: { p: 'Strength in percent, 0 to 99. 0 changes nothing; 75 is strong; close to 99 is extreme.' },
  },
  despeckle: {
    summary: 'Removes isolated specks: every pixel becomes the middle value (median) of the square around it.',
    use: 'Clears salt-and-pepper noise and dust while keeping straight edges sharper than a blur does; thin lines narrower than half the square disappear.',
    params: { n: 'Size of the square, in pixels (odd: 3, 5, 7 …). Larger removes bigger specks and more detail.' },
  },
  'edge-detect': {
    summary: 'Shows only where brightness changes: outlines light up, flat areas turn dark.',
    use: 'Finds borders of structures and lines; the result is a map of edges, not a picture to read densities from.',
    params: { frame: 'What happens to the outermost ring of pixels: "xv" keeps the original pixels there (as the classic program did; a bright border can dim the result), "black" blacks them out for a stronger contrast.' },
  },
  emboss: {
    summary: 'Turns the image into a grey relief, as if lit from the top left.',
    use: 'Brings out surface texture and direction of edges; flat areas become mid-grey. Not for reading densities.',
    params: { rounding: 'How small slopes are rounded: "xv" flattens very small ones to grey (as the classic program did), "floor" keeps them visible in even steps.' },
  },
  'oil-paint': {
    summary: 'A painted look: every pixel takes the most common colour around it.',
    use: 'Merges areas of equal value into flat patches. On noisy images with few repeated values it mostly shifts the picture by two pixels.',
    params: {
      n: 'Size of the neighbourhood, in pixels (1 to 31).',
      window: 'Where the neighbourhood sits: "xv" as the classic program (slightly up and to the left, so the image shifts), "centred" around the pixel.',
    },
  },
  pixelize: {
    summary: 'A mosaic: the image is cut into blocks and each block takes its average.',
    use: 'Hides detail (e.g. to obscure burned-in text) or shows the coarse distribution of brightness.',
    params: { block: 'Block size in pixels: one number for squares ("8"), or width x height ("8x4").' },
  },
  spread: {
    summary: 'Scatters pixels: every pixel swaps places with a random neighbour.',
    use: 'A deliberate scrambling effect; the set of values stays the same, their places change. Not for diagnosis.',
    params: {
      distance: 'How far pixels may travel: one number for a diamond of that radius, or width x height ("3x1") for a box. 0 changes nothing.',
      seed: 'Starting number of the random sequence: the same seed gives the same result every time.',
      'seed-from-clock': 'On: a different random result at every second (cannot be repeated).',
    },
  },
};

/** { summary, use, params } for a filter id; null when we have no words of our own for it. */
export function helpFor(id) {
  return FILTER_HELP[id] ?? null;
}
