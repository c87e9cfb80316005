import { describe, expect, it } from 'vitest';
import { answerClose, closeReply } from '../../../durable-objects/socket-close';

// The close rule of the real-time rooms (durable-objects/socket-close.ts), checked against workerd's
// own WebSocketPair; what a client sees over a real connection is in test/node/platform/socket-close-workerd.test.ts.

const RESERVED = [1005, 1006, 1015];

/** Both accepted ends of a workerd WebSocketPair, and the close the client end receives. */
function socketPair() {
  const { 0: client, 1: server } = new WebSocketPair();
  client.accept();
  server.accept();
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    client.addEventListener('close', ({ code, reason }) => resolve({ code, reason }));
  });
  return { client, server, closed };
}

describe('closeReply', () => {
  it('answers a close frame without a code (1005) with 1000', () => {
    expect(closeReply(1005, '')).toEqual({ code: 1000, reason: '' });
  });

  it('sends nothing after an abnormal drop (1006) or a TLS failure (1015): no peer is left', () => {
    expect(closeReply(1006, 'WebSocket disconnected without sending Close frame.')).toBeNull();
    expect(closeReply(1015, '')).toBeNull();
  });

  it('echoes a real close code with its reason', () => {
    expect(closeReply(1000, 'bye')).toEqual({ code: 1000, reason: 'bye' });
    expect(closeReply(1001, 'going away')).toEqual({ code: 1001, reason: 'going away' });
    expect(closeReply(4000, 'app')).toEqual({ code: 4000, reason: 'app' });
  });

  it('answers a code no frame may carry with a protocol error (1002)', () => {
    for (const code of [0, 999, 1004, 5000]) expect(closeReply(code, 'x')).toEqual({ code: 1002, reason: '' });
  });

  it('never replies with 1005, 1006 or 1015, whatever it received', () => {
    for (let code = 0; code <= 5000; code++) {
      expect(RESERVED).not.toContain(closeReply(code, '')?.code);
    }
  });

  it('only replies with codes workerd lets a socket send', () => {
    for (const code of [0, 999, 1000, 1001, 1002, 1004, 1005, 1011, 1016, 2999, 3000, 4999, 5000]) {
      const { client, server } = socketPair();
      const reply = closeReply(code, 'r')!;
      expect(() => server.close(reply.code, reply.reason)).not.toThrow();
      client.close();
    }
  });
});

describe('answerClose', () => {
  it('closes a socket whose peer closed without a code with 1000', async () => {
    const { server, closed } = socketPair();
    answerClose(server, 1005, '');
    expect(await closed).toEqual({ code: 1000, reason: '' });
  });

  it('does not throw where workerd refuses to close the socket', () => {
    const { 1: unaccepted } = new WebSocketPair();
    expect(() => unaccepted.close(1000, '')).toThrow('You must call one of accept()');
    expect(() => answerClose(unaccepted, 1000, '')).not.toThrow();
  });
});

describe('workerd', () => {
  it('throws InvalidAccessError when asked to send 1005, 1006 or 1015', () => {
    const { client, server } = socketPair();
    for (const code of RESERVED) {
      expect(() => server.close(code, '')).toThrow(
        expect.objectContaining({ name: 'InvalidAccessError', message: `Invalid WebSocket close code: ${code}.` }),
      );
    }
    client.close();
  });
});
