import * as tls from "node:tls";
import { type ProviderConfig, type SettingNaming, settingNaming } from "../config/provider-config";

/** Verification on by default; `caCert` is trusted in addition to the system roots, not instead of them. */
export function tlsOptionsFor(config: Pick<ProviderConfig, "caCert" | "insecure">): {
  certificateAuthority?: string[];
  rejectUnauthorized: boolean;
} {
  return {
    rejectUnauthorized: !config.insecure,
    ...(config.caCert ? { certificateAuthority: [...tls.rootCertificates, config.caCert] } : {}),
  };
}

const VERIFICATION_CODES = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_TLS_CERT_ALTNAME_INVALID/;

/** What to do about a certificate the client could not verify. */
export function tlsHint(code: string, named: SettingNaming = settingNaming()): string | undefined {
  return VERIFICATION_CODES.test(code)
    ? `the server certificate could not be verified: set ${named.name("caCert")} to the platform's CA (PEM or file), or ${named.name("insecure")} to true`
    : undefined;
}
