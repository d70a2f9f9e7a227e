// Runs in every test file (setupFilesAfterEnv).
import { removeRememberedNamespaces } from '@mailer/testing';

// Component tests talk to real servers: give each test 30 s (a project config cannot set testTimeout).
jest.setTimeout(30_000);

// Each file removes the broker queues it declared, so a full run never piles up quorum queues.
afterAll(async () => {
  if (process.env.AMQP_URL) await removeRememberedNamespaces(process.env.AMQP_URL);
}, 120_000);
