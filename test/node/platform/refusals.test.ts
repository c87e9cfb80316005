import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../worker/platform/http/errors';
import { invalidBodyField, type Refusals, refusal } from '../../../worker/platform/http/refusals';

type Refused = 'not-found' | { outcome: 'duplicate'; field: 'name' | 'url' } | { outcome: 'not-yours' | 'full' };

const REFUSALS: Refusals<Refused> = {
  'not-found': { status: 404, message: 'Thing not found.' },
  'not-yours': { status: 403, message: 'Not your thing.' },
  full: { status: 409, message: 'Too many things.' },
  duplicate: ({ field }) => ({
    status: 409,
    message: `Another thing has this ${field}.`,
    details: [{ field, message: 'already used' }],
  }),
};

const answer = (error: ApiError) => ({ status: error.status, message: error.message, details: error.details });

describe('refusal', () => {
  it('answers a bare outcome with its entry', () => {
    const error = refusal(REFUSALS, 'not-found');
    expect(error).toBeInstanceOf(ApiError);
    expect(answer(error)).toEqual({ status: 404, message: 'Thing not found.', details: undefined });
  });

  it('answers an outcome object by its name, including one of a member naming several', () => {
    expect(answer(refusal(REFUSALS, { outcome: 'full' }))).toEqual({
      status: 409,
      message: 'Too many things.',
      details: undefined,
    });
  });

  it('hands an outcome carrying data to its entry, details included', () => {
    expect(answer(refusal(REFUSALS, { outcome: 'duplicate', field: 'url' }))).toEqual({
      status: 409,
      message: 'Another thing has this url.',
      details: [{ field: 'url', message: 'already used' }],
    });
  });

  it('answers by bare name an outcome declared as an object that carries nothing else', () => {
    expect(refusal(REFUSALS, 'full').status).toBe(409);
  });

  it('answers a union of bare-named and data-carrying outcomes passed as objects', () => {
    const refused = { outcome: 'not-found' } as { outcome: 'not-found' } | { outcome: 'duplicate'; field: 'name' };
    expect(refusal(REFUSALS, refused).message).toBe('Thing not found.');
  });

  it('takes a table covering more outcomes than the narrowed one passed', () => {
    const outcome = 'not-found' as 'not-found' | 'deleted';
    if (outcome !== 'deleted') expect(refusal(REFUSALS, outcome).status).toBe(404);
  });

  it('words a body field naming nothing as the 400 a failed body validation answers', () => {
    expect(answer(refusal({ unknown: invalidBodyField('spotId', 'no such spot') }, 'unknown'))).toEqual({
      status: 400,
      message: 'Invalid request body.',
      details: [{ field: 'spotId', message: 'no such spot' }],
    });
  });

  it('fails the typecheck on an outcome left out, one never returned, one the table does not know, or data left out', () => {
    // @ts-expect-error 'not-yours' has no entry
    const missing: Refusals<'not-found' | 'not-yours'> = { 'not-found': { status: 404, message: 'Gone.' } };
    const extra: Refusals<'not-found'> = {
      'not-found': { status: 404, message: 'Gone.' },
      // @ts-expect-error the service never refuses with 'taken'
      taken: { status: 409, message: 'Taken.' },
    };
    // @ts-expect-error a refusal is a client error, never a 5xx
    const server: Refusals<'down'> = { down: { status: 503, message: 'Down.' } };
    // @ts-expect-error the table has no entry for 'taken'
    const unknown = () => refusal(extra, 'taken');
    // @ts-expect-error a bare name cannot stand for an outcome whose answer needs its data
    const bare = () => refusal(REFUSALS, 'duplicate');
    expect([missing, server, unknown, bare]).toHaveLength(4);
  });
});
