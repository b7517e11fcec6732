import type { ResourceDiff } from "../../plan/diff";
import { MARKER_INPUT, stableMarker } from "../../reconcile/createMarker";
import type { Row } from "../../reconcile/platform";

/**
 * The create marker a checked declaration carries, given the inputs recorded for it (`olds`).
 *
 * A create takes over a row tagged with its marker (an interrupted earlier create made it), and the SDK derives
 * the marker from the resource's identity, which a replacement shares with the resource it replaces. Replaced
 * create-before-delete, the old row is still live and still in state when the replacement is created: with the
 * same marker the create would take it over (and the delete then revoke it). So such a replacement gets a marker
 * of its own, derived from its predecessor's: the same in every run while that predecessor is in state, so a
 * replacement whose create was interrupted is still found by the next `up`. Once recorded, a marker stays.
 * A replacement that deletes first keeps the marker: its predecessor's row is gone before it is created.
 */
export function withMarkerOfItsOwn(news: Row, olds: Row | undefined, diff: (olds: Row, news: Row) => ResourceDiff): Row {
  const recorded = olds?.[MARKER_INPUT];
  if (typeof recorded !== "string" || news[MARKER_INPUT] === undefined) return news;
  return { ...news, [MARKER_INPUT]: replacesCreatingFirst(olds as Row, news, diff) ? stableMarker(`${recorded}:replacement`) : recorded };
}

function replacesCreatingFirst(olds: Row, news: Row, diff: (olds: Row, news: Row) => ResourceDiff): boolean {
  try {
    const d = diff(olds, news);
    return d.replaces.length > 0 && !d.deleteBeforeReplace;
  } catch {
    return false; // inputs recorded by an older release the diff cannot read: the marker stays as it was
  }
}
