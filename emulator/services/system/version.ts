import { createHash } from "node:crypto";

/** The platform release the emulator answers in /version.json and the system row. */
export const API_VERSION_TEXT = "26.1.0";

/**
 * `GET /version.json`: the product's name, its release and the build hash (the fields the maker's Terraform
 * provider's version data source shows). The hash is derived from the release, so it is stable across runs.
 */
export const VERSION_ANSWER = {
  name: "vplatform-emulator",
  version: API_VERSION_TEXT,
  hash: createHash("sha1").update(`vplatform-emulator ${API_VERSION_TEXT}`).digest("hex"),
};
