// Two projects: fast unit/integration tests (run in parallel workers) and
// end-to-end tests under the real Pulumi engine (coverage off: instrumentation
// breaks Pulumi's closure serialization).
const transform = { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.test.json" }] };
module.exports = {
  // Jest's default is one worker less than the cores: one on a 2-core runner. Many files spend most of their time
  // waiting, not computing: the end-to-end files on the engine and emulator processes, the fault matrices on request
  // timeouts and retry back-off (the in-process create matrix: 74 s of wall time for 8 s of CPU). One worker more than
  // the cores keeps both cores busy while a file waits.
  maxWorkers: require("node:os").availableParallelism() + 1,
  projects: [
    {
      displayName: "unit",
      testEnvironment: "node",
      // A project's `testTimeout` is ignored by jest: each project sets its own in a set-up file.
      setupFilesAfterEnv: ["<rootDir>/test/setup/unitTimeout.ts"],
      transform,
      testMatch: [
        "<rootDir>/{emulator,provider,sdk,env,scripts,policy,bench}/**/*.test.ts",
        "<rootDir>/test/{emulator,provider,sdk,env,compat}/**/*.test.ts",
      ],
    },
    {
      displayName: "e2e",
      testEnvironment: "node",
      setupFilesAfterEnv: ["<rootDir>/test/setup/e2eTimeout.ts"],
      transform,
      testMatch: ["<rootDir>/test/e2e/**/*.test.ts"],
      coveragePathIgnorePatterns: [".*"],
    },
  ],
};
