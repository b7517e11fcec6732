import { noChange, type ResourceDiff } from "../../plan/diff";
import { MARKER_INPUT, stableMarker } from "../../reconcile/createMarker";
import { withMarkerOfItsOwn } from "./replacementMarker";

const diffThat =
  (replaces: boolean, deleteBeforeReplace = false) =>
  (): ResourceDiff => ({ ...noChange(), changes: replaces, replaces: replaces ? ["rotation"] : [], deleteBeforeReplace });
const SDK = "0123456789abcdef";
const RECORDED = "fedcba9876543210";
const news = { name: "ci", rotation: "2", [MARKER_INPUT]: SDK };

describe("a replacement created before its predecessor is deleted gets a marker of its own", () => {
  test("derived from the recorded one, so every run plans the same marker while the predecessor is in state", () => {
    const first = withMarkerOfItsOwn(news, { rotation: "1", [MARKER_INPUT]: RECORDED }, diffThat(true));
    const again = withMarkerOfItsOwn(news, { rotation: "1", [MARKER_INPUT]: RECORDED }, diffThat(true));
    expect(first[MARKER_INPUT]).toBe(stableMarker(`${RECORDED}:replacement`));
    expect(first[MARKER_INPUT]).not.toBe(RECORDED);
    expect(again).toEqual(first);
  });

  test("a second replacement gets yet another marker", () => {
    const second = withMarkerOfItsOwn(news, { [MARKER_INPUT]: stableMarker(`${RECORDED}:replacement`) }, diffThat(true));
    expect(new Set([RECORDED, stableMarker(`${RECORDED}:replacement`), second[MARKER_INPUT]]).size).toBe(3);
  });
});

describe("every other declaration keeps the marker it has", () => {
  test("an update keeps the recorded marker (a replacement's own marker stays once recorded)", () => {
    expect(withMarkerOfItsOwn(news, { [MARKER_INPUT]: RECORDED }, diffThat(false))[MARKER_INPUT]).toBe(RECORDED);
  });

  test("a replacement that deletes first keeps it: its predecessor's row is gone before the create", () => {
    expect(withMarkerOfItsOwn(news, { [MARKER_INPUT]: RECORDED }, diffThat(true, true))[MARKER_INPUT]).toBe(RECORDED);
  });

  test("a new resource (nothing recorded) keeps the SDK's", () => {
    expect(withMarkerOfItsOwn(news, {}, diffThat(true))).toBe(news);
    expect(withMarkerOfItsOwn(news, undefined, diffThat(true))).toBe(news);
  });

  test("a declaration without a marker (a direct call) gets none", () => {
    const { [MARKER_INPUT]: _, ...bare } = news;
    expect(withMarkerOfItsOwn(bare, { [MARKER_INPUT]: RECORDED }, diffThat(true))).toBe(bare);
  });

  test("recorded inputs the diff cannot read keep the recorded marker", () => {
    const throws = () => {
      throw new Error("unreadable");
    };
    expect(withMarkerOfItsOwn(news, { [MARKER_INPUT]: RECORDED }, throws)[MARKER_INPUT]).toBe(RECORDED);
  });
});
