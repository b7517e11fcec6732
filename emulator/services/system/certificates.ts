/**
 * `certificates`: the site's TLS certificates, read-only here, with the fields the maker's clients read
 * (pyVergeOS' certificate service). One self-signed certificate is seeded; its private key is never returned.
 */
import { generateKeyPairSync } from "node:crypto";
import { applyDefaults } from "../../engine/write";
import { listedRows, table, timestampFields } from "../../model/tableParts";
import { SYSTEM } from "../../model/names/system";
import { IDENTITY } from "../../model/names/identity";

const YEAR_SECONDS = 365 * 86400;

export const certificatesTable = table(SYSTEM.certificates, {
  description: "TLS certificates of the site (read-only); `valid` is false once `expires` has passed",
  ...listedRows("int"),
  fields: {
    domain: { type: "string", readOnly: true, summary: true },
    domainname: { type: "string", readOnly: true, default: "" },
    domainlist: { type: "text", readOnly: true, default: "", description: "subject alternative names, comma-separated" },
    description: { type: "text", readOnly: true, default: "" },
    type: { type: "string", readOnly: true, enum: { manual: "Manual", letsencrypt: "Let's Encrypt", self_signed: "Self-Signed" } },
    acme_server: { type: "string", readOnly: true, default: "" },
    key_type: { type: "string", readOnly: true, default: "ecdsa", enum: { ecdsa: "ECDSA", rsa: "RSA" } },
    // Text: govergeos decodes it as a string and pyVergeOS sends it as one (`str(rsa_key_size)`); "" for an ECDSA key.
    rsa_key_size: { type: "string", readOnly: true, default: "", enum: { "": "None", 2048: "2048", 3072: "3072", 4096: "4096" } },
    contact: { type: "row", ref: IDENTITY.users, readOnly: true, default: null, description: "ACME contact (Let's Encrypt only)" },
    agree_tos: { type: "bool", readOnly: true, default: false },
    valid: { type: "bool", compute: (ctx, row) => Number(row.expires) > ctx.nowSeconds() },
    autocreated: { type: "bool", readOnly: true, default: false },
    expires: { type: "uint64", readOnly: true, description: "seconds since the epoch" },
    public: { type: "text", readOnly: true, notInMost: true, description: "public key (PEM)" },
    private: { type: "text", readOnly: true, hidden: true, description: "private key: never returned" },
    chain: { type: "text", readOnly: true, default: "", notInMost: true },
    ...timestampFields(),
  },
  seed: (ctx) => {
    const keys = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const row = {
      domain: "vplatform.local",
      domainname: "vplatform.local",
      domainlist: "vplatform.local,localhost",
      description: "self-signed certificate made at first start",
      type: "self_signed",
      autocreated: true,
      expires: ctx.nowSeconds() + YEAR_SECONDS,
      public: keys.publicKey.export({ type: "spki", format: "pem" }),
      private: keys.privateKey.export({ type: "pkcs8", format: "pem" }),
    };
    ctx.insert(SYSTEM.certificates, applyDefaults(ctx, certificatesTable, row));
  },
});
