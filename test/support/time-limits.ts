/**
 * The limit for a test that runs many requests in a row (dozens of chats, a flood of frames, a crash and two
 * restarts): seconds alone, but the suite runs five files at once on two shared cores, where it took over 30 s.
 * A limit only stops a hang; what a test proves never depends on it.
 */
export const LONG_TEST_MS = 120_000;
