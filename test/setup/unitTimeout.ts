// Jest reads `testTimeout` from the global config only (a project's is ignored, so every test had jest's 5 s).
// Many unit tests talk to real sockets and child processes; 5 s is too tight on two shared cores.
jest.setTimeout(20_000);
