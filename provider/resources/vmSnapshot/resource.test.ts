// Which of a VM's rows is the snapshot a create took: pure, no platform.
import { markerTag } from "../../reconcile/createMarker";
import { ourSnapshot } from "./resource";

const snap = (key: number, name: string, marker: string | undefined, created: number, isSnapshot: unknown = true) => ({
  $key: key,
  name,
  description: marker ? `term image ${markerTag(marker)}` : "term image",
  created,
  is_snapshot: isSnapshot,
});

describe("a snapshot's key is found among its VM's rows (read together with other VMs'), by name and marker", () => {
  const rows = [
    snap(10, "start", "aaaaaaaa", 100),
    snap(11, "start", "bbbbbbbb", 200), // another stack's snapshot of the same name
    snap(12, "end", "aaaaaaaa", 300), // another name
    snap(13, "start", undefined, 400), // taken in the UI
  ];
  test("the row of the declared name carrying the create's marker", () => {
    expect(ourSnapshot(rows, "start", "aaaaaaaa")?.$key).toBe(10);
    expect(ourSnapshot(rows, "start", "bbbbbbbb")?.$key).toBe(11);
  });
  test("none when no row carries the marker (the snapshot was not taken): nothing else is taken for it", () => {
    expect(ourSnapshot(rows, "start", "cccccccc")).toBeUndefined();
    expect(ourSnapshot([], "start", "aaaaaaaa")).toBeUndefined();
  });
  test("the newest of several with the marker (a resent snapshot after a lost answer), as the platform's -created sort gave", () => {
    expect(ourSnapshot([snap(20, "start", "aaaaaaaa", 100), snap(21, "start", "aaaaaaaa", 300)], "start", "aaaaaaaa")?.$key).toBe(21);
  });
  test("a row that is not a snapshot is never one, whatever its name (is_snapshot as a boolean or its string)", () => {
    expect(ourSnapshot([snap(30, "start", "aaaaaaaa", 100, false)], "start", "aaaaaaaa")).toBeUndefined();
    expect(ourSnapshot([snap(31, "start", "aaaaaaaa", 100, "true")], "start", "aaaaaaaa")?.$key).toBe(31);
  });
});
