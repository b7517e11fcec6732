import { nameField, table, timestampFields, uniqueNames } from "../../model/tableParts";
import { IDENTITY } from "../../model/names/identity";

const DRIVERS = { openid: "OpenID", oauth2: "OAuth2", azure: "Azure AD", google: "Google", gitlab: "GitLab", okta: "Okta" };

export const authSourcesTable = table(IDENTITY.auth_sources, {
  description: "external authentication sources (stored only: the emulator authenticates nobody through them)",
  ...uniqueNames("an authentication source"),
  fields: {
    name: nameField(),
    driver: { type: "string", required: true, enum: DRIVERS },
    settings: { type: "json", default: {}, notInMost: true, description: "the driver's settings (client id, endpoints...)" },
    menu: { type: "bool", default: false, description: "offered on the login page" },
    button_background_color: { type: "string", default: "" },
    button_color: { type: "string", default: "" },
    button_fa_icon: { type: "string", default: "" },
    icon_color: { type: "string", default: "" },
    debug: { type: "bool", default: false },
    debug_ts: { type: "uint64", readOnly: true, default: 0 },
    ...timestampFields(),
  },
});
