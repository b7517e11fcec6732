import { z } from "zod";
import { output, type OutputValues } from "../../schemas/outputs";
import {
  adoptSchema,
  apiField,
  cidrContains,
  ipv4Schema as ipv4,
  ipv4ToInt,
  parseCidr,
  providerField,
  timeoutsSchema,
  whenValid,
} from "../../schemas/common";

/** The platform table its rows live in. */

export const vnetShape = {
  name: apiField(z.string().min(1).max(128), "name", "string", "Network name, unique on the platform"),
  description: apiField(z.string().optional(), "description", "string", "Description"),
  type: apiField(z.enum(["internal", "external", "dmz"]).optional(), "type", "string", "Network type", { onChange: "replace" }),
  layer2Type: apiField(z.enum(["vxlan", "vlan", "none"]).optional(), "layer2_type", "string", "Layer-2 type", { onChange: "replace" }),
  network: apiField(
    z
      .string()
      .refine((s) => parseCidr(s) !== undefined, "a CIDR block like 10.0.0.0/24")
      .optional(),
    "network",
    "string",
    "Network address (CIDR)",
  ),
  gateway: apiField(
    z.union([ipv4, z.literal("")], { error: () => 'must be an IPv4 address like 10.0.0.1, or "" for none' }).optional(),
    "gateway",
    "string",
    "Gateway address, inside the network (may be empty)",
  ),
  dnslist: apiField(z.string().optional(), "dnslist", "string", "DNS servers, comma separated"),
  mtu: apiField(z.number().int().min(576).max(9216).optional(), "mtu", "int", "MTU"),
  dhcpEnabled: apiField(z.boolean().optional(), "dhcp_enabled", "bool", "Serve DHCP"),
  dhcpStart: apiField(ipv4.optional(), "dhcp_start", "string", "First address of the DHCP pool (inside the network)"),
  dhcpStop: apiField(ipv4.optional(), "dhcp_stop", "string", "Last address of the DHCP pool (inside the network, not before dhcpStart)"),
  rateLimit: apiField(z.number().int().min(0).optional(), "rate_limit", "int", "Rate limit, in rateLimitType units"),
  rateLimitBurst: apiField(z.number().int().min(0).optional(), "rate_limit_burst", "int", "Rate-limit burst"),
  rateLimitType: apiField(
    z.enum(["mbytes/second", "mbits/second", "packets/second"]).optional(),
    "rate_limit_type",
    "string",
    "Unit of rateLimit",
  ),
  advancedOptions: apiField(
    z
      .strictObject({
        dnsmasq: z.array(z.string()).optional().meta({ description: 'dnsmasq options, one per string (e.g. "dhcp-option=6,10.0.0.1")' }),
      })
      .optional(),
    "advanced_options",
    "json",
    "Options passed to the network's services; dnsmasq holds an array of strings",
  ),
  powerState: providerField(
    z.enum(["running", "stopped"]).optional(),
    "Desired power state: a network passes traffic only while it runs. Unset leaves power alone. Powered on with its pending changes applied; read back from the live status of its router.",
    { onChange: "action" },
  ),
  adopt: adoptSchema,
  timeouts: timeoutsSchema,
};

export const vnetInputsSchema = z
  .strictObject(vnetShape)
  .superRefine(checkVnet, whenValid("network", "gateway", "dhcpEnabled", "dhcpStart", "dhcpStop"));

export function checkVnet(
  v: { network?: string; gateway?: string; dhcpEnabled?: boolean; dhcpStart?: string; dhcpStop?: string },
  ctx: z.RefinementCtx,
): void {
  const net = v.network ? parseCidr(v.network) : undefined;
  const inside = (field: "gateway" | "dhcpStart" | "dhcpStop") => {
    const value = v[field];
    const ip = value ? ipv4ToInt(value) : undefined;
    if (net && ip !== undefined && !cidrContains(net, ip))
      ctx.addIssue({ code: "custom", path: [field], message: `${value} is outside the network ${v.network}` });
  };
  inside("gateway");
  inside("dhcpStart");
  inside("dhcpStop");
  const start = v.dhcpStart ? ipv4ToInt(v.dhcpStart) : undefined;
  const stop = v.dhcpStop ? ipv4ToInt(v.dhcpStop) : undefined;
  if (start !== undefined && stop !== undefined && start > stop)
    ctx.addIssue({ code: "custom", path: ["dhcpStop"], message: `the DHCP range ends (${v.dhcpStop}) before it starts (${v.dhcpStart})` });
  if (v.dhcpEnabled && (v.dhcpStart === undefined || v.dhcpStop === undefined))
    ctx.addIssue({
      code: "custom",
      path: [v.dhcpStart === undefined ? "dhcpStart" : "dhcpStop"],
      message: "dhcpEnabled needs dhcpStart and dhcpStop",
    });
  if ((v.dhcpStart || v.dhcpStop) && !net)
    ctx.addIssue({ code: "custom", path: ["network"], message: "a DHCP range needs the network (CIDR)" });
}

export type VnetInputs = z.output<typeof vnetInputsSchema>;
export const vnetOutputs = {
  status: output("string", "Live status of the network (running, stopped, starting, ...) at the last create, update or refresh"),
};
export type VnetOutputs = VnetInputs & OutputValues<typeof vnetOutputs>;
