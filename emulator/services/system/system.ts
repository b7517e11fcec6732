import { listedRows, table } from "../../model/tableParts";
import { API_VERSION_TEXT } from "./version";
import { SYSTEM } from "../../model/names/system";

export const systemTable = table(SYSTEM.system, {
  description: "the system's identity and version (one row)",
  ...listedRows("int"),
  singleton: true,
  fields: {
    yb_version: { type: "string", readOnly: true },
    os_version: { type: "string", readOnly: true },
    cloud_name: { type: "string", readOnly: true },
    branch: { type: "string", readOnly: true },
  },
  seed: (ctx) => {
    ctx.insert(SYSTEM.system, {
      yb_version: API_VERSION_TEXT,
      os_version: API_VERSION_TEXT,
      cloud_name: "vplatform-emulator",
      branch: "stable",
    });
  },
});
