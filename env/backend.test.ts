import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { backendPasswords, chooseBackend, currentLogin, masked } from "./backend";

describe("the stack's backend", () => {
  test("PULUMI_BACKEND_URL is the user's choice, passed on as it is with its passphrase", () => {
    const b = chooseBackend({ PULUMI_BACKEND_URL: "s3://bucket/state" }, "/repo", undefined);
    expect(b).toEqual({ description: "s3://bucket/state", env: { PULUMI_BACKEND_URL: "s3://bucket/state" } });
    expect(chooseBackend({ PULUMI_BACKEND_URL: "file:///s", PULUMI_CONFIG_PASSPHRASE: "pw" }, "/repo", undefined).env).toEqual({
      PULUMI_BACKEND_URL: "file:///s",
      PULUMI_CONFIG_PASSPHRASE: "pw",
    });
  });

  test("PULUMI_ACCESS_TOKEN in the environment is Pulumi Cloud, as the engine takes it", () => {
    expect(chooseBackend({ PULUMI_ACCESS_TOKEN: "pul-x" }, "/repo", "s3://other").env).toEqual({
      PULUMI_BACKEND_URL: "https://api.pulumi.com",
    });
  });

  test("a `pulumi login` made for other work is not followed: the local default, saying which login it ignored and how to use it", () => {
    const b = chooseBackend({}, "/repo", "s3://team-ts-state");
    expect(b.env).toEqual({ PULUMI_BACKEND_URL: "file:///repo/.vplatform/state?metadata=skip", PULUMI_CONFIG_PASSPHRASE: "" });
    expect(b.description).toContain("not s3://team-ts-state of `pulumi login`: set PULUMI_BACKEND_URL to it to use it");
  });

  test("otherwise a local file backend under the working directory, with the passphrase given or empty", () => {
    expect(chooseBackend({}, "/repo", undefined).env).toEqual({
      PULUMI_BACKEND_URL: "file:///repo/.vplatform/state?metadata=skip",
      PULUMI_CONFIG_PASSPHRASE: "",
    });
    expect(chooseBackend({ PULUMI_CONFIG_PASSPHRASE: "pw" }, "/repo", undefined).env.PULUMI_CONFIG_PASSPHRASE).toBe("pw");
    expect(chooseBackend({}, "/repo", undefined).description).toBe(
      "file:///repo/.vplatform/state?metadata=skip (local default: set PULUMI_BACKEND_URL for a shared one)",
    );
  });

  test("the current login is read from PULUMI_HOME's credentials", () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-home-"));
    try {
      expect(currentLogin({ PULUMI_HOME: home })).toBeUndefined();
      fs.writeFileSync(path.join(home, "credentials.json"), JSON.stringify({ current: "file:///srv/state", accounts: {} }));
      expect(currentLogin({ PULUMI_HOME: home })).toBe("file:///srv/state");
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});

describe("a backend URL's password is never printed", () => {
  test("the passwords of the backend URLs, plain and percent-encoded", () => {
    expect(backendPasswords("postgres://pulumi:s3cr%2Fet@db:5432/state", undefined, "file:///tmp/x")).toEqual(["s3cr/et", "s3cr%2Fet"]);
    expect(backendPasswords("postgres://pulumi@db/state", "not a url")).toEqual([]);
  });

  test("masked text keeps everything but the password", () => {
    expect(masked("state in postgres://pulumi:s3cret@db/state; again s3cret", ["s3cret"])).toBe(
      "state in postgres://pulumi:***@db/state; again ***",
    );
  });
});
