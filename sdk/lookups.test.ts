// Every declared look-up is a function of the SDK, with its Output twin: a declaration the SDK forgets fails here.
import { LOOKUP_FUNCTIONS } from "../provider/resources/lookupFunctions";
import * as lookups from "./lookups";

describe("the SDK offers every declared look-up", () => {
  test.each(LOOKUP_FUNCTIONS.map((f) => f.name))("%s and %sOutput are exported functions", (name) => {
    const exported = lookups as unknown as Record<string, unknown>;
    expect([typeof exported[name], typeof exported[`${name}Output`]]).toEqual(["function", "function"]);
  });
});
