// Component tests talk to real servers: give each test 30 s (a project config cannot set testTimeout).
jest.setTimeout(30_000);
