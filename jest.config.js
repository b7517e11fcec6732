// Two projects: fast unit/integration tests (run in parallel workers) and
// end-to-end tests under the real Pulumi engine (coverage off: instrumentation
// breaks Pulumi's closure serialization).
const transform = { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.test.json" }] };
module.exports = {
  // Jest's default is one worker less than the cores: one on a 2-core runner. The end-to-end files spend
  // most of their time waiting on the engine and emulator processes, so two workers there halve the run
  // (CI: 15 minutes of tests instead of 25).
  maxWorkers: Math.max(2, require("node:os").availableParallelism() - 1),
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
      // Set-up starts an emulator, a PostgreSQL cluster or the engine: seconds, tens of them on a loaded machine
      // (jest's 5 s made `./dev test` fail outside CI). Tests that take longer say so.
      testTimeout: 120_000,
      transform,
      testMatch: ["<rootDir>/test/e2e/**/*.test.ts"],
      coveragePathIgnorePatterns: [".*"],
    },
  ],
};
