// Jest reads `testTimeout` from the global config only (a project's is ignored, so every test had jest's 5 s).
// End-to-end set-up starts an emulator, a PostgreSQL cluster or the engine: tens of seconds on a loaded machine.
jest.setTimeout(120_000);
