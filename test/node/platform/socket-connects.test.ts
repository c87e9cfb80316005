import { describe, expect, it } from 'vitest';
import type { SocketAttachment } from '../../../durable-objects/socket-attachment';
import { admitConnect } from '../../../durable-objects/socket-connects';

const bound = { perWindow: 3, windowMs: 60_000 };
const fresh = (): SocketAttachment => ({ eid: 'e', connectedAt: 0, queryToken: null, namespaces: {} });
const none = () => false;

describe('namespace connects on one connection', () => {
  it('admits each namespace once, and calls a connect for a joined namespace a repeat', () => {
    const attachment = fresh();
    expect(admitConnect(attachment, '/feed', 0, bound, none)).toBe('admitted');
    attachment.namespaces['/feed'] = { sid: 's', userId: 'u' };
    expect(admitConnect(attachment, '/messages', 1, bound, none)).toBe('admitted');
    expect(admitConnect(attachment, '/feed', 2, bound, none)).toBe('repeated');
  });

  it('leaves a second connect to the answer of the first while that is being authenticated, and counts it', () => {
    const attachment = fresh();
    const answering = (nsp: string) => nsp === '/feed';
    expect(admitConnect(attachment, '/feed', 0, bound, answering)).toBe('answering');
    expect(admitConnect(attachment, '/messages', 0, bound, answering)).toBe('admitted');
    expect(admitConnect(attachment, '/feed', 0, bound, answering)).toBe('answering');
    expect(admitConnect(attachment, '/feed', 0, bound, answering)).toBe('too-many');
  });

  it('calls a connect arriving while the joined namespace is still being answered answering, not a repeat', () => {
    const attachment = fresh();
    attachment.namespaces['/feed'] = { sid: 's', userId: 'u' };
    expect(admitConnect(attachment, '/feed', 0, bound, () => true)).toBe('answering');
  });

  it('admits a namespace again once the client left it, or its connect was refused', () => {
    const attachment = fresh();
    expect(admitConnect(attachment, '/messages', 0, bound, none)).toBe('admitted');
    expect(admitConnect(attachment, '/messages', 1, bound, none)).toBe('admitted');
  });

  it('counts every connect in the window, refused and unknown namespaces too, and refuses past the bound', () => {
    const attachment = fresh();
    expect(admitConnect(attachment, '/nope', 0, bound, none)).toBe('invalid');
    expect(admitConnect(attachment, '/', 1, bound, none)).toBe('invalid');
    expect(admitConnect(attachment, '/feed', 2, bound, none)).toBe('admitted');
    expect(admitConnect(attachment, '/messages', 3, bound, none)).toBe('too-many');
  });

  it('starts a new window once the last one has passed', () => {
    const attachment = fresh();
    for (let i = 0; i < 3; i++) admitConnect(attachment, '/nope', i, bound, none);
    expect(admitConnect(attachment, '/nope', 59_999, bound, none)).toBe('too-many');
    expect(admitConnect(attachment, '/nope', 60_000, bound, none)).toBe('invalid');
    expect(attachment.connects).toEqual({ since: 60_000, count: 1 });
  });
});
