import type { Env } from '../env';

/** The client's address as Cloudflare reports it; requests without one share a bucket. */
export function clientAddress(_env: Env, request: Request): string {
  return request.headers.get('cf-connecting-ip')?.trim() || 'unknown';
}
