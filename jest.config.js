// Two projects: fast unit/integration tests (run in parallel workers) and
// end-to-end tests under the real Pulumi engine (coverage off: instrumentation
// breaks Pulumi's closure serialization).
const transform = { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.test.json" }] };
module.exports = {
  projects: [
    {
      displayName: "unit",
      testEnvironment: "node",
      // Many of these talk to real sockets and child processes; 5 s is too tight on two shared cores
      // (and shorter than the 10 s the tests' own `eventually` allows).
      testTimeout: 20_000,
      transform,
      testMatch: [
        "<rootDir>/{emulator,provider,sdk,env,scripts,policy,bench}/**/*.test.ts",
        "<rootDir>/test/{emulator,provider,sdk,env,compat}/**/*.test.ts",
      ],
    },
    {
      displayName: "e2e",
      testEnvironment: "node",
      transform,
      testMatch: ["<rootDir>/test/e2e/**/*.test.ts"],
      coveragePathIgnorePatterns: [".*"],
    },
  ],
};
